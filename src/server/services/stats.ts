// System statistics for the admin (the dashboard and the System Statistics screen): dashboard counts, site traffic, music counts, active users, top tracks, the
// user-activity table, recent server errors and clearing hit data. Every figure is one SQL aggregate
// on an indexed column or on the play and page-hit roll-ups (see analytics.ts for why plain SQL and
// how a period is read from the roll-ups: whole days from the per-day tables, the first day's tail
// raw, distinct counts from "last seen" tables; migration 0013 for the page-hit ones).
//
// The heavier answers (admin stats, top tracks, the user-activity table) are kept for 2 minutes
// unless the caller asks for a fresh one (per node on PostgreSQL, docs/decisions/091); clearing hit
// data drops every kept answer.
import { type SQL, sql } from 'drizzle-orm'
import { type Db, execute, firstRow, isPostgres, rows, transaction } from '~/db/engine'
import { DAY_MS, type Span, activeUsersSince, edgeOf, oneIf, periodOf, runningTotals, spanOf, total } from './analytics'
import { HIT_ROLLUP_TABLES } from './rollups'

export const STATS_CACHE_MS = 2 * 60_000
const HOUR_MS = 3_600_000
/** The user-activity table covers this many days, today included. */
export const USER_ACTIVITY_DAYS = 7
/** Rows of the hit-analytics table answered at most (totalRecords says how many there are). */
export const HIT_ROWS_CAP = 1000

const round1 = (n: number) => Math.round(n * 10) / 10

/** Raw hits of the period's first, partial day, as edgeOf for plays. */
function hitEdgeOf(db: Db, s: Span): SQL {
  // PostgreSQL: its planner takes the created_at index for a range this narrow.
  if (isPostgres(db)) return sql`page_hits WHERE created_at >= ${s.from} AND created_at < ${s.end}`
  // SQLite: pinned to the created_at index.
  return sql`page_hits INDEXED BY page_hits_created_at_idx WHERE created_at >= ${s.from} AND created_at < ${s.end}`
}

/** Hits since `from`: the whole days after from's day plus the raw tail. */
const hitsSince = (db: Db, s: Span) =>
  sql`CAST((SELECT coalesce(sum(hits), 0) FROM rollup_hit_day_totals WHERE day > ${s.day}) + (SELECT count(*) FROM ${hitEdgeOf(db, s)}) AS bigint)`

// --- the 2-minute cache ----------------------------------------------------------------------------

const caches = new WeakMap<Db, Map<string, { at: number; value: unknown }>>()

async function cached<T>(db: Db, key: string, fresh: boolean, now: number, compute: () => Promise<T>): Promise<T> {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  const hit = cache.get(key)
  if (!fresh && hit && now - hit.at >= 0 && now - hit.at < STATS_CACHE_MS) return hit.value as T
  const value = await compute()
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

export async function dashboardSummary(db: Db) {
  const users = (await firstRow<{ total: number; admins: number }>(
    db,
    sql`SELECT count(*) AS total, ${sql.raw(total(oneIf('is_admin')))} AS admins FROM users`,
  ))!
  const messages = (await firstRow<{ total: number; important: number; unread: number }>(
    db,
    sql`SELECT count(*) AS total, ${sql.raw(total(oneIf('important')))} AS important, ${sql.raw(total(oneIf('NOT read')))} AS unread FROM contact_messages`,
  ))!
  return {
    users: { total: users.total, admins: users.admins },
    messages: { total: messages.total, important: messages.important, unread: messages.unread },
  }
}

// --- admin stats (GET /admin/stats) ----------------------------------------------------------------

export const PAGE_VIEW_WINDOW_DAYS = 30

export function adminStats(db: Db, forceFresh: boolean, now = Date.now()) {
  return cached(db, 'stats', forceFresh, now, async () => {
    // Songs: the tracks of the server library (what the scanner indexed, played or not);
    // playlists: members' folders.
    const music = (await firstRow<{ songs: number; playlists: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM library_tracks) AS songs, (SELECT count(*) FROM folders) AS playlists`,
    ))!
    const s = spanOf(now - PAGE_VIEW_WINDOW_DAYS * DAY_MS)
    const views = (await firstRow<{ total: number; visitors: number }>(
      db,
      sql`SELECT ${hitsSince(db, s)} AS total, (SELECT count(*) FROM rollup_hit_visitors WHERE last_at >= ${s.from}) AS visitors`,
    ))!
    const allTime = (await firstRow<{ hits: number }>(db, sql`SELECT ${sql.raw(total('hits'))} AS hits FROM page_hit_counts`))!
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

export async function dauStats(db: Db, now = Date.now()) {
  return { dau: await activeUsersSince(db, now - DAY_MS), wau: await activeUsersSince(db, now - 7 * DAY_MS), updated: new Date(now).toISOString() }
}

// --- top tracks ------------------------------------------------------------------------------------

/**
 * PostgreSQL: each track's plays on the whole days of the period (the days after s.day) from
 * rollup_week_tracks, whose week `week` holds the plays of day `week * 7 + i` in plays_i: all seven
 * days of the weeks after the one s.day falls in, and of that week the days after s.day.
 */
function weekSums(s: Span): SQL {
  const week = Math.floor(s.day / 7)
  const firstDay = s.day - week * 7
  const days = [0, 1, 2, 3, 4, 5, 6].map((i) => `plays_${i}`)
  // Day i of the first week counts when i > firstDay (its number is then above s.day).
  const rest = days.slice(1).map((column, i) => sql`CASE WHEN ${firstDay} < ${sql.raw(String(i + 1))} THEN ${sql.raw(column)} ELSE 0 END`)
  return sql`SELECT track_key, CAST(sum(CASE WHEN week > ${week} THEN ${sql.raw(days.join(' + '))} ELSE ${sql.join(rest, sql` + `)} END) AS bigint) AS plays
    FROM rollup_week_tracks WHERE week >= ${week} GROUP BY track_key`
}

/**
 * `top`: each track played in the period (`l`, its "last seen" row) with its plays in it, the
 * `limit` busiest, ties to the latest played; `edge` holds the raw tail's plays per track.
 */
function tracksInPeriod(db: Db, s: Span, limit: number): SQL {
  const [plays, join] = isPostgres(db)
    ? // PostgreSQL: the sums of the period's rows of rollup_week_tracks (PostgreSQL only) joined by hash,
      // about a sixth of the rows of summing the day rows (docs/decisions/104; two index look-ups per
      // track cost its executor several times that, docs/decisions/101).
      [sql`coalesce(d.plays, 0)`, sql`LEFT JOIN (${weekSums(s)}) AS d ON d.track_key = l.track_key`]
    : // SQLite: the running totals, two index seeks per track.
      [sql`t.cum_plays - coalesce(b.cum_plays, 0)`, runningTotals('rollup_day_tracks', 'track_key', s.day)]
  return sql`top AS (
         SELECT l.track_key AS track_key, l.last_at AS last_at, ${plays} + coalesce(e.plays, 0) AS plays
           FROM rollup_track_last AS l
           ${join}
           LEFT JOIN edge AS e ON e.track_key = l.track_key
          WHERE l.last_at >= ${s.from}
          ORDER BY 3 DESC, 2 DESC LIMIT ${limit})`
}

export function topTracks(db: Db, days: number, limit: number, clearCache: boolean, now = Date.now()) {
  const s = spanOf(now - days * DAY_MS)
  return cached(db, `top-tracks:${days}:${limit}`, clearCache, now, () =>
    rows<{ trackUrl: string; title: string; artist: string | null; count: number }>(
      db,
      // Plays per track in the period, the top ones, then their greatest title and artist over the
      // period's days and raw tail. The latest play of a track played in the period is its "last seen" time.
      sql`WITH edge AS MATERIALIZED (SELECT track_key, count(*) AS plays, max(title) AS title, max(artist) AS artist FROM ${edgeOf(db, s)} GROUP BY track_key),
       ${tracksInPeriod(db, s, limit)}
       SELECT top.track_key AS "trackUrl",
              (SELECT max(title) FROM (SELECT title FROM rollup_day_tracks WHERE track_key = top.track_key AND day > ${s.day} UNION ALL SELECT title FROM edge WHERE track_key = top.track_key) AS x) AS title,
              (SELECT max(artist) FROM (SELECT artist FROM rollup_day_tracks WHERE track_key = top.track_key AND day > ${s.day} UNION ALL SELECT artist FROM edge WHERE track_key = top.track_key) AS x) AS artist,
              CAST(top.plays AS bigint) AS "count"
         FROM top ORDER BY top.plays DESC, top.last_at DESC`,
    ),
  )
}

// --- user activity table ---------------------------------------------------------------------------

export function userActivitySummary(db: Db, fresh: boolean, now = Date.now()) {
  return cached(db, 'user-activity', fresh, now, async () => {
    const days = lastDays(USER_ACTIVITY_DAYS, now)
    const from = Date.parse(`${days[0]}T00:00:00Z`)
    const perDay = async (table: 'users' | 'logins') =>
      new Map(
        (
          await rows<{ day: number; n: number }>(
            db,
            sql`SELECT created_at / ${sql.raw(String(DAY_MS))} AS day, count(*) AS n FROM ${sql.raw(table)} WHERE created_at >= ${from} GROUP BY 1`,
          )
        ).map((r) => [isoDay(r.day * DAY_MS), r.n]),
      )
    const newUsers = await perDay('users')
    const logins = await perDay('logins')
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

export async function topPages(db: Db, days: number, limit: number, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  const found = await rows<{ page: string; views: number; visitors: number }>(
    db,
    // Views per page from the day roll-up and the tail; visitors of the top pages from their "last seen" rows.
    sql`WITH top AS (
       SELECT page, CAST(sum(hits) AS bigint) AS views
         FROM (SELECT page, hits FROM rollup_hit_days WHERE day > ${s.day} UNION ALL SELECT page, 1 FROM ${hitEdgeOf(db, s)}) AS h
        GROUP BY page ORDER BY 2 DESC, page LIMIT ${limit})
     SELECT page, views, (SELECT count(*) FROM rollup_hit_page_visitors AS v WHERE v.page = top.page AND v.last_at >= ${s.from}) AS visitors
       FROM top ORDER BY views DESC, page`,
  )
  const hits = (await firstRow<{ n: number }>(db, sql`SELECT ${hitsSince(db, s)} AS n`))!.n
  return { pages: found.map((r) => ({ ...r, pageName: pageName(r.page) })), period, total: hits, updatedAt: new Date(now).toISOString() }
}

/** Views and visitors per UTC day for the Page Views chart: every day of the window, zeros included. */
export async function dailyActivity(db: Db, days: number, now = Date.now()) {
  const dates = lastDays(days, now)
  const from = Date.parse(`${dates[0]}T00:00:00Z`)
  const found = await rows<{ day: number; views: number; visitors: number }>(
    db,
    sql`SELECT day, hits AS views, visitors FROM rollup_hit_day_totals WHERE day >= ${from / DAY_MS}`,
  )
  const byDate = new Map(found.map((r) => [isoDay(r.day * DAY_MS), r]))
  return {
    dailyData: dates.map((date) => ({ date, views: byDate.get(date)?.views ?? 0, visitors: byDate.get(date)?.visitors ?? 0 })),
    period: { days, from: new Date(from).toISOString(), to: new Date(now).toISOString() },
  }
}

// --- hit analytics and clearing them ---------------------------------------------------------------

export async function hitAnalytics(db: Db, days: number, page: string | undefined, now = Date.now()) {
  const { from, period } = periodOf(days, now)
  const s = spanOf(from)
  const onPage = page === undefined ? sql`` : sql` AND page = ${page}`
  const visitors = page
    ? sql`SELECT count(*) FROM rollup_hit_page_visitors WHERE page = ${page} AND last_at >= ${s.from}`
    : sql`SELECT count(*) FROM rollup_hit_visitors WHERE last_at >= ${s.from}`
  const summary = (await firstRow<{ hits: number; pages: number; visitors: number }>(
    db,
    sql`SELECT CAST(coalesce(sum(hits), 0) AS bigint) AS hits, count(DISTINCT page) AS pages, (${visitors}) AS visitors
       FROM (SELECT page, hits FROM rollup_hit_days WHERE day > ${s.day}${onPage} UNION ALL SELECT page, 1 FROM ${hitEdgeOf(db, s)}${onPage}) AS h`,
  ))!
  // The whole days' (day, page) rows and the tail's groups; the row count (totalRecords) is a window over both.
  const found = await rows<{ day: number; page: string; totalHits: number; uniqueVisitors: number; groups: number }>(
    db,
    sql`SELECT day, page, hits AS "totalHits", visitors AS "uniqueVisitors", count(*) OVER () AS "groups" FROM (
       SELECT day, page, hits, visitors FROM rollup_hit_days WHERE day > ${s.day}${onPage}
       UNION ALL
       SELECT created_at / ${sql.raw(String(DAY_MS))}, page, count(*), count(DISTINCT visitor_hash) FROM ${hitEdgeOf(db, s)}${onPage} GROUP BY 1, 2) AS h
      ORDER BY day DESC, hits DESC, page LIMIT ${sql.raw(String(HIT_ROWS_CAP))}`,
  )
  return {
    summary: { totalHits: summary.hits, uniquePages: summary.pages, uniqueVisitors: summary.visitors, totalRecords: found[0]?.groups ?? 0 },
    period,
    dailyStats: found.map((r) => ({ date: isoDay(r.day * DAY_MS), page: r.page, totalHits: r.totalHits, uniqueVisitors: r.uniqueVisitors })),
  }
}

/** Deletes every stored hit, the footer's running totals and the hit roll-ups, in one transaction. */
export async function clearHitData(db: Db) {
  const recordsDeleted = await transaction(db, async (tx) => {
    const { n } = (await firstRow<{ n: number }>(tx, sql`SELECT count(*) AS n FROM page_hits`))!
    await execute(tx, sql`DELETE FROM page_hits`)
    await execute(tx, sql`DELETE FROM page_hit_counts`)
    for (const table of HIT_ROLLUP_TABLES) await execute(tx, sql`DELETE FROM ${sql.raw(table)}`)
    return n
  })
  clearStatsCache(db)
  return { recordsDeleted }
}

// --- recent server errors --------------------------------------------------------------------------

export async function recentErrors(db: Db, hours: number, limit: number, now = Date.now()) {
  const from = now - hours * HOUR_MS
  const found = await rows<{ id: number; method: string; path: string; status: number; message: string; requestId: string | null; createdAt: number }>(
    db,
    sql`SELECT id, method, path, status, message, request_id AS "requestId", created_at AS "createdAt" FROM server_errors
         WHERE created_at >= ${from} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  )
  const count = (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM server_errors WHERE created_at >= ${from}`))!.n
  return { errors: found.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })), total: count, hours }
}
