// The analytics roll-ups (docs/decisions/029): per-day aggregates and "last seen" tables of play_events
// and page_hits that the triggers of migrations 0011, 0013 and 0014 keep in step with every insert and update.
// This module rebuilds them from the raw rows in one pass, for bulk loads (seed:demo) that would pay the
// triggers a million times, and for the test that checks the triggers against a rebuild. The statements
// are those the migrations ran to backfill existing plays and hits, in the SQL both engines read the
// same (docs/decisions/086); PostgreSQL's triggers are those of migrations-pg/0002.
import type { Database } from 'bun:sqlite'
import { sql } from 'drizzle-orm'
import { type Db, execute, isPostgres } from '~/db/engine'
import { PG_DERIVED_FROM, REFILL_DERIVED_ROLLUPS } from '~/db/pg/derived-rollups'
import { oneIf, total } from './analytics'

export const ROLLUP_TABLES = [
  'rollup_day_totals',
  'rollup_day_hours',
  'rollup_day_genres',
  'rollup_day_places',
  'rollup_place_users',
  'rollup_country_users',
  'rollup_region_users',
  'rollup_day_users',
  'rollup_user_last',
  'rollup_track_last',
  'rollup_session_last',
  'rollup_user_tracks',
  'rollup_day_playlists',
  'rollup_playlist_users',
  'rollup_playlist_tracks',
  'rollup_day_tracks',
  'rollup_hit_days',
  'rollup_hit_day_totals',
  'rollup_hit_visitors',
  'rollup_hit_page_visitors',
] as const

/** The page-hit roll-ups, which "clear hit data" empties with page_hits. */
export const HIT_ROLLUP_TABLES = ['rollup_hit_days', 'rollup_hit_day_totals', 'rollup_hit_visitors', 'rollup_hit_page_visitors'] as const

const REBUILD = [
  `INSERT INTO rollup_day_totals SELECT started_at / 86400000, source, device_type, count(*), ${total('listen_duration')},
   	${total('CASE WHEN duration > 0 THEN CASE WHEN listen_duration < duration THEN listen_duration ELSE duration END ELSE 0 END')},
   	${total('CASE WHEN duration > 0 THEN duration ELSE 0 END')},
   	${['completed', 'skipped'].map((c) => total(oneIf(c))).join(', ')}, count(session_id),
   	${['liked', 'shared', 'repeated', 'buffer_count > 0', 'quality_drops > 0'].map((c) => total(oneIf(c))).join(', ')},
   	${total('buffer_count')}, ${total('quality_drops')}
   	FROM play_events GROUP BY 1, 2, 3`,
  `INSERT INTO rollup_day_hours SELECT started_at / 86400000, (started_at / 3600000) % 24, count(*) FROM play_events GROUP BY 1, 2`,
  `INSERT INTO rollup_day_genres SELECT started_at / 86400000, coalesce(nullif(trim(genre), ''), ''), count(*), ${total(oneIf('completed'))} FROM play_events GROUP BY 1, 2`,
  `INSERT INTO rollup_day_places SELECT started_at / 86400000, country, region, city, count(*) FROM play_events
   	WHERE country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL GROUP BY 1, 2, 3, 4`,
  `INSERT INTO rollup_place_users SELECT country, region, city, user_id, max(started_at) FROM play_events
   	WHERE user_id IS NOT NULL AND (country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL) GROUP BY 1, 2, 3, 4`,
  `INSERT INTO rollup_country_users SELECT country, user_id, max(last_at) FROM rollup_place_users WHERE country IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_region_users SELECT country, region, user_id, max(last_at) FROM rollup_place_users WHERE region IS NOT NULL GROUP BY 1, 2, 3`,
  `INSERT INTO rollup_day_users SELECT user_id, day, plays, listen, completions,
     sum(plays) OVER w, sum(listen) OVER w, sum(completions) OVER w, row_number() OVER w
     FROM (SELECT user_id, started_at / 86400000 AS day, count(*) AS plays, ${total('listen_duration')} AS listen, ${total(oneIf('completed'))} AS completions
       FROM play_events WHERE user_id IS NOT NULL GROUP BY 1, 2) AS d
     WINDOW w AS (PARTITION BY user_id ORDER BY day)`,
  `INSERT INTO rollup_user_last SELECT user_id, max(started_at) FROM play_events WHERE user_id IS NOT NULL GROUP BY 1`,
  `INSERT INTO rollup_track_last SELECT track_key, max(started_at) FROM play_events GROUP BY 1`,
  `INSERT INTO rollup_session_last SELECT session_id, max(started_at) FROM play_events WHERE session_id IS NOT NULL GROUP BY 1`,
  `INSERT INTO rollup_user_tracks SELECT user_id, track_key, max(started_at), max(CASE WHEN liked THEN started_at END) FROM play_events
   	WHERE user_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_day_playlists SELECT started_at / 86400000, playlist_id, count(*), ${total(oneIf('completed'))}, ${total('listen_duration')} FROM play_events
   	WHERE playlist_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_playlist_users SELECT playlist_id, user_id, max(started_at) FROM play_events
   	WHERE playlist_id IS NOT NULL AND user_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_playlist_tracks SELECT playlist_id, track_key, max(started_at) FROM play_events WHERE playlist_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_day_tracks SELECT track_key, day, plays, title, artist, last_at, sum(plays) OVER (PARTITION BY track_key ORDER BY day)
     FROM (SELECT track_key, started_at / 86400000 AS day, count(*) AS plays, max(title) AS title, max(artist) AS artist, max(started_at) AS last_at
       FROM play_events GROUP BY 1, 2) AS d`,
  `INSERT INTO rollup_hit_days SELECT created_at / 86400000, page, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1, 2`,
  `INSERT INTO rollup_hit_day_totals SELECT created_at / 86400000, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1`,
  `INSERT INTO rollup_hit_visitors SELECT visitor_hash, max(created_at) FROM page_hits GROUP BY 1`,
  `INSERT INTO rollup_hit_page_visitors SELECT page, visitor_hash, max(created_at) FROM page_hits GROUP BY 1, 2`,
]

/** The tables whose triggers keep the roll-ups: the raw plays and hits, and rollup_place_users (which feeds the country and region ones). */
const TRIGGERED_TABLES = ['play_events', 'page_hits', 'rollup_place_users'] as const

function refill(sqlite: Database) {
  for (const table of ROLLUP_TABLES) sqlite.run(`DELETE FROM ${table}`)
  for (const statement of REBUILD) sqlite.run(statement)
}

/** Runs `work` with the roll-up triggers dropped (the raw tables' and those that follow rollup_place_users), then restores them. */
function withoutTriggers<T>(sqlite: Database, work: () => T): T {
  const triggers = sqlite
    .query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (${TRIGGERED_TABLES.map((t) => `'${t}'`).join(', ')})`)
    .all() as { name: string; sql: string }[]
  for (const t of triggers) sqlite.run(`DROP TRIGGER ${t.name}`)
  const result = work()
  for (const t of triggers) sqlite.run(t.sql)
  return result
}

/**
 * Empties every roll-up and fills it again from play_events and page_hits, with the roll-up
 * triggers off meanwhile. Run inside a transaction (`transaction` of ~/db/engine): readers never see
 * the roll-ups half built.
 */
export async function rebuildRollups(db: Db): Promise<void> {
  if (!isPostgres(db)) {
    // SQLite: its triggers are dropped and created again (it cannot switch one off).
    withoutTriggers(db.$client, () => refill(db.$client))
    return
  }
  // PostgreSQL: the triggers are switched off for the rebuild; ALTER TABLE is transactional, so a
  // failure part-way leaves them on. The roll-ups only PostgreSQL has (src/db/pg/derived-rollups.ts)
  // are refilled from the rebuilt ones, their triggers off meanwhile too (docs/decisions/104).
  const triggered = [...TRIGGERED_TABLES, ...PG_DERIVED_FROM]
  for (const table of triggered) await execute(db, sql.raw(`ALTER TABLE ${table} DISABLE TRIGGER USER`))
  for (const table of ROLLUP_TABLES) await execute(db, sql.raw(`DELETE FROM ${table}`))
  for (const statement of [...REBUILD, ...REFILL_DERIVED_ROLLUPS]) await execute(db, sql.raw(statement))
  for (const table of triggered) await execute(db, sql.raw(`ALTER TABLE ${table} ENABLE TRIGGER USER`))
}

/**
 * SQLite only (seed:demo writes a SQLite instance, which `vibes db copy` can then take to PostgreSQL):
 * runs a bulk load of play events and page hits without the per-row triggers, then rebuilds the roll-ups and puts
 * the triggers back, all in one transaction: readers never see the roll-ups out of step.
 */
export function bulkLoadPlays<T>(sqlite: Database, load: () => T): T {
  return sqlite.transaction(() =>
    withoutTriggers(sqlite, () => {
      const result = load()
      refill(sqlite)
      return result
    }),
  )()
}
