// Listening analytics for the admin: overview, users, patterns, places, playlists and engagement,
// for a period of 1, 7, 14, 30, 60 or 90 days. Definitions: docs/analytics.md; the numbers are exactly those of SQL aggregates over
// play_events in the period, but read from the roll-ups (docs/decisions/029) so that a 90-day answer
// over a million plays reads a few thousand rows:
// - A period is the last `days` × 24 h up to now with no upper bound (started_at >= from). It splits
//   into the whole UTC days after the one `from` falls in, summed from the per-day roll-up tables,
//   and the tail of that first day, read raw through the started_at index (at most one day of plays).
// - Distinct counts (members, tracks, sessions, members per place or playlist, a member's tracks and
//   liked tracks) come from "last seen" tables: a key played since `from` is one whose latest play is
//   at or after `from`, so a count over an index range is exact.
// - Hours and days are integer arithmetic on epoch milliseconds (UTC), far cheaper than strftime().
// The roll-ups are kept by triggers on play_events (SQLite migration 0011, PostgreSQL's migrations-pg/0002)
// in the writer's transaction.
//
// Plain SQL run by rows()/firstRow() (src/db/engine.ts) on either engine, written so that SQLite and
// PostgreSQL read it the same (docs/decisions/086): sums through `total()` below, booleans counted
// with CASE, quoted camelCase aliases, every derived table named. Only the raw tail's table (edgeOf)
// and the per-key sums of a period (membersInPeriod: running totals on SQLite, the day rows' sums on
// PostgreSQL) differ, docs/decisions/091 and 101. These are reporting queries (GROUP BY, UNION ALL, CASE) that read more clearly as SQL
// than through the query builder.
import { type SQL, sql } from 'drizzle-orm'
import { type Db, firstRow, isPostgres, rows } from '~/db/engine'
import { DEVICE_TYPES } from '~/shared/player/device'
import { RECORDED_SOURCES, type AnalyticsDays } from '~/shared/validators'

export const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/** How many rows of each grouped list the server answers (the screens show 5 to 10). */
export const LIST_CAP = 25
/** A user with at least this many plays in the period counts as highly engaged. */
export const HIGH_ENGAGEMENT_PLAYS = 10

// Plays group by play_events.track_key: catalog/track-key.ts has the rule (TRACK_KEY_SQL).

const round1 = (n: number) => Math.round(n * 10) / 10
const pct = (part: number, whole: number) => (whole > 0 ? round1((part / whole) * 100) : 0)
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/**
 * SQLite's `total(x)` on both engines: the sum as a float, 0 over no rows. PostgreSQL's sum of a
 * bigint is numeric, which its driver answers as text; the cast makes it a number on both.
 */
export const total = (expression: string) => `CAST(coalesce(sum(${expression}), 0) AS double precision)`
/** 1 when the condition holds, else 0: a boolean counted the same on both engines. */
export const oneIf = (condition: string) => `CASE WHEN ${condition} THEN 1 ELSE 0 END`

export function periodOf(days: number, now: number) {
  const from = now - days * DAY_MS
  return { from, period: { days, from: new Date(from).toISOString(), to: new Date(now).toISOString() } }
}

/**
 * What every period query binds: `from`; `end`, the end of from's UTC day (the raw tail is
 * [from, end)); `day`, from's day number (roll-up rows with day > it are the whole days after it).
 */
export type Span = { from: number; end: number; day: number }

export function spanOf(from: number): Span {
  const day = Math.floor(from / DAY_MS)
  return { from, end: (day + 1) * DAY_MS, day }
}

/** Raw plays of the period's first, partial day (at most one day of plays). */
export function edgeOf(db: Db, s: Span): SQL {
  // PostgreSQL: its planner takes the started_at index for a range this narrow.
  if (isPostgres(db)) return sql`play_events WHERE started_at >= ${s.from} AND started_at < ${s.end}`
  // SQLite: pinned to the started_at index, which its planner would not always pick over the others.
  return sql`play_events INDEXED BY play_events_started_at_idx WHERE started_at >= ${s.from} AND started_at < ${s.end}`
}

/**
 * SQLite: joins `t`, the latest row of each key's running totals (`l.user_id` in rollup_day_users,
 * `l.track_key` in rollup_day_tracks), and `b`, its last row on or before `day` (none when the key
 * had no play by then): two index seeks per key, however long the period. (SQLite has no LATERAL:
 * the day by a sub-select, then the row by its primary key.) PostgreSQL sums the period's rows
 * instead: the members' day rows (membersInPeriod, docs/decisions/101), the tracks' week rows
 * (stats' tracksInPeriod, docs/decisions/104).
 */
export function runningTotals(table: 'rollup_day_users' | 'rollup_day_tracks', key: 'user_id' | 'track_key', day: number): SQL {
  const [rollup, column] = [sql.raw(table), sql.raw(key)]
  return sql`JOIN ${rollup} AS t ON t.${column} = l.${column} AND t.day = (SELECT day FROM ${rollup} WHERE ${column} = l.${column} ORDER BY day DESC LIMIT 1)
    LEFT JOIN ${rollup} AS b ON b.${column} = l.${column} AND b.day = (SELECT day FROM ${rollup} WHERE ${column} = l.${column} AND day <= ${day} ORDER BY day DESC LIMIT 1)`
}

/**
 * Each member who played in the period with their plays, listen time, completions and active days
 * in it: the whole days' figures from rollup_day_users plus the raw tail.
 */
function membersInPeriod(db: Db, s: Span): SQL {
  const edge = sql`LEFT JOIN (SELECT user_id, count(*) AS plays, ${sql.raw(total('listen_duration'))} AS listen, ${sql.raw(total(oneIf('completed')))} AS completions
                 FROM ${edgeOf(db, s)} AND user_id IS NOT NULL
                GROUP BY user_id) AS e ON e.user_id = l.user_id`
  // PostgreSQL: the sums of the period's day rows, one pass (the day index for a short period, the
  // table for a long one; ~8 rows per member at 1M plays) and a hash join. Two index look-ups per
  // member, SQLite's way, cost its executor several times that (docs/decisions/101).
  if (isPostgres(db))
    return sql`per AS (
  SELECT l.user_id AS user_id,
         coalesce(d.plays, 0) + coalesce(e.plays, 0) AS plays,
         coalesce(d.listen, 0) + coalesce(e.listen, 0) AS listen,
         coalesce(d.completions, 0) + coalesce(e.completions, 0) AS completions,
         coalesce(d.days, 0) + ${sql.raw(oneIf('e.plays IS NOT NULL'))} AS days
    FROM rollup_user_last AS l
    LEFT JOIN (SELECT user_id, CAST(sum(plays) AS bigint) AS plays, sum(listen) AS listen, CAST(sum(completions) AS bigint) AS completions, count(*) AS days
                 FROM rollup_day_users WHERE day > ${s.day} GROUP BY user_id) AS d ON d.user_id = l.user_id
    ${edge}
   WHERE l.last_at >= ${s.from})`
  // SQLite: their latest running totals minus those of their last day before the period.
  return sql`per AS (
  SELECT l.user_id AS user_id,
         t.cum_plays - coalesce(b.cum_plays, 0) + coalesce(e.plays, 0) AS plays,
         t.cum_listen - coalesce(b.cum_listen, 0) + coalesce(e.listen, 0) AS listen,
         t.cum_completions - coalesce(b.cum_completions, 0) + coalesce(e.completions, 0) AS completions,
         t.cum_days - coalesce(b.cum_days, 0) + ${sql.raw(oneIf('e.plays IS NOT NULL'))} AS days
    FROM rollup_user_last AS l
    ${runningTotals('rollup_day_users', 'user_id', s.day)}
    ${edge}
   WHERE l.last_at >= ${s.from})`
}

// --- overview ------------------------------------------------------------------------------------

const SAFE_VALUE = /^[a-z0-9-]+$/
/** `total(CASE WHEN col = 'v' THEN plays END) AS "col_i_n", … listen … AS "col_i_l"` per value. */
function bucketColumns(column: string, values: readonly string[]): string {
  return values
    .map((v, i) => {
      if (!SAFE_VALUE.test(v)) throw new Error(`unexpected bucket value ${v}`)
      return `${total(`CASE WHEN ${column} = '${v}' THEN plays END`)} AS "${column}_${i}_n", ${total(`CASE WHEN ${column} = '${v}' THEN listen END`)} AS "${column}_${i}_l"`
    })
    .join(',\n')
}

/** The non-empty buckets, most plays first (then by name), with their average listen duration. */
function buckets(row: Record<string, number>, column: string, values: readonly string[]) {
  return values
    .map((key, i) => {
      const count = num(row[`${column}_${i}_n`])
      return { key, count, average: count > 0 ? round1(num(row[`${column}_${i}_l`]) / count) : 0 }
    })
    .filter((b) => b.count > 0)
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
}

type Totals = {
  plays: number
  tracks: number
  listen: number
  heard: number
  length: number
  completions: number
  skips: number
  sessionPlays: number
  sessions: number
}

export async function listeningOverview(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  // Sources and device classes are closed sets (validated on the way in), so their counts and
  // listen sums ride along in the same single pass as conditional sums — no GROUP BY sort.
  const t = (await firstRow<Totals & Record<string, number>>(
    db,
    sql`SELECT ${sql.raw(total('plays'))} AS plays, ${sql.raw(total('listen'))} AS listen, ${sql.raw(total('heard'))} AS heard, ${sql.raw(total('length'))} AS length,
            ${sql.raw(total('completions'))} AS completions, ${sql.raw(total('skips'))} AS skips, ${sql.raw(total('session_plays'))} AS "sessionPlays",
            ${sql.raw(bucketColumns('source', RECORDED_SOURCES))},
            ${sql.raw(bucketColumns('device_type', DEVICE_TYPES))}
       FROM (SELECT source, device_type, plays, listen, heard, length, completions, skips, session_plays FROM rollup_day_totals WHERE day > ${s.day}
             UNION ALL
             SELECT source, device_type, 1, listen_duration,
                    CASE WHEN duration > 0 THEN CASE WHEN listen_duration < duration THEN listen_duration ELSE duration END ELSE 0 END,
                    CASE WHEN duration > 0 THEN duration ELSE 0 END, ${sql.raw(oneIf('completed'))}, ${sql.raw(oneIf('skipped'))},
                    ${sql.raw(oneIf('session_id IS NOT NULL'))} FROM ${edgeOf(db, s)}) AS p`,
  ))!
  t.tracks = await lastSeenSince(db, 'rollup_track_last', from)
  t.sessions = await lastSeenSince(db, 'rollup_session_last', from)
  const users = await lastSeenSince(db, 'rollup_user_last', from)
  return {
    period,
    overview: {
      totalPlays: t.plays,
      uniqueUsers: users,
      uniqueTracks: t.tracks,
      totalListenTime: round1(num(t.listen)),
      /** Share of the played tracks' length that was listened to, in percent. */
      listenRatio: pct(num(t.heard), num(t.length)),
      /** Plays per listening session (plays that carry a session id). */
      averageSessionLength: t.sessions > 0 ? round1(t.sessionPlays / t.sessions) : 0,
    },
    completion: { completionRate: pct(num(t.completions), t.plays), skippedTracks: num(t.skips) },
    sources: buckets(t, 'source', RECORDED_SOURCES).map((b) => ({ source: b.key, count: b.count, averageListenDuration: b.average })),
    devices: buckets(t, 'device_type', DEVICE_TYPES).map((b) => ({ deviceType: b.key, count: b.count, averageListenDuration: b.average })),
    aggregated: { playMetrics: { count: t.plays, totalListenTime: round1(num(t.listen)), completions: num(t.completions), skips: num(t.skips) } },
  }
}

/** How many keys of a "last seen" roll-up (members, tracks, sessions) were played since `from`. */
async function lastSeenSince(db: Db, table: 'rollup_user_last' | 'rollup_track_last' | 'rollup_session_last', from: number): Promise<number> {
  return (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${sql.raw(table)} WHERE last_at >= ${from}`))!.n
}

// --- users ---------------------------------------------------------------------------------------

export async function userListeningBehavior(db: Db, days: AnalyticsDays, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  // Plays of deleted users (user_id set null) stay in the totals elsewhere but name nobody here
  // (their roll-up rows went with them). The busiest members come from their running totals; their
  // distinct tracks and liked tracks from their "last seen" rows. Ties at the cut-off go by user id.
  const found = await rows<{
    userId: string
    username: string
    email: string
    plays: number
    listen: number
    completions: number
    tracks: number
    liked: number
  }>(
    db,
    sql`WITH ${membersInPeriod(db, s)},
     top AS (SELECT * FROM per ORDER BY plays DESC, user_id LIMIT ${limit})
     SELECT top.user_id AS "userId", u.username AS username, u.email AS email, CAST(top.plays AS bigint) AS plays,
            CAST(top.listen AS double precision) AS listen, CAST(top.completions AS double precision) AS completions,
            (SELECT count(*) FROM rollup_user_tracks AS t WHERE t.user_id = top.user_id AND t.last_at >= ${from}) AS tracks,
            (SELECT count(*) FROM rollup_user_tracks AS t WHERE t.user_id = top.user_id AND t.liked_at >= ${from}) AS liked
       FROM top JOIN users AS u ON u.id = top.user_id
      ORDER BY top.plays DESC, top.listen DESC, u.username`,
  )
  return {
    period,
    users: found.map((r) => ({
      userId: r.userId,
      username: r.username,
      email: r.email,
      totalPlays: r.plays,
      totalListenTime: round1(num(r.listen)),
      completionRate: pct(num(r.completions), r.plays),
      uniqueTracks: r.tracks,
      likedTracks: r.liked,
    })),
  }
}

// --- patterns ------------------------------------------------------------------------------------

export async function listeningPatterns(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  const hours = await rows<{ hour: number; plays: number }>(
    db,
    sql`SELECT hour, CAST(coalesce(sum(plays), 0) AS bigint) AS plays
       FROM (SELECT hour, plays FROM rollup_day_hours WHERE day > ${s.day}
             UNION ALL SELECT (started_at / ${sql.raw(String(HOUR_MS))}) % 24, 1 FROM ${edgeOf(db, s)}) AS p
      GROUP BY hour`,
  )
  const byHour = new Map(hours.map((h) => [h.hour, h.plays]))
  const genres = await rows<{ genre: string | null; plays: number; completions: number }>(
    db,
    // The roll-up keeps "no genre tag" as ''; it sorts first among equals on both engines (PostgreSQL
    // puts NULL last by default).
    sql`SELECT nullif(genre, '') AS genre, CAST(coalesce(sum(plays), 0) AS bigint) AS plays, ${sql.raw(total('completions'))} AS completions
       FROM (SELECT genre, plays, completions FROM rollup_day_genres WHERE day > ${s.day}
             UNION ALL SELECT coalesce(nullif(trim(genre), ''), ''), 1, ${sql.raw(oneIf('completed'))} FROM ${edgeOf(db, s)}) AS p
      GROUP BY 1 ORDER BY 2 DESC, 1 NULLS FIRST LIMIT ${sql.raw(String(LIST_CAP))}`,
  )
  return {
    period,
    /** All 24 hours of the day in UTC, quiet hours included. */
    hourlyPattern: Array.from({ length: 24 }, (_, hour) => ({ hour, plays: byHour.get(hour) ?? 0 })),
    /** `genre: null` is "no genre tag" (the screens label it Unknown). */
    genrePattern: genres.map((g) => ({ genre: g.genre, plays: g.plays, averageCompletionRate: pct(num(g.completions), g.plays) })),
  }
}

// --- geography -----------------------------------------------------------------------------------

export async function geographicListening(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  // Plays per place from the per-day roll-up (plus the raw tail); countries, regions and cities are
  // rolled up from it, 25 each by plays. Members per place: the "last seen" rows of each member and
  // country, region or city (migration 0014) since `from`, one index range each.
  const found = await rows<{
    kind: 'country' | 'region' | 'city'
    country: string | null
    region: string | null
    city: string | null
    plays: number
    uniqueUsers: number
  }>(
    db,
    sql`WITH pp AS MATERIALIZED (
       SELECT country, region, city, coalesce(sum(plays), 0) AS plays
         FROM (SELECT country, region, city, plays FROM rollup_day_places WHERE day > ${s.day}
               UNION ALL SELECT country, region, city, 1 FROM ${edgeOf(db, s)} AND (country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL)) AS p
        GROUP BY country, region, city),
     places AS (
       SELECT CAST('country' AS text) AS kind, country, CAST(NULL AS text) AS region, CAST(NULL AS text) AS city, sum(plays) AS plays FROM pp WHERE country IS NOT NULL GROUP BY country
       UNION ALL
       SELECT 'region', country, region, NULL, sum(plays) FROM pp WHERE region IS NOT NULL GROUP BY region, country
       UNION ALL
       SELECT 'city', country, region, city, sum(plays) FROM pp WHERE city IS NOT NULL GROUP BY city, region, country),
     ranked AS (
       SELECT kind, country, region, city, plays,
              CASE kind
                WHEN 'country' THEN (SELECT count(*) FROM rollup_country_users AS u WHERE u.country = places.country AND u.last_at >= ${from})
                WHEN 'region' THEN (SELECT count(*) FROM rollup_region_users AS u WHERE u.region = places.region AND u.country IS NOT DISTINCT FROM places.country AND u.last_at >= ${from})
                ELSE (SELECT count(*) FROM rollup_place_users AS u WHERE u.city = places.city AND u.region IS NOT DISTINCT FROM places.region AND u.country IS NOT DISTINCT FROM places.country AND u.last_at >= ${from})
              END AS users
         FROM places)
     SELECT kind, country, region, city, CAST(plays AS bigint) AS plays, users AS "uniqueUsers" FROM (
       SELECT kind, country, region, city, plays, users,
              row_number() OVER (PARTITION BY kind ORDER BY plays DESC, users DESC, coalesce(city, region, country)) AS n FROM ranked) AS r
      WHERE n <= ${sql.raw(String(LIST_CAP))} ORDER BY kind, n`,
  )
  return {
    period,
    countries: found.filter((r) => r.kind === 'country').map((r) => ({ country: r.country as string, plays: r.plays, uniqueUsers: r.uniqueUsers })),
    regions: found
      .filter((r) => r.kind === 'region')
      .map((r) => ({ region: r.region as string, country: r.country, plays: r.plays, uniqueUsers: r.uniqueUsers })),
    cities: found
      .filter((r) => r.kind === 'city')
      .map((r) => ({ city: r.city as string, region: r.region, country: r.country, plays: r.plays, uniqueUsers: r.uniqueUsers })),
  }
}

// --- playlists -----------------------------------------------------------------------------------

export async function playlistAnalytics(db: Db, days: AnalyticsDays, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  const found = await rows<{ playlistId: string; plays: number; uniqueUsers: number; uniqueTracks: number; completions: number; listen: number }>(
    db,
    sql`WITH top AS (
       SELECT playlist_id, sum(plays) AS plays, ${sql.raw(total('completions'))} AS completions, ${sql.raw(total('listen'))} AS listen
         FROM (SELECT playlist_id, plays, completions, listen FROM rollup_day_playlists WHERE day > ${s.day}
               UNION ALL SELECT playlist_id, 1, ${sql.raw(oneIf('completed'))}, listen_duration FROM ${edgeOf(db, s)} AND playlist_id IS NOT NULL) AS p
        GROUP BY playlist_id ORDER BY 2 DESC, playlist_id LIMIT ${limit})
     SELECT playlist_id AS "playlistId", CAST(plays AS bigint) AS plays, completions, listen,
            (SELECT count(*) FROM rollup_playlist_users AS u WHERE u.playlist_id = top.playlist_id AND u.last_at >= ${from}) AS "uniqueUsers",
            (SELECT count(*) FROM rollup_playlist_tracks AS t WHERE t.playlist_id = top.playlist_id AND t.last_at >= ${from}) AS "uniqueTracks"
       FROM top ORDER BY top.plays DESC, top.playlist_id`,
  )
  return {
    period,
    playlists: found.map((r) => ({
      playlistId: r.playlistId,
      plays: r.plays,
      uniqueUsers: r.uniqueUsers,
      uniqueTracks: r.uniqueTracks,
      completionRate: pct(num(r.completions), r.plays),
      totalListenTime: round1(num(r.listen)),
    })),
  }
}

// --- active users (shared with the stats service) ------------------------------------------------

/** Distinct users who played something or logged in since `from`. */
export async function activeUsersSince(db: Db, from: number): Promise<number> {
  const row = await firstRow<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM (
       SELECT user_id FROM rollup_user_last WHERE last_at >= ${from}
       UNION
       SELECT user_id FROM logins WHERE created_at >= ${from} AND user_id IS NOT NULL) AS active`,
  )
  return row!.n
}

/** DAU = users active in the last 24 h, WAU = in the last 7 days; retention = DAU / WAU in percent. */
export async function dailyActive(db: Db, now = Date.now()) {
  const dau = await activeUsersSince(db, now - DAY_MS)
  const wau = await activeUsersSince(db, now - 7 * DAY_MS)
  return { dau, wau, retentionRate: wau > 0 ? pct(dau, wau) : null }
}

// --- engagement ----------------------------------------------------------------------------------

export async function userEngagement(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  // Per member (plays, listen time and distinct active days in the period) from their running totals.
  const perUser = (await firstRow<{ users: number; plays: number; high: number; listen: number; days: number }>(
    db,
    sql`WITH ${membersInPeriod(db, s)}
     SELECT count(*) AS users, ${sql.raw(total('plays'))} AS plays, ${sql.raw(total(oneIf(`plays >= ${HIGH_ENGAGEMENT_PLAYS}`)))} AS high,
            ${sql.raw(total('listen'))} AS listen, ${sql.raw(total('days'))} AS days FROM per`,
  ))!
  const plays = (await firstRow<{
    plays: number
    liked: number
    shared: number
    repeated: number
    buffered: number
    dropped: number
    bufferEvents: number
    drops: number
  }>(
    db,
    sql`SELECT ${sql.raw(['plays', 'liked', 'shared', 'repeated', 'buffered', 'dropped'].map((c) => `${total(c)} AS ${c}`).join(', '))},
            ${sql.raw(total('buffer_events'))} AS "bufferEvents", ${sql.raw(total('drops'))} AS drops
       FROM (SELECT plays, liked, shared, repeated, buffered, dropped, buffer_events, drops FROM rollup_day_totals WHERE day > ${s.day}
             UNION ALL
             SELECT 1, ${sql.raw(['liked', 'shared', 'repeated', 'buffer_count > 0', 'quality_drops > 0'].map(oneIf).join(', '))}, buffer_count, quality_drops
               FROM ${edgeOf(db, s)}) AS p`,
  ))!
  const weekAgo = now - 7 * DAY_MS
  const active = await dailyActive(db, now)
  // New users: signed up in the last 7 days. Retained: active again at least a day after signing up.
  const fresh = (await firstRow<{ newUsers: number; retained: number }>(
    db,
    sql`SELECT count(*) AS "newUsers",
            ${sql.raw(
              total(
                oneIf(`EXISTS (SELECT 1 FROM rollup_user_last AS p WHERE p.user_id = u.id AND p.last_at >= u.created_at + ${DAY_MS})
               OR EXISTS (SELECT 1 FROM logins AS l WHERE l.created_at >= u.created_at + ${DAY_MS} AND l.user_id = u.id)`),
              ),
            )} AS retained
       FROM users AS u WHERE u.created_at >= ${weekAgo}`,
  ))!
  // Returning: active in the last 7 days and a member for longer than that.
  const returning = (await firstRow<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM users AS u
      WHERE u.created_at < ${weekAgo}
        AND u.id IN (SELECT user_id FROM rollup_user_last WHERE last_at >= ${weekAgo}
                     UNION SELECT user_id FROM logins WHERE created_at >= ${weekAgo} AND user_id IS NOT NULL)`,
  ))!.n
  const users = perUser.users
  return {
    period,
    engagement: {
      totalUsers: users,
      highEngagementUsers: num(perUser.high),
      averagePlaysPerUser: users > 0 ? round1(num(perUser.plays) / users) : 0,
      averageListenTimePerUser: users > 0 ? round1(num(perUser.listen) / users) : 0,
      likeRate: pct(num(plays.liked), plays.plays),
      shareRate: pct(num(plays.shared), plays.plays),
      repeatRate: pct(num(plays.repeated), plays.plays),
      averageActiveDays: users > 0 ? round1(num(perUser.days) / users) : 0,
      highEngagementRate: pct(num(perUser.high), users),
    },
    retention: {
      /** DAU / WAU in percent; null when nobody was active this week. */
      retentionRate: active.retentionRate,
      newUsersLast7Days: fresh.newUsers,
      activeUsersLast7Days: active.wau,
      returningUsers: returning,
      newUserRetentionRate: pct(num(fresh.retained), fresh.newUsers),
    },
    quality: {
      bufferRate: pct(num(plays.buffered), plays.plays),
      qualityIssueRate: pct(num(plays.dropped), plays.plays),
      averageBufferCount: plays.plays > 0 ? Math.round((num(plays.bufferEvents) / plays.plays) * 100) / 100 : 0,
      totalBufferEvents: num(plays.bufferEvents),
      totalQualityDrops: num(plays.drops),
    },
  }
}
