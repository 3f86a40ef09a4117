// The analytics' performance goals, measured on a `seed:demo` instance (default 1M plays, 10k members,
// 90 days): every analytics and stats call uncached (p95 of 20 calls, each period) — goal < 100 ms;
// recording a play (insert + progress update, roll-up triggers included) — goal < 2 ms; and
// /api/health p99 while an admin's 90-day analytics requests run back to back against the real
// built server — goal < 50 ms — next to the same figure with no admin load; and a listener's /media
// stream throughput idle and during the same admin load ("keeps its throughput").
// Run: bun bench/analytics-at-scale.ts [--users N --events N --days N] [--skip-uncached]
// BENCH_DATA_DIR=/tmp/x keeps the seeded DATA_DIR there and reuses it on the next run.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { openDb } from '~/db/client'
import * as analytics from '~/server/services/analytics'
import { recordPlay, updatePlayEvent } from '~/server/services/listening'
import { signMediaUrl } from '~/server/media/sign'
import * as stats from '~/server/services/stats'
import { ANALYTICS_DAYS } from '~/shared/validators'
import * as raw from '../tests/helpers/analytics-reference'
import { adminEnv, loginAdmin } from '../tests/helpers/api'
import { startServer } from '../tests/helpers/server'
import { DAYS, EVENTS, USERS, periodicCalls, quantile, root, seededInstance, unperiodicCalls } from './lib/analytics-instance'

const { dataDir, dbFile, discard } = seededInstance('vibes-scale-')
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`

// --- every call, every period, uncached, in process ------------------------------------------------
const db = openDb(dbFile, path.join(root, 'src/db/migrations'))
const now = Date.now()
const calls = periodicCalls(now)
const unperiodic = unperiodicCalls(now)
async function p95of20(fn: () => unknown) {
  const runs: number[] = []
  for (let i = 0; i < 20; i++) {
    const t = performance.now()
    await fn()
    runs.push(performance.now() - t)
  }
  return quantile(runs, 0.95)
}
// --skip-uncached: only the recording and load figures (the tables take minutes on a busy machine).
if (!process.argv.includes('--skip-uncached')) {
  console.log(`\np95 of 20 uncached calls (${Number(EVENTS).toLocaleString('en-US')} plays, ${USERS} members, ${DAYS} days)`)
  console.log(`${'call'.padEnd(36)}${ANALYTICS_DAYS.map((d) => `days=${d}`.padStart(11)).join('')}`)
  let worst = 0
  for (const [name, fn] of calls) {
    const cells: number[] = []
    for (const d of ANALYTICS_DAYS) cells.push(await p95of20(() => fn(db, d)))
    worst = Math.max(worst, ...cells)
    console.log(`${name.padEnd(36)}${cells.map((c) => `${c.toFixed(1)} ms`.padStart(11)).join('')}`)
  }
  for (const [name, fn] of unperiodic) {
    const p = await p95of20(() => fn(db))
    worst = Math.max(worst, p)
    console.log(`${name.padEnd(36)}${`${p.toFixed(1)} ms`.padStart(11)}`)
  }
  console.log(`slowest p95: ${worst.toFixed(1)} ms (goal < 100 ms)`)

  // The same figures from the raw plays (the queries before the roll-ups), once each at days=90, to
  // compare on the same machine under the same load.
  const before: Array<[string, () => unknown, () => unknown]> = [
    ['listening-overview', () => raw.listeningOverview(db, 90, now), () => analytics.listeningOverview(db, 90, now)],
    ['user-listening-behavior', () => raw.userListeningBehavior(db, 90, 20, now), () => analytics.userListeningBehavior(db, 90, 20, now)],
    ['listening-patterns', () => raw.listeningPatterns(db, 90, now), () => analytics.listeningPatterns(db, 90, now)],
    ['geographic-listening', () => raw.geographicListening(db, 90, now), () => analytics.geographicListening(db, 90, now)],
    ['playlist-analytics', () => raw.playlistAnalytics(db, 90, 15, now), () => analytics.playlistAnalytics(db, 90, 15, now)],
    ['user-engagement', () => raw.userEngagement(db, 90, now), () => analytics.userEngagement(db, 90, now)],
    ['top-tracks', () => raw.topTracks(db, 90, 10, now), () => stats.topTracks(db, 90, 10, true, now)],
    ['top-pages', () => raw.topPages(db, 90, 5, now), () => stats.topPages(db, 90, 5, now)],
    ['daily-activity', () => raw.dailyActivity(db, 90, now), () => stats.dailyActivity(db, 90, now)],
    ['hits', () => raw.hitAnalytics(db, 90, undefined, stats.HIT_ROWS_CAP, now), () => stats.hitAnalytics(db, 90, undefined, now)],
    ['overview page views (30 days)', () => raw.pageViews(db, now), () => stats.adminStats(db, true, now)],
  ]
  // CPU time as well as wall time: on a shared machine the wall time mostly measures the neighbours.
  const cpuMs = async (fn: () => unknown) => {
    const c = process.cpuUsage()
    const t = performance.now()
    await fn()
    const u = process.cpuUsage(c)
    return { cpu: (u.user + u.system) / 1000, wall: performance.now() - t }
  }
  console.log('\ndays=90, one call each (CPU / wall): raw scan (before) vs roll-ups (now)')
  for (const [name, old, fresh] of before) {
    const a = await cpuMs(old)
    const b = await cpuMs(fresh)
    console.log(`${name.padEnd(30)}${ms(a.cpu)} /${ms(a.wall)}  →${ms(b.cpu)} /${ms(b.wall)}`)
  }
}

// --- recording a play -------------------------------------------------------------------------------
// Twice in one run: with SQLite's automatic checkpoint in the writer's commits (before), and as the
// server runs (the analytics worker checkpoints on its own thread, decision 036).
const member = (db.$client.query('SELECT id FROM users ORDER BY created_at LIMIT 1').get() as { id: string }).id
const client = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', country: 'CY', region: 'Nicosia', city: 'Nicosia', ip: '203.0.113.9' } as never
async function recordPlays(on: typeof db, count: number) {
  const inserts: number[] = []
  const updates: number[] = []
  for (let i = 0; i < count; i++) {
    let t = performance.now()
    const { playEventId } = await recordPlay(
      on,
      member,
      {
        trackUrl: `https://nas.example.com/bench/${i % 50}.mp3`,
        title: `Bench ${i % 50}`,
        duration: 200,
        source: 'playlist',
        genre: 'Jazz',
        playlistId: 'bench',
        networkType: 'wifi',
      } as never,
      client,
    )
    inserts.push(performance.now() - t)
    t = performance.now()
    await updatePlayEvent(on, member, playEventId, { listenDuration: 120, completed: i % 2 === 0, liked: i % 7 === 0 } as never)
    updates.push(performance.now() - t)
  }
  const over2 = [...inserts, ...updates].filter((t) => t >= 2).length / (2 * count)
  return `insert p50 ${ms(quantile(inserts, 0.5))} p99 ${ms(quantile(inserts, 0.99))}; update p50 ${ms(quantile(updates, 0.5))} p99 ${ms(quantile(updates, 0.99))}; ${(over2 * 100).toFixed(1)}% of calls ≥ 2 ms`
}
const PLAYS = 1000
const autoCheckpoint = await recordPlays(db, PLAYS)
db.$client.close()
// A connection and the analytics worker as the server opens them, on the same file (not through
// getDb: its DATA_DIR was read when the services were imported, before this run's was known).
const { registerAnalyticsWorker } = await import('~/server/analytics-worker-host')
const { runAnalytics } = await import('~/server/services/analytics-offload')
const serverDb = openDb(dbFile, path.join(root, 'src/db/migrations'))
registerAnalyticsWorker(dbFile)
// The worker's thread starts with the first report; from then on it checkpoints the WAL.
await runAnalytics(serverDb, 'listeningOverview', 1)
const workerCheckpoint = await recordPlays(serverDb, PLAYS)
serverDb.$client.close()
console.log(`\nrecording a play (${PLAYS} each, roll-up triggers included; goal < 2 ms)`)
console.log(`  checkpoint in the writer's commits (before): ${autoCheckpoint}`)
console.log(`  checkpoint by the analytics worker (now):    ${workerCheckpoint}`)

// --- /api/health while an admin loops 90-day analytics ----------------------------------------------
const MEDIA_SECRET = 'bench-media-secret-'.repeat(3)
writeFileSync(
  path.join(dataDir, 'bench-stream.mp3'),
  new Uint8Array(32 * 1024 * 1024).map((_, i) => i & 255),
)
const server = await startServer({ ...adminEnv, AUTH_SECRET: MEDIA_SECRET }, { dataDir, mediaRoot: dataDir })
const token = await loginAdmin(server.url)
const streamUrl = server.url + signMediaUrl(MEDIA_SECRET, 'bench-stream.mp3')
/** A listener downloading a 32 MiB file over and over: MB/s over `seconds`. */
async function streamMBps(seconds: number) {
  let bytes = 0
  const started = performance.now()
  while (performance.now() - started < seconds * 1000) {
    const r = await fetch(streamUrl)
    if (r.status !== 200) throw new Error(`/media answered ${r.status}`)
    bytes += (await r.arrayBuffer()).byteLength
  }
  return bytes / 1e6 / ((performance.now() - started) / 1000)
}
async function healthP99(seconds: number) {
  const times: number[] = []
  const until = performance.now() + seconds * 1000
  while (performance.now() < until) {
    const t = performance.now()
    await (await fetch(`${server.url}/api/health`)).arrayBuffer()
    times.push(performance.now() - t)
    await Bun.sleep(10)
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), n: times.length }
}
const idle = await healthP99(10)
const streamIdle = await streamMBps(5)
const paths = [
  'analytics/listening-overview',
  'analytics/user-listening-behavior',
  'analytics/listening-patterns',
  'analytics/geographic-listening',
  'analytics/playlist-analytics',
  'analytics/user-engagement',
].map((p) => `${server.url}/api/${p}?days=90`)
/** Two admin loops of 90-day reports, back to back, in this process (sharing the listener's thread). */
function adminLoopsHere() {
  let looping = true
  let calls = 0
  const loops = [0, 1].map(async (k) => {
    for (let i = k; looping; i++) {
      const r = await fetch(paths[i % paths.length], { headers: { authorization: `Bearer ${token}` } })
      if (r.status !== 200) throw new Error(`${paths[i % paths.length]} answered ${r.status}`)
      await r.arrayBuffer()
      calls++
    }
  })
  return async () => {
    looping = false
    await Promise.all(loops)
    return calls
  }
}
/**
 * The same loops in a process of their own, as an admin's browser is another machine: the listener's
 * download then shares only the server (and the cores) with them, not its own event loop.
 */
function adminLoopsApart() {
  const script = `let n = 0, on = true
process.on('SIGTERM', () => { on = false })
const paths = JSON.parse(process.env.PATHS)
await Promise.all([0, 1].map(async (k) => { for (let i = k; on; i++) { const r = await fetch(paths[i % paths.length], { headers: { authorization: 'Bearer ' + process.env.TOKEN } }); if (r.status !== 200) throw new Error(paths[i % paths.length] + ' answered ' + r.status); await r.arrayBuffer(); n++ } }))
console.log(n)`
  const child = Bun.spawn(['bun', '-e', script], { env: { ...process.env, PATHS: JSON.stringify(paths), TOKEN: token }, stdout: 'pipe' })
  return async () => {
    child.kill('SIGTERM')
    await child.exited
    return Number(await new Response(child.stdout).text())
  }
}
let stop = adminLoopsHere()
const busy = await healthP99(15)
const streamBusy = await streamMBps(5)
const adminCalls = await stop()
stop = adminLoopsApart()
await Bun.sleep(1000)
const streamApart = await streamMBps(5)
const adminCallsApart = await stop()
await server.stop()
console.log(`\n/api/health idle:                          p50 ${ms(idle.p50)} p99 ${ms(idle.p99)} (${idle.n} requests)`)
console.log(
  `/api/health while 2 admin loops run 90-day: p50 ${ms(busy.p50)} p99 ${ms(busy.p99)} (${busy.n} requests, ${adminCalls} analytics answers) (goal p99 < 50 ms)`,
)
console.log(
  `/media stream (32 MiB, back to back): idle ${streamIdle.toFixed(0)} MB/s, during the admin loops ${streamBusy.toFixed(0)} MB/s (${(streamBusy / streamIdle).toFixed(2)}×)`,
)
console.log(
  `/media stream with the admin loops in their own process: ${streamApart.toFixed(0)} MB/s (${(streamApart / streamIdle).toFixed(2)}× idle, ${adminCallsApart} analytics answers in 5 s)`,
)
discard()
