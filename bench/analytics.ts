// How long each admin analytics and statistics query takes at a million play events.
// Seeds a temp database (migrated from the real migrations, no ANALYZE — as a server runs) with
// 1,000,000 play events spread evenly over 90 days and written in time order, as the server writes
// them (started_at is the server's clock at insert) (≈78k in a 7-day window), 2,000 members,
// 5,000 tracks (half signed library URLs, half remote), 60,000 logins and 500,000 page hits, then
// times every call at its shortest and longest period (median of 5 runs, after one warm-up).
// Run: bun bench/analytics.ts [playEvents]        Goal: < 500 ms each at 1M.
// BENCH_DB=/tmp/x.db keeps the seeded database there and reuses it on the next run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import * as analytics from '~/server/services/analytics'
import * as stats from '~/server/services/stats'

const PLAYS = Number(process.argv[2] ?? 1_000_000)
const USERS = 2_000
const TRACKS = 5_000
const LOGINS = 60_000
const HITS = 500_000
const SPAN_MS = 90 * 86_400_000

const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
const keep = process.env.BENCH_DB
const reuse = keep !== undefined && existsSync(keep)
const db = openDb(keep ?? path.join(dir, 'vibes.db'), path.resolve('src/db/migrations'))
const sqlite = db.$client
const now = reuse ? (db.$client.query('SELECT max(started_at) AS t FROM play_events').get() as { t: number }).t + 1 : Date.now()
const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]
const skewed = (n: number) => Math.floor(Math.random() ** 2 * n)
/** The i-th of n moments spread over the last 90 days, oldest first (rows arrive in time order). */
const inOrder = (i: number, n: number) => now - SPAN_MS + Math.floor(((i + Math.random()) / n) * SPAN_MS)

const genres = ['Jazz', 'Rock', 'Pop', 'Hip-Hop', 'Classical', 'Electronic', 'Folk', 'Blues', 'Soul', 'Metal', 'Reggae', 'Country', null]
const sources = ['direct', 'playlist', 'shuffle', 'repeat']
const devices = ['desktop', 'mobile', 'tablet', 'smart-tv', 'speaker', 'unknown']
const places = [
  ['US', 'California', 'Los Angeles'],
  ['US', 'New York', 'New York'],
  ['GB', 'England', 'London'],
  ['DE', 'Berlin', 'Berlin'],
  ['FR', 'Ile-de-France', 'Paris'],
  ['JP', 'Tokyo', 'Tokyo'],
  ['CY', 'Nicosia', 'Nicosia'],
  ['GR', 'Attica', 'Athens'],
  ['CA', 'Ontario', 'Toronto'],
  ['AU', 'New South Wales', 'Sydney'],
  [null, null, null],
] as const

function seed() {
  const t0 = performance.now()
  const userIds: string[] = []
  sqlite.transaction(() => {
    const addUser = sqlite.prepare('INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    for (let i = 0; i < USERS; i++) {
      const id = crypto.randomUUID()
      userIds.push(id)
      addUser.run(id, `user${i}`, `user${i}@example.com`, 'x', i < 3 ? 1 : 0, now - Math.floor(Math.random() * 120 * 86_400_000))
    }
    const addLogin = sqlite.prepare('INSERT INTO logins (user_id, created_at) VALUES (?, ?)')
    for (let i = 0; i < LOGINS; i++) addLogin.run(pick(userIds), inOrder(i, LOGINS))

    const addPlay = sqlite.prepare(
      `INSERT INTO play_events (id, user_id, track_url, title, artist, genre, duration, device_type, source, playlist_id, session_id,
         country, region, city, listen_duration, completed, skipped, liked, shared, repeated, buffer_count, quality_drops, started_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (let i = 0; i < PLAYS; i++) {
      const track = skewed(TRACKS)
      const at = inOrder(i, PLAYS)
      const url =
        track % 2
          ? `/media/library/t${track}.mp3?exp=${Math.floor(at / 3_600_000) * 3600 + 86_400}&sig=${(at % 99_991).toString(36)}`
          : `https://nas.example.com/music/t${track}.mp3`
      const duration = 120 + (track % 240)
      const completed = Math.random() < 0.6
      const listen = completed ? duration : Math.random() * duration
      const place = pick(places)
      addPlay.run(
        crypto.randomUUID(),
        Math.random() < 0.02 ? null : userIds[skewed(USERS)],
        url,
        `Track ${track}`,
        `Artist ${track % 400}`,
        genres[track % genres.length],
        duration,
        pick(devices),
        pick(sources),
        Math.random() < 0.4 ? `playlist-${skewed(300)}` : null,
        `session_${Math.floor(at / 1_800_000)}_${(i % 50).toString(36).padStart(9, '0')}`,
        place[0],
        place[1],
        place[2],
        listen,
        completed ? 1 : 0,
        !completed && Math.random() < 0.5 ? 1 : 0,
        Math.random() < 0.05 ? 1 : 0,
        Math.random() < 0.01 ? 1 : 0,
        Math.random() < 0.03 ? 1 : 0,
        Math.random() < 0.1 ? 1 + Math.floor(Math.random() * 3) : 0,
        Math.random() < 0.05 ? 1 : 0,
        at,
        at,
      )
    }
    const pages = ['home', 'charts', 'about', 'contact', 'player', 'folders', 'login', 'register']
    const addHit = sqlite.prepare('INSERT INTO page_hits (page, visitor_hash, created_at) VALUES (?, ?, ?)')
    const counts = new Map<string, number>()
    for (let i = 0; i < HITS; i++) {
      const page = pages[skewed(pages.length)]
      counts.set(page, (counts.get(page) ?? 0) + 1)
      addHit.run(page, `v${skewed(40_000)}`, inOrder(i, HITS))
    }
    const addCount = sqlite.prepare('INSERT INTO page_hit_counts (page, hits, unique_visitors) VALUES (?, ?, ?)')
    for (const [page, hits] of counts) addCount.run(page, hits, Math.min(hits, 40_000))
    const addError = sqlite.prepare('INSERT INTO server_errors (method, path, status, message, created_at) VALUES (?, ?, ?, ?, ?)')
    for (let i = 0; i < 5_000; i++) addError.run('GET', '/api/x', 500, 'boom', inOrder(i, 5_000))
  })()
  console.log(
    `seeded ${PLAYS.toLocaleString('en-US')} play events, ${HITS.toLocaleString('en-US')} page hits in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
}

/** Median of 5 timed runs after one warm-up. */
async function time(fn: () => unknown): Promise<number> {
  await fn()
  const runs: number[] = []
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    await fn()
    runs.push(performance.now() - t)
  }
  return runs.sort((a, b) => a - b)[2]
}

if (!reuse) seed()
const cases: Array<[string, () => unknown]> = []
for (const days of [7, 90] as const) {
  cases.push(
    [`analytics listening-overview      days=${days}`, () => analytics.listeningOverview(db, days, now)],
    [`analytics user-listening-behavior days=${days}`, () => analytics.userListeningBehavior(db, days, 20, now)],
    [`analytics listening-patterns      days=${days}`, () => analytics.listeningPatterns(db, days, now)],
    [`analytics geographic-listening    days=${days}`, () => analytics.geographicListening(db, days, now)],
    [`analytics playlist-analytics      days=${days}`, () => analytics.playlistAnalytics(db, days, 15, now)],
    [`analytics user-engagement         days=${days}`, () => analytics.userEngagement(db, days, now)],
    [`stats top-tracks (fresh)          days=${days}`, () => stats.topTracks(db, days, 10, true, now)],
  )
}
cases.push(
  ['stats overview (forceFresh)', () => stats.adminStats(db, true, now)],
  ['stats dau', () => stats.dauStats(db, now)],
  ['stats dashboard counts', () => stats.dashboardSummary(db)],
  ['stats user-activity-summary (fresh)', () => stats.userActivitySummary(db, true, now)],
  ['stats top-pages days=30', () => stats.topPages(db, 30, 5, now)],
  ['stats daily-activity days=30', () => stats.dailyActivity(db, 30, now)],
  ['stats hits days=7', () => stats.hitAnalytics(db, 7, undefined, now)],
  ['stats hits days=30', () => stats.hitAnalytics(db, 30, undefined, now)],
  ['stats errors hours=1', () => stats.recentErrors(db, 1, 10, now)],
)
let worst = 0
for (const [name, fn] of cases) {
  const ms = await time(fn)
  worst = Math.max(worst, ms)
  console.log(`${name.padEnd(46)} ${ms.toFixed(1).padStart(8)} ms${ms >= 500 ? '  ← over 500 ms' : ''}`)
}
console.log(`slowest query: ${worst.toFixed(1)} ms`)
if (!keep) {
  const t = performance.now()
  const { recordsDeleted } = await stats.clearHitData(db)
  console.log(`${'stats clear hit-data'.padEnd(46)} ${(performance.now() - t).toFixed(1).padStart(8)} ms (${recordsDeleted.toLocaleString('en-US')} rows)`)
}
sqlite.close()
rmSync(dir, { recursive: true, force: true })
