// The roll-ups must not change a single number (docs/analytics.md): on random
// plays, later updates (progress, likes, unlikes, buffering; plays moved in time, retagged or
// deleted by hand), logins and deleted members, every
// analytics and stats answer read from the roll-ups equals the raw-scan answer of
// tests/helpers/analytics-reference.ts, for every period and for `now` anywhere in a day (so the
// raw tail of the first day and day boundaries are both hit). The trigger-kept roll-ups also equal a
// rebuild from scratch (what seed:demo does after a bulk load).
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import path from 'node:path'
import { openDb, type Db } from '~/db/client'
import { transaction } from '~/db/engine'
import * as analytics from '~/server/services/analytics'
import { ROLLUP_TABLES, rebuildRollups } from '~/server/services/rollups'
import * as stats from '~/server/services/stats'
import * as reference from '../helpers/analytics-reference'

const MIGRATIONS = path.resolve(import.meta.dir, '../../src/db/migrations')
const BASE = Date.UTC(2026, 10, 1)
const PERIODS = [1, 7, 14, 30, 60, 90] as const
const DAY_MS = 86_400_000

const USERS = ['u1', 'u2', 'u3', 'u4', 'u5']
const URLS = [
  '/media/jazz/blue.mp3?exp=1&sig=AAAA',
  '/media/jazz/blue.mp3?exp=2&sig=BBBB',
  '/media/jazz/so-what.mp3',
  'https://nas.example.com/a.mp3',
  'https://nas.example.com/stream.php?id=3',
  'https://nas.example.com/stream.php?id=4',
]
const PLACES: [string | null, string | null, string | null][] = [
  ['US', 'California', 'Los Angeles'],
  ['US', 'Texas', 'Austin'],
  ['GB', 'England', 'London'],
  ['CY', null, null],
  [null, 'Nowhere', null],
  [null, null, null],
]
const flag = fc.boolean().map(Number)
/** Halves and whole seconds keep float sums exact, so ties and roundings compare exactly. */
const seconds = fc.integer({ min: 0, max: 800 }).map((n) => n / 2)

const play = fc.record({
  user: fc.option(fc.constantFrom(...USERS), { nil: null }),
  url: fc.constantFrom(...URLS),
  title: fc.constantFrom('Blue', 'So What', 'A', 'B'),
  artist: fc.option(fc.constantFrom('Miles', 'Bill'), { nil: null }),
  genre: fc.constantFrom<string | null>('Jazz', 'Rock', ' Jazz ', '', '  ', null),
  duration: fc.constantFrom(0, 180, 240.5),
  device: fc.constantFrom('desktop', 'mobile', 'unknown'),
  source: fc.constantFrom('direct', 'playlist', 'shuffle'),
  playlist: fc.option(fc.constantFrom('p1', 'p2', 'p3'), { nil: null }),
  session: fc.option(fc.constantFrom('session_1_aaaaaaaaa', 'session_2_bbbbbbbbb', 'session_3_ccccccccc'), { nil: null }),
  place: fc.constantFrom(...PLACES),
  // Up to 100 days back, in minutes, so plays land on both sides of every period's edge.
  ago: fc.integer({ min: 0, max: 100 * 24 * 60 }),
  listen: seconds,
  completed: flag,
  skipped: flag,
  liked: flag,
  shared: flag,
  repeated: flag,
  buffers: fc.integer({ min: 0, max: 3 }),
  drops: fc.integer({ min: 0, max: 2 }),
})
const update = fc.record({
  index: fc.nat(),
  listen: fc.option(seconds, { nil: undefined }),
  completed: fc.option(flag, { nil: undefined }),
  liked: fc.option(flag, { nil: undefined }),
  buffers: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
  // Rare in the app but possible by hand: a play moved in time, retagged, or deleted.
  move: fc.option(fc.integer({ min: 0, max: 100 * 24 * 60 }), { nil: undefined, freq: 3 }),
  retag: fc.option(
    fc.record({
      genre: fc.constantFrom<string | null>('Jazz', 'Folk', null),
      place: fc.constantFrom(...PLACES),
      playlist: fc.constantFrom(null, 'p1', 'p4'),
      session: fc.constantFrom(null, 'session_9_zzzzzzzzz'),
      url: fc.constantFrom(...URLS),
    }),
    { nil: undefined, freq: 4 },
  ),
  remove: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
})
const scenario = fc.record({
  plays: fc.array(play, { maxLength: 60 }),
  updates: fc.array(update, { maxLength: 20 }),
  logins: fc.array(fc.record({ user: fc.constantFrom(...USERS), ago: fc.integer({ min: 0, max: 10 * 24 * 60 }) }), { maxLength: 8 }),
  joined: fc.array(fc.integer({ min: 0, max: 20 * 24 * 60 }), { minLength: USERS.length, maxLength: USERS.length }),
  deleted: fc.option(fc.constantFrom(...USERS), { nil: null }),
  // Page hits (the footer counter's visits), and where the admin cleared hit data, if at all.
  hits: fc.array(
    fc.record({
      page: fc.constantFrom('home', 'charts', 'about'),
      visitor: fc.constantFrom('v1', 'v2', 'v3', 'v4'),
      ago: fc.integer({ min: 0, max: 100 * 24 * 60 }),
    }),
    { maxLength: 40 },
  ),
  clearHitsAfter: fc.option(fc.nat({ max: 40 }), { nil: null, freq: 4 }),
  // Where in its day `now` falls, in minutes.
  nowMinute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
})

async function load(db: Db, s: typeof scenario extends fc.Arbitrary<infer T> ? T : never): Promise<number> {
  const now = BASE + s.nowMinute * 60_000
  const sql = db.$client
  const addUser = sql.prepare('INSERT INTO users (id, username, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)')
  for (const [i, id] of USERS.entries()) addUser.run(id, `name-${id}`, `${id}@example.com`, 'x', now - s.joined[i] * 60_000)
  const addPlay = sql.prepare(
    `INSERT INTO play_events (id, user_id, track_url, title, artist, genre, duration, device_type, source, playlist_id, session_id,
       country, region, city, listen_duration, completed, skipped, liked, shared, repeated, buffer_count, quality_drops, started_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  // Distinct moments (a second apart at least) keep the raw "latest play" tie-breaks well defined.
  s.plays.forEach((p, i) => {
    const at = now - p.ago * 60_000 - i * 1000
    addPlay.run(
      `e${i}`,
      p.user,
      p.url,
      p.title,
      p.artist,
      p.genre,
      p.duration,
      p.device,
      p.source,
      p.playlist,
      p.session,
      ...p.place,
      p.listen,
      p.completed,
      p.skipped,
      p.liked,
      p.shared,
      p.repeated,
      p.buffers,
      p.drops,
      at,
      at,
    )
  })
  let moved = 0
  for (const u of s.updates) {
    if (s.plays.length === 0) break
    const id = `e${u.index % s.plays.length}`
    if (u.listen !== undefined) sql.run('UPDATE play_events SET listen_duration = ? WHERE id = ?', [u.listen, id])
    if (u.completed !== undefined) sql.run('UPDATE play_events SET completed = ? WHERE id = ?', [u.completed, id])
    if (u.liked !== undefined) sql.run('UPDATE play_events SET liked = ? WHERE id = ?', [u.liked, id])
    if (u.buffers !== undefined) sql.run('UPDATE play_events SET buffer_count = ?, quality_drops = ? WHERE id = ?', [u.buffers, u.buffers % 2, id])
    // A moved play keeps a moment of its own (no two plays share a millisecond).
    if (u.move !== undefined)
      sql.run('UPDATE play_events SET started_at = ?, listen_duration = listen_duration + 1 WHERE id = ?', [now - u.move * 60_000 - 500 - moved++, id])
    if (u.retag)
      sql.run('UPDATE play_events SET genre = ?, country = ?, region = ?, city = ?, playlist_id = ?, session_id = ?, track_url = ? WHERE id = ?', [
        u.retag.genre,
        ...u.retag.place,
        u.retag.playlist,
        u.retag.session,
        u.retag.url,
        id,
      ])
    if (u.remove) sql.run('DELETE FROM play_events WHERE id = ?', [id])
  }
  const addLogin = sql.prepare('INSERT INTO logins (user_id, created_at) VALUES (?, ?)')
  for (const l of s.logins) addLogin.run(l.user, now - l.ago * 60_000)
  if (s.deleted) sql.run('DELETE FROM users WHERE id = ?', [s.deleted])
  const addHit = sql.prepare('INSERT INTO page_hits (page, visitor_hash, created_at) VALUES (?, ?, ?)')
  for (const [i, h] of s.hits.entries()) {
    if (i === s.clearHitsAfter) await stats.clearHitData(db)
    addHit.run(h.page, h.visitor, now - h.ago * 60_000)
  }
  return now
}

async function answers(db: Db, now: number, impl: 'rollups' | 'raw') {
  const out: Record<string, unknown> = {}
  for (const days of PERIODS) {
    const a = impl === 'rollups' ? analytics : reference
    out[`overview ${days}`] = await a.listeningOverview(db, days, now)
    out[`users ${days}`] = await a.userListeningBehavior(db, days, 3, now)
    out[`patterns ${days}`] = await a.listeningPatterns(db, days, now)
    out[`geography ${days}`] = await a.geographicListening(db, days, now)
    out[`playlists ${days}`] = await a.playlistAnalytics(db, days, 2, now)
    out[`engagement ${days}`] = await a.userEngagement(db, days, now)
    out[`top tracks ${days}`] = impl === 'rollups' ? await stats.topTracks(db, days, 3, true, now) : reference.topTracks(db, days, 3, now)
  }
  out.dau = impl === 'rollups' ? await stats.dauStats(db, now) : { ...reference.dailyActive(db, now), updated: new Date(now).toISOString() }
  out.songs = impl === 'rollups' ? (await stats.adminStats(db, true, now)).music.totalSongs : reference.totalSongs(db)
  // Page hits, in the reference's shapes.
  for (const days of PERIODS) {
    if (impl === 'raw') {
      out[`top pages ${days}`] = reference.topPages(db, days, 2, now)
      out[`daily activity ${days}`] = reference.dailyActivity(db, days, now)
      out[`hits ${days}`] = reference.hitAnalytics(db, days, undefined, stats.HIT_ROWS_CAP, now)
      out[`hits of a page ${days}`] = reference.hitAnalytics(db, days, 'home', stats.HIT_ROWS_CAP, now)
      continue
    }
    const top = await stats.topPages(db, days, 2, now)
    out[`top pages ${days}`] = { pages: top.pages.map(({ page, views, visitors }) => ({ page, views, visitors })), total: top.total }
    out[`daily activity ${days}`] = (await stats.dailyActivity(db, days, now)).dailyData
      .filter((d) => d.views > 0)
      .map((d) => ({ day: Date.parse(`${d.date}T00:00:00Z`) / DAY_MS, views: d.views, visitors: d.visitors }))
    for (const [key, page] of [
      [`hits ${days}`, undefined],
      [`hits of a page ${days}`, 'home'],
    ] as const) {
      const h = await stats.hitAnalytics(db, days, page, now)
      out[key] = {
        summary: { hits: h.summary.totalHits, pages: h.summary.uniquePages, visitors: h.summary.uniqueVisitors },
        rows: h.dailyStats.map((r) => ({
          day: Date.parse(`${r.date}T00:00:00Z`) / DAY_MS,
          page: r.page,
          totalHits: r.totalHits,
          uniqueVisitors: r.uniqueVisitors,
          groups: h.summary.totalRecords,
        })),
      }
    }
  }
  const views = impl === 'rollups' ? (await stats.adminStats(db, true, now)).pageViews : null
  out['page views'] = views ? { total: views.total, visitors: views.uniqueVisitors } : reference.pageViews(db, now)
  return out
}

function rollupRows(db: Db) {
  return Object.fromEntries(
    ROLLUP_TABLES.map((t) => [
      t,
      db.$client
        .query(`SELECT * FROM ${t}`)
        .all()
        .map((r) => JSON.stringify(r))
        .sort(),
    ]),
  )
}

describe('analytics roll-ups', () => {
  test('every analytics and stats answer equals the raw scan, for every period', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const db = openDb(':memory:', MIGRATIONS)
        try {
          const now = await load(db, s)
          const fromRollups = await answers(db, now, 'rollups')
          const raw = await answers(db, now, 'raw')
          // dau's shape differs only by the retention field the raw helper also returns.
          expect({ ...fromRollups, dau: undefined }).toEqual({ ...raw, dau: undefined })
          expect(fromRollups.dau).toMatchObject({ dau: (raw.dau as { dau: number }).dau, wau: (raw.dau as { wau: number }).wau })
        } finally {
          db.$client.close()
        }
      }),
      { numRuns: 150 },
    )
  }, 120_000)

  test('the triggers keep the roll-ups equal to a rebuild from the raw plays', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const db = openDb(':memory:', MIGRATIONS)
        try {
          await load(db, s)
          const kept = rollupRows(db)
          await transaction(db, () => rebuildRollups(db))
          expect(rollupRows(db)).toEqual(kept)
        } finally {
          db.$client.close()
        }
      }),
      { numRuns: 100 },
    )
  }, 120_000)
})
