// The analytics roll-ups (docs/decisions/029): per-day aggregates and "last seen" tables of play_events
// and page_hits that the triggers of migrations 0011, 0013 and 0014 keep in step with every insert and update.
// This module rebuilds them from the raw rows in one pass, for bulk loads (seed:demo) that would pay the
// triggers a million times, and for the test that checks the triggers against a rebuild. The statements
// are those the migrations ran to backfill existing plays and hits.
import type { Database } from 'bun:sqlite'

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
  `INSERT INTO rollup_day_totals SELECT started_at / 86400000, source, device_type, count(*), total(listen_duration),
   	total(CASE WHEN duration > 0 THEN min(listen_duration, duration) ELSE 0 END), total(CASE WHEN duration > 0 THEN duration ELSE 0 END),
   	total(completed), total(skipped), count(session_id), total(liked), total(shared), total(repeated),
   	total(buffer_count > 0), total(quality_drops > 0), total(buffer_count), total(quality_drops)
   	FROM play_events GROUP BY 1, 2, 3`,
  `INSERT INTO rollup_day_hours SELECT started_at / 86400000, (started_at / 3600000) % 24, count(*) FROM play_events GROUP BY 1, 2`,
  `INSERT INTO rollup_day_genres SELECT started_at / 86400000, coalesce(nullif(trim(genre), ''), ''), count(*), total(completed) FROM play_events GROUP BY 1, 2`,
  `INSERT INTO rollup_day_places SELECT started_at / 86400000, country, region, city, count(*) FROM play_events
   	WHERE country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL GROUP BY 1, 2, 3, 4`,
  `INSERT INTO rollup_place_users SELECT country, region, city, user_id, max(started_at) FROM play_events
   	WHERE user_id IS NOT NULL AND (country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL) GROUP BY 1, 2, 3, 4`,
  `INSERT INTO rollup_country_users SELECT country, user_id, max(last_at) FROM rollup_place_users WHERE country IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_region_users SELECT country, region, user_id, max(last_at) FROM rollup_place_users WHERE region IS NOT NULL GROUP BY 1, 2, 3`,
  `INSERT INTO rollup_day_users SELECT user_id, day, plays, listen, completions,
     sum(plays) OVER w, sum(listen) OVER w, sum(completions) OVER w, row_number() OVER w
     FROM (SELECT user_id, started_at / 86400000 AS day, count(*) AS plays, total(listen_duration) AS listen, total(completed) AS completions
       FROM play_events WHERE user_id IS NOT NULL GROUP BY 1, 2)
     WINDOW w AS (PARTITION BY user_id ORDER BY day)`,
  `INSERT INTO rollup_user_last SELECT user_id, max(started_at) FROM play_events WHERE user_id IS NOT NULL GROUP BY 1`,
  `INSERT INTO rollup_track_last SELECT track_key, max(started_at) FROM play_events GROUP BY 1`,
  `INSERT INTO rollup_session_last SELECT session_id, max(started_at) FROM play_events WHERE session_id IS NOT NULL GROUP BY 1`,
  `INSERT INTO rollup_user_tracks SELECT user_id, track_key, max(started_at), max(CASE WHEN liked THEN started_at END) FROM play_events
   	WHERE user_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_day_playlists SELECT started_at / 86400000, playlist_id, count(*), total(completed), total(listen_duration) FROM play_events
   	WHERE playlist_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_playlist_users SELECT playlist_id, user_id, max(started_at) FROM play_events
   	WHERE playlist_id IS NOT NULL AND user_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_playlist_tracks SELECT playlist_id, track_key, max(started_at) FROM play_events WHERE playlist_id IS NOT NULL GROUP BY 1, 2`,
  `INSERT INTO rollup_day_tracks SELECT track_key, day, plays, title, artist, last_at, sum(plays) OVER (PARTITION BY track_key ORDER BY day)
     FROM (SELECT track_key, started_at / 86400000 AS day, count(*) AS plays, max(title) AS title, max(artist) AS artist, max(started_at) AS last_at
       FROM play_events GROUP BY 1, 2)`,
  `INSERT INTO rollup_hit_days SELECT created_at / 86400000, page, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1, 2`,
  `INSERT INTO rollup_hit_day_totals SELECT created_at / 86400000, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY 1`,
  `INSERT INTO rollup_hit_visitors SELECT visitor_hash, max(created_at) FROM page_hits GROUP BY 1`,
  `INSERT INTO rollup_hit_page_visitors SELECT page, visitor_hash, max(created_at) FROM page_hits GROUP BY 1, 2`,
]

function refill(sqlite: Database) {
  for (const table of ROLLUP_TABLES) sqlite.run(`DELETE FROM ${table}`)
  for (const statement of REBUILD) sqlite.run(statement)
}

/** Runs `work` with the roll-up triggers dropped (the raw tables' and those that follow rollup_place_users), then restores them. */
function withoutTriggers<T>(sqlite: Database, work: () => T): T {
  const triggers = sqlite
    .query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('play_events', 'page_hits', 'rollup_place_users')`)
    .all() as { name: string; sql: string }[]
  for (const t of triggers) sqlite.run(`DROP TRIGGER ${t.name}`)
  const result = work()
  for (const t of triggers) sqlite.run(t.sql)
  return result
}

/** Empties every roll-up and fills it again from play_events and page_hits. Run inside a transaction. */
export function rebuildRollups(sqlite: Database) {
  withoutTriggers(sqlite, () => refill(sqlite))
}

/**
 * Runs a bulk load of play events and page hits without the per-row triggers, then rebuilds the roll-ups and puts
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
