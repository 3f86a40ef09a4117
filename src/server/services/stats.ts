// System statistics for the admin (the dashboard and the System Statistics screen): dashboard counts, site traffic, music counts, active users, top tracks, the
// user-activity table, recent server errors and clearing hit data. Every figure is one SQL aggregate
// on an indexed column or on the play and page-hit roll-ups (see analytics.ts for why plain SQL and
// how a period is read from the roll-ups: whole days from the per-day tables, the first day's tail
// raw, distinct counts from "last seen" tables; migration 0013 for the page-hit ones).
//
// The heavier answers (admin stats, top tracks, the user-activity table) are kept for 2 minutes
// unless the caller asks for a fresh one; clearing hit data
// drops every kept answer.
import type { Db } from '~/db/client'
import { DAY_MS, EDGE, activeUsersSince, periodOf, spanOf } from './analytics'
import { HIT_ROLLUP_TABLES } from './rollups'

export const STATS_CACHE_MS = 2 * 60_000
const HOUR_MS = 3_600_000
/** The user-activity table covers this many days, today included. */
export const USER_ACTIVITY_DAYS = 7
/** Rows of the hit-analytics table answered at most (totalRecords says how many there are). */
export const HIT_ROWS_CAP = 1000

const round1 = (n: number) => Math.round(n * 10) / 10
/** Raw hits of the period's first, partial day (`?1` from, `?2` the end of that UTC day), as EDGE for plays. */
const HIT_EDGE = 'page_hits INDEXED BY page_hits_created_at_idx WHERE created_at >= ?1 AND created_at < ?2'
/** Hits since `from`: the whole days after from's day plus the raw tail. Binds spanOf(from). */
const HITS_SINCE = `(SELECT coalesce(sum(hits), 0) FROM rollup_hit_day_totals WHERE day > ?3) + (SELECT count(*) FROM ${HIT_EDGE})`

function all<T>(db: Db, sql: string, ...params: (string | number | null)[]): T[] {
  return db.$client.query(sql).all(...params) as T[]
}
function get<T>(db: Db, sql: string, ...params: (string | number | null)[]): T {
  return db.$client.query(sql).get(...params) as T
}

// --- the 2-minute cache ----------------------------------------------------------------------------

const caches = new WeakMap<Db, Map<string, { at: number; value: unknown }>>()

function cached<T>(db: Db, key: string, fresh: boolean, now: number, compute: () => T): T {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  const hit = cache.get(key)
  if (!fresh && hit && now - hit.at >= 0 && now - hit.at < STATS_CACHE_MS) return hit.value as T
  const value = compute()
  cache.set(key, { at: now, value })
  return value
}

export function clearStatsCache(db: Db) {
  caches.delete(db)
}

// --- days ------------------------------------------------------------------------------------------

/** Midnight UTC of the day `now` falls in. */
const dayStart = (now: number) => Math.floor(now / DAY_MS) * DAY_MS
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** The last `days` UTC days, oldest first, today included. */
function lastDays(days: number, now: number): string[] {
  const today = dayStart(now)
  return Array.from({ length: days }, (_, i) => isoDay(today - (days - 1 - i) * DAY_MS))
}

// --- dashboard -------------------------------------------------------------------------------------

export function dashboardSummary(db: Db) {
  const users = get<{ total: number; admins: number }>(db, `SELECT count(*) AS total, total(is_admin) AS admins FROM users`)
  const messages = get<{ total: number; important: number; unread: number }>(
    db,
    `SELECT count(*) AS total, total(important) AS important, total(read = 0) AS unread FROM contact_messages`,
  )
  return {
    users: { total: users.total, admins: users.admins },
    messages: { total: messages.total, important: messages.important, unread: messages.unread },
  }
}

// --- admin stats (GET /admin/stats) ----------------------------------------------------------------

export const PAGE_VIEW_WINDOW_DAYS = 30

export function adminStats(db: Db, forceFresh: boolean, now = Date.now()) {
  return cached(db, 'stats', forceFresh, now, () => {
    // Songs: the tracks of the server library (what the scanner indexed, played or not);
    // playlists: members' folders.
    const music = get<{ songs: number; playlists: number }>(
      db,
      `SELECT (SELECT count(*) FROM library_tracks) AS songs, (SELECT count(*) FROM folders) AS playlists`,
    )
    const from = now - PAGE_VIEW_WINDOW_DAYS * DAY_MS
    const views = get<{ total: number; visitors: number }>(
      db,
      `SELECT ${HITS_SINCE} AS total, (SELECT count(*) FROM rollup_hit_visitors WHERE last_at >= ?1) AS visitors`,
      ...spanOf(from),
    )
    const allTime = get<{ hits: number }>(db, `SELECT total(hits) AS hits FROM page_hit_counts`)
    return {
      music: { totalSongs: music.songs, totalPlaylists: music.playlists },
      pageViews: {
        /** Views in the last 30 days. */
        total: views.total,
        /** Distinct visitor-days in the last 30 days (the visitor hash rotates daily). */
        uniqueVisitors: views.visitors,
        averagePerDay: round1(views.total / PAGE_VIEW_WINDOW_DAYS),
        days: PAGE_VIEW_WINDOW_DAYS,
        allTime: allTime.hits,
      },
      lastUpdated: new Date(now).toISOString(),
    }
  })
}

// --- daily / weekly active users -------------------------------------------------------------------

export function dauStats(db: Db, now = Date.now()) {
  return { dau: activeUsersSince(db, now - DAY_MS), wau: activeUsersSince(db, now - 7 * DAY_MS), updated: new Date(now).toISOString() }
}

// --- top tracks ------------------------------------------------------------------------------------

export function topTracks(db: Db, days: number, limit: number, clearCache: boolean, now = Date.now()) {
  return cached(db, `top-tracks:${days}:${limit}`, clearCache, now, () =>
    all<{ trackUrl: string; title: string; artist: string | null; count: number }>(
      db,
      // Plays per track from its running totals (two index seeks each), the top ones, then their
      // greatest title and artist over the period's days and raw tail. The latest play of a track
      // played in the period is its "last seen" time.
      `WITH edge AS MATERIALIZED (SELECT track_key, count(*) AS plays, max(title) AS title, max(artist) AS artist FROM ${EDGE} GROUP BY track_key),
       top AS (
         SELECT l.track_key AS track_key, l.last_at AS last_at, t.cum_plays - coalesce(b.cum_plays, 0) + coalesce(e.plays, 0) AS count
           FROM rollup_track_last AS l
           JOIN rollup_day_tracks AS t ON t.track_key = l.track_key AND t.day = (SELECT day FROM rollup_day_tracks WHERE track_key = l.track_key ORDER BY day DESC LIMIT 1)
           LEFT JOIN rollup_day_tracks AS b ON b.track_key = l.track_key AND b.day = (SELECT day FROM rollup_day_tracks WHERE track_key = l.track_key AND day <= ?3 ORDER BY day DESC LIMIT 1)
           LEFT JOIN edge AS e ON e.track_key = l.track_key
          WHERE l.last_at >= ?1 ORDER BY count DESC, last_at DESC LIMIT ?4)
       SELECT top.track_key AS trackUrl,
              (SELECT max(title) FROM (SELECT title FROM rollup_day_tracks WHERE track_key = top.track_key AND day > ?3 UNION ALL SELECT title FROM edge WHERE track_key = top.track_key)) AS title,
              (SELECT max(artist) FROM (SELECT artist FROM rollup_day_tracks WHERE track_key = top.track_key AND day > ?3 UNION ALL SELECT artist FROM edge WHERE track_key = top.track_key)) AS artist,
              count
         FROM top ORDER BY count DESC, last_at DESC`,
      ...spanOf(now - days * DAY_MS),
      limit,
    ),
  )
}

// --- user activity table ---------------------------------------------------------------------------

export function userActivitySummary(db: Db, fresh: boolean, now = Date.now()) {
  return cached(db, 'user-activity', fresh, now, () => {
    const days = lastDays(USER_ACTIVITY_DAYS, now)
    const from = Date.parse(`${days[0]}T00:00:00Z`)
    const perDay = (table: 'users' | 'logins') =>
      new Map(
        all<{ day: number; n: number }>(db, `SELECT created_at / ${DAY_MS} AS day, count(*) AS n FROM ${table} WHERE created_at >= ? GROUP BY day`, from).map(
          (r) => [isoDay(r.day * DAY_MS), r.n],
        ),
      )
    const newUsers = perDay('users')
    const logins = perDay('logins')
    const today = days[days.length - 1]
    const yesterday = days[days.length - 2]
    return days
      .slice()
      .reverse()
      .map((date) => ({
        dateLabel:
          date === today
            ? 'Today'
            : date === yesterday
              ? 'Yesterday'
              : new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }),
        date,
        newUsers: newUsers.get(date) ?? 0,
        logins: logins.get(date) ?? 0,
      }))
  })
}

// --- pages -----------------------------------------------------------------------------------------

/** 'home' → 'Home', 'charts' → 'Charts', 'admin/stats' → 'Admin / Stats'. */
export function pageName(key: string): string {
  return key
    .split('/')
    .map((part) =>
      part
        .split(/[-_.]+/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join(' '),
    )
    .join(' / ')
}

export function topPages(db: Db, days: number, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const rows = all<{ page: string; views: number; visitors: number }>(
    db,
    // Views per page from the day roll-up and the tail; visitors of the top pages from their "last seen" rows.
    `WITH top AS (
       SELECT page, sum(hits) AS views FROM (SELECT page, hits FROM rollup_hit_days WHERE day > ?3 UNION ALL SELECT page, 1 FROM ${HIT_EDGE})
        GROUP BY page ORDER BY views DESC, page LIMIT ?4)
     SELECT page, views, (SELECT count(*) FROM rollup_hit_page_visitors AS v WHERE v.page = top.page AND v.last_at >= ?1) AS visitors
       FROM top ORDER BY views DESC, page`,
    ...spanOf(from),
    limit,
  )
  const total = get<{ n: number }>(db, `SELECT ${HITS_SINCE} AS n`, ...spanOf(from)).n
  return { pages: rows.map((r) => ({ ...r, pageName: pageName(r.page) })), period, total, updatedAt: new Date(now).toISOString() }
}

/** Views and visitors per UTC day for the Page Views chart: every day of the window, zeros included. */
export function dailyActivity(db: Db, days: number, now = Date.now()) {
  const dates = lastDays(days, now)
  const from = Date.parse(`${dates[0]}T00:00:00Z`)
  const rows = all<{ day: number; views: number; visitors: number }>(
    db,
    `SELECT day, hits AS views, visitors FROM rollup_hit_day_totals WHERE day >= ?`,
    from / DAY_MS,
  )
  const byDate = new Map(rows.map((r) => [isoDay(r.day * DAY_MS), r]))
  return {
    dailyData: dates.map((date) => ({ date, views: byDate.get(date)?.views ?? 0, visitors: byDate.get(date)?.visitors ?? 0 })),
    period: { days, from: new Date(from).toISOString(), to: new Date(now).toISOString() },
  }
}

// --- hit analytics and clearing them ---------------------------------------------------------------

export function hitAnalytics(db: Db, days: number, page: string | undefined, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const onPage = page ? ' AND page = ?4' : ''
  const params: (string | number)[] = page ? [...spanOf(from), page] : spanOf(from)
  const visitors = page
    ? `SELECT count(*) FROM rollup_hit_page_visitors WHERE page = ?4 AND last_at >= ?1`
    : `SELECT count(*) FROM rollup_hit_visitors WHERE last_at >= ?1`
  const summary = get<{ hits: number; pages: number; visitors: number }>(
    db,
    `SELECT coalesce(sum(hits), 0) AS hits, count(DISTINCT page) AS pages, (${visitors}) AS visitors
       FROM (SELECT page, hits FROM rollup_hit_days WHERE day > ?3${onPage} UNION ALL SELECT page, 1 FROM ${HIT_EDGE}${onPage})`,
    ...params,
  )
  // The whole days' (day, page) rows and the tail's groups; the row count (totalRecords) is a window over both.
  const rows = all<{ day: number; page: string; totalHits: number; uniqueVisitors: number; groups: number }>(
    db,
    `SELECT day, page, totalHits, uniqueVisitors, count(*) OVER () AS groups FROM (
       SELECT day, page, hits AS totalHits, visitors AS uniqueVisitors FROM rollup_hit_days WHERE day > ?3${onPage}
       UNION ALL
       SELECT created_at / ${DAY_MS}, page, count(*), count(DISTINCT visitor_hash) FROM ${HIT_EDGE}${onPage} GROUP BY 1, 2)
      ORDER BY day DESC, totalHits DESC, page LIMIT ${HIT_ROWS_CAP}`,
    ...params,
  )
  return {
    summary: { totalHits: summary.hits, uniquePages: summary.pages, uniqueVisitors: summary.visitors, totalRecords: rows[0]?.groups ?? 0 },
    period,
    dailyStats: rows.map((r) => ({ date: isoDay(r.day * DAY_MS), page: r.page, totalHits: r.totalHits, uniqueVisitors: r.uniqueVisitors })),
  }
}

/** Deletes every stored hit, the footer's running totals and the hit roll-ups, in one transaction. */
export function clearHitData(db: Db) {
  const recordsDeleted = db.$client.transaction(() => {
    const { changes } = db.$client.run('DELETE FROM page_hits')
    db.$client.run('DELETE FROM page_hit_counts')
    for (const table of HIT_ROLLUP_TABLES) db.$client.run(`DELETE FROM ${table}`)
    return changes
  })()
  clearStatsCache(db)
  return { recordsDeleted }
}

// --- recent server errors --------------------------------------------------------------------------

export function recentErrors(db: Db, hours: number, limit: number, now = Date.now()) {
  const from = now - hours * HOUR_MS
  const rows = all<{ id: number; method: string; path: string; status: number; message: string; requestId: string | null; createdAt: number }>(
    db,
    `SELECT id, method, path, status, message, request_id AS requestId, created_at AS createdAt FROM server_errors WHERE created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    from,
    limit,
  )
  const total = get<{ n: number }>(db, `SELECT count(*) AS n FROM server_errors WHERE created_at >= ?`, from).n
  return { errors: rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })), total, hours }
}
