// The raw-scan analytics: every figure computed from play_events itself, as the service did before
// the roll-ups (docs/decisions/029). Kept only as the oracle of tests/unit/analytics-rollups.prop.test.ts:
// the roll-up answers must equal these on any data. Copied from src/server/services/analytics.ts and
// stats.ts at the commit that introduced the roll-ups; definitions in docs/analytics.md.
import type { Db } from '~/db/client'
import { DEVICE_TYPES } from '~/shared/player/device'
import { RECORDED_SOURCES, type AnalyticsDays } from '~/shared/validators'

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/** play_events read through its started_at index (see the note at the top). */
const PERIOD = 'play_events INDEXED BY play_events_started_at_idx'
/** How many rows of each grouped list the server answers (the screens show 5 to 10). */
const LIST_CAP = 25
/** A user with at least this many plays in the period counts as highly engaged. */
const HIGH_ENGAGEMENT_PLAYS = 10

/**
 * What makes two plays "the same track": the URL, except that the signature and expiry of the
 * server library's signed media URLs (`/media/x.mp3?exp=…&sig=…`, re-issued every hour) are
 * dropped, so a file played today and tomorrow is one track. Other query strings are kept
 * (`stream.php?id=3` and `?id=4` are different tracks).
 */
const TRACK_KEY_SQL = `CASE WHEN instr(track_url, 'sig=') > 0 AND instr(track_url, '?') > 0 THEN substr(track_url, 1, instr(track_url, '?') - 1) ELSE track_url END`

const round1 = (n: number) => Math.round(n * 10) / 10
const pct = (part: number, whole: number) => (whole > 0 ? round1((part / whole) * 100) : 0)
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

function periodOf(days: number, now: number) {
  const from = now - days * DAY_MS
  return { from, period: { days, from: new Date(from).toISOString(), to: new Date(now).toISOString() } }
}

function all<T>(db: Db, sql: string, ...params: (string | number | null)[]): T[] {
  return db.$client.query(sql).all(...params) as T[]
}
function get<T>(db: Db, sql: string, ...params: (string | number | null)[]): T {
  return db.$client.query(sql).get(...params) as T
}

// --- overview ------------------------------------------------------------------------------------

const SAFE_VALUE = /^[a-z0-9-]+$/
/** `total(col = 'v') AS col_i_n, total(CASE WHEN col = 'v' THEN listen_duration END) AS col_i_l` per value. */
function bucketColumns(column: string, values: readonly string[]): string {
  return values
    .map((v, i) => {
      if (!SAFE_VALUE.test(v)) throw new Error(`unexpected bucket value ${v}`)
      return `total(${column} = '${v}') AS ${column}_${i}_n, total(CASE WHEN ${column} = '${v}' THEN listen_duration END) AS ${column}_${i}_l`
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

export function listeningOverview(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  // Sources and device classes are closed sets (validated on the way in), so their counts and
  // listen sums ride along in the same single pass as conditional sums — no GROUP BY sort.
  const t = get<Totals & Record<string, number>>(
    db,
    `SELECT count(*) AS plays,
            count(DISTINCT ${TRACK_KEY_SQL}) AS tracks,
            total(listen_duration) AS listen,
            total(CASE WHEN duration > 0 THEN min(listen_duration, duration) END) AS heard,
            total(CASE WHEN duration > 0 THEN duration END) AS length,
            total(completed) AS completions,
            total(skipped) AS skips,
            count(session_id) AS sessionPlays,
            count(DISTINCT session_id) AS sessions,
            ${bucketColumns('source', RECORDED_SOURCES)},
            ${bucketColumns('device_type', DEVICE_TYPES)}
       FROM ${PERIOD} WHERE started_at >= ?`,
    from,
  )
  const users = distinctUsers(db, from)
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

/** Distinct members who played since `from`, read from the (user_id, started_at) index alone. */
function distinctUsers(db: Db, from: number): number {
  return get<{ n: number }>(db, `SELECT count(DISTINCT user_id) AS n FROM play_events WHERE started_at >= ?`, from).n
}

// --- users ---------------------------------------------------------------------------------------

export function userListeningBehavior(db: Db, days: AnalyticsDays, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  // Plays of deleted users (user_id set null) stay in the totals elsewhere but name nobody here.
  // Two steps in one statement: the busiest members come from the (user_id, started_at) index
  // alone (no row reads, no sort of the period), then only their plays are read for the details.
  // Ties at the cut-off go by user id.
  const rows = all<{ userId: string; username: string; email: string; plays: number; listen: number; completions: number; tracks: number; liked: number }>(
    db,
    `WITH top AS (
       SELECT user_id, count(*) AS plays FROM play_events WHERE started_at >= ?1 AND user_id IS NOT NULL
        GROUP BY user_id ORDER BY plays DESC, user_id LIMIT ?2)
     SELECT top.user_id AS userId, u.username AS username, u.email AS email, top.plays AS plays,
            total(p.listen_duration) AS listen, total(p.completed) AS completions,
            count(DISTINCT ${TRACK_KEY_SQL}) AS tracks,
            count(DISTINCT CASE WHEN p.liked = 1 THEN ${TRACK_KEY_SQL} END) AS liked
       FROM top
       JOIN users AS u ON u.id = top.user_id
       JOIN play_events AS p INDEXED BY play_events_user_started_idx ON p.user_id = top.user_id AND p.started_at >= ?1
      GROUP BY top.user_id
      ORDER BY top.plays DESC, listen DESC, u.username`,
    from,
    limit,
  )
  return {
    period,
    users: rows.map((r) => ({
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

export function listeningPatterns(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const hours = all<{ hour: number; plays: number }>(
    db,
    `SELECT (started_at / ${HOUR_MS}) % 24 AS hour, count(*) AS plays FROM ${PERIOD} WHERE started_at >= ? GROUP BY hour`,
    from,
  )
  const byHour = new Map(hours.map((h) => [h.hour, h.plays]))
  const genres = all<{ genre: string | null; plays: number; completions: number }>(
    db,
    `SELECT nullif(trim(genre), '') AS genre, count(*) AS plays, total(completed) AS completions
       FROM ${PERIOD} WHERE started_at >= ? GROUP BY 1 ORDER BY plays DESC, genre LIMIT ${LIST_CAP}`,
    from,
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

export function geographicListening(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  // One pass over the period: plays per place and member (a small set), then countries, regions
  // and cities are rolled up from it, 25 each by plays.
  const rows = all<{
    kind: 'country' | 'region' | 'city'
    country: string | null
    region: string | null
    city: string | null
    plays: number
    uniqueUsers: number
  }>(
    db,
    `WITH up AS MATERIALIZED (
       SELECT country, region, city, user_id, count(*) AS plays
         FROM ${PERIOD} WHERE started_at >= ? AND (country IS NOT NULL OR region IS NOT NULL OR city IS NOT NULL)
        GROUP BY country, region, city, user_id),
     places AS (
       SELECT 'country' AS kind, country, NULL AS region, NULL AS city, total(plays) AS plays, count(DISTINCT user_id) AS uniqueUsers
         FROM up WHERE country IS NOT NULL GROUP BY country
       UNION ALL
       SELECT 'region', country, region, NULL, total(plays), count(DISTINCT user_id) FROM up WHERE region IS NOT NULL GROUP BY region, country
       UNION ALL
       SELECT 'city', country, region, city, total(plays), count(DISTINCT user_id) FROM up WHERE city IS NOT NULL GROUP BY city, region, country)
     SELECT kind, country, region, city, CAST(plays AS INTEGER) AS plays, uniqueUsers FROM (
       SELECT *, row_number() OVER (PARTITION BY kind ORDER BY plays DESC, uniqueUsers DESC, coalesce(city, region, country)) AS n FROM places)
      WHERE n <= ${LIST_CAP} ORDER BY kind, n`,
    from,
  )
  return {
    period,
    countries: rows.filter((r) => r.kind === 'country').map((r) => ({ country: r.country as string, plays: r.plays, uniqueUsers: r.uniqueUsers })),
    regions: rows
      .filter((r) => r.kind === 'region')
      .map((r) => ({ region: r.region as string, country: r.country, plays: r.plays, uniqueUsers: r.uniqueUsers })),
    cities: rows
      .filter((r) => r.kind === 'city')
      .map((r) => ({ city: r.city as string, region: r.region, country: r.country, plays: r.plays, uniqueUsers: r.uniqueUsers })),
  }
}

// --- playlists -----------------------------------------------------------------------------------

export function playlistAnalytics(db: Db, days: AnalyticsDays, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const rows = all<{ playlistId: string; plays: number; uniqueUsers: number; uniqueTracks: number; completions: number; listen: number }>(
    db,
    `SELECT playlist_id AS playlistId, count(*) AS plays, count(DISTINCT user_id) AS uniqueUsers,
            count(DISTINCT ${TRACK_KEY_SQL}) AS uniqueTracks, total(completed) AS completions, total(listen_duration) AS listen
       FROM ${PERIOD} WHERE started_at >= ? AND playlist_id IS NOT NULL
      GROUP BY playlist_id ORDER BY plays DESC, playlistId LIMIT ?`,
    from,
    limit,
  )
  return {
    period,
    playlists: rows.map((r) => ({
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
export function activeUsersSince(db: Db, from: number): number {
  return get<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM (
       SELECT user_id FROM play_events WHERE started_at >= ?1 AND user_id IS NOT NULL
       UNION
       SELECT user_id FROM logins WHERE created_at >= ?1 AND user_id IS NOT NULL)`,
    from,
  ).n
}

/** DAU = users active in the last 24 h, WAU = in the last 7 days; retention = DAU / WAU in percent. */
export function dailyActive(db: Db, now = Date.now()) {
  const dau = activeUsersSince(db, now - DAY_MS)
  const wau = activeUsersSince(db, now - 7 * DAY_MS)
  return { dau, wau, retentionRate: wau > 0 ? pct(dau, wau) : null }
}

// --- engagement ----------------------------------------------------------------------------------

export function userEngagement(db: Db, days: AnalyticsDays, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  // Per member, from the (user_id, started_at) index alone: plays and distinct active days.
  const perUser = get<{ users: number; plays: number; high: number; activeDays: number | null }>(
    db,
    `SELECT count(*) AS users, total(plays) AS plays, total(plays >= ${HIGH_ENGAGEMENT_PLAYS}) AS high, avg(days) AS activeDays
       FROM (SELECT user_id, count(*) AS plays, count(DISTINCT started_at / ${DAY_MS}) AS days
               FROM play_events WHERE started_at >= ? AND user_id IS NOT NULL GROUP BY user_id)`,
    from,
  )
  const plays = get<{
    plays: number
    memberListen: number
    liked: number
    shared: number
    repeated: number
    buffered: number
    dropped: number
    bufferEvents: number
    drops: number
  }>(
    db,
    `SELECT count(*) AS plays, total(CASE WHEN user_id IS NOT NULL THEN listen_duration END) AS memberListen,
            total(liked) AS liked, total(shared) AS shared, total(repeated) AS repeated,
            total(buffer_count > 0) AS buffered, total(quality_drops > 0) AS dropped,
            total(buffer_count) AS bufferEvents, total(quality_drops) AS drops
       FROM ${PERIOD} WHERE started_at >= ?`,
    from,
  )
  const weekAgo = now - 7 * DAY_MS
  const active = dailyActive(db, now)
  // New users: signed up in the last 7 days. Retained: active again at least a day after signing up.
  const fresh = get<{ newUsers: number; retained: number }>(
    db,
    `SELECT count(*) AS newUsers,
            total(EXISTS (SELECT 1 FROM play_events AS p WHERE p.user_id = u.id AND p.started_at >= u.created_at + ${DAY_MS})
               OR EXISTS (SELECT 1 FROM logins AS l WHERE l.created_at >= u.created_at + ${DAY_MS} AND l.user_id = u.id)) AS retained
       FROM users AS u WHERE u.created_at >= ?`,
    weekAgo,
  )
  // Returning: active in the last 7 days and a member for longer than that.
  const returning = get<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM users AS u
      WHERE u.created_at < ?1
        AND u.id IN (SELECT user_id FROM play_events WHERE started_at >= ?1 AND user_id IS NOT NULL
                     UNION SELECT user_id FROM logins WHERE created_at >= ?1 AND user_id IS NOT NULL)`,
    weekAgo,
  ).n
  const users = perUser.users
  return {
    period,
    engagement: {
      totalUsers: users,
      highEngagementUsers: num(perUser.high),
      averagePlaysPerUser: users > 0 ? round1(num(perUser.plays) / users) : 0,
      averageListenTimePerUser: users > 0 ? round1(num(plays.memberListen) / users) : 0,
      likeRate: pct(num(plays.liked), plays.plays),
      shareRate: pct(num(plays.shared), plays.plays),
      repeatRate: pct(num(plays.repeated), plays.plays),
      averageActiveDays: round1(num(perUser.activeDays)),
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

// --- stats ---

export function topTracks(db: Db, days: number, limit: number, now = Date.now()) {
  return all<{ trackUrl: string; title: string; artist: string | null; count: number }>(
    db,
    `SELECT ${TRACK_KEY_SQL} AS trackUrl, max(title) AS title, max(artist) AS artist, count(*) AS count
         FROM ${PERIOD} WHERE started_at >= ?
        GROUP BY 1 ORDER BY count DESC, max(started_at) DESC LIMIT ?`,
    now - days * DAY_MS,
    limit,
  )
}

/** Admin stats' songs: the tracks of the server library, played or not. */
export function totalSongs(db: Db) {
  return get<{ n: number }>(db, 'SELECT count(*) AS n FROM library_tracks').n
}

// --- page hits (stats.ts before the page-hit roll-ups of migration 0013) ---

/** Admin stats' page views: hits and distinct visitors in the last 30 days. */
export function pageViews(db: Db, now = Date.now()) {
  return get<{ total: number; visitors: number }>(
    db,
    `SELECT count(*) AS total, count(DISTINCT visitor_hash) AS visitors FROM page_hits WHERE created_at >= ?`,
    now - 30 * DAY_MS,
  )
}

export function topPages(db: Db, days: number, limit: number, now = Date.now()) {
  const from = now - days * DAY_MS
  const pages = all<{ page: string; views: number; visitors: number }>(
    db,
    `SELECT page, count(*) AS views, count(DISTINCT visitor_hash) AS visitors FROM page_hits WHERE created_at >= ? GROUP BY +page ORDER BY views DESC, page LIMIT ?`,
    from,
    limit,
  )
  const total = get<{ n: number }>(db, `SELECT count(*) AS n FROM page_hits WHERE created_at >= ?`, from).n
  return { pages, total }
}

/** Views and visitors per UTC day from midnight of the window's first day. */
export function dailyActivity(db: Db, days: number, now = Date.now()) {
  const from = (Math.floor(now / DAY_MS) - (days - 1)) * DAY_MS
  return all<{ day: number; views: number; visitors: number }>(
    db,
    `SELECT created_at / ${DAY_MS} AS day, count(*) AS views, count(DISTINCT visitor_hash) AS visitors FROM page_hits WHERE created_at >= ? GROUP BY 1 ORDER BY 1`,
    from,
  )
}

export function hitAnalytics(db: Db, days: number, page: string | undefined, cap: number, now = Date.now()) {
  const from = now - days * DAY_MS
  const where = page ? `created_at >= ?1 AND page = ?2` : `created_at >= ?1`
  const params: (string | number)[] = page ? [from, page] : [from]
  const summary = get<{ hits: number; pages: number; visitors: number }>(
    db,
    `SELECT count(*) AS hits, count(DISTINCT page) AS pages, count(DISTINCT visitor_hash) AS visitors FROM page_hits WHERE ${where}`,
    ...params,
  )
  const rows = all<{ day: number; page: string; totalHits: number; uniqueVisitors: number; groups: number }>(
    db,
    `SELECT created_at / ${DAY_MS} AS day, page, count(*) AS totalHits, count(DISTINCT visitor_hash) AS uniqueVisitors, count(*) OVER () AS groups
       FROM page_hits WHERE ${where}
      GROUP BY 1, 2 ORDER BY day DESC, totalHits DESC, page LIMIT ${cap}`,
    ...params,
  )
  return { summary, rows }
}
