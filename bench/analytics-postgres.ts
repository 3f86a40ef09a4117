// Every admin analytics and statistics call, uncached, on PostgreSQL beside SQLite, on the same
// data: a `seed:demo` instance (default 1M plays, 10k members, 90 days) on SQLite, copied into a
// throwaway PostgreSQL 15 cluster with `vibes db copy` (tests/helpers/postgres.ts: fsync off, the
// default settings otherwise), then ANALYZE there (what autovacuum does on its own within a minute
// of a bulk load). Each call: median and p95 of 20 runs, every period, in this process (SQLite
// through a file connection, PostgreSQL through the server's pool of 10). Goal < 100 ms each.
// Run: bun bench/analytics-postgres.ts [--users N --events N --days N]
// BENCH_DATA_DIR=/tmp/x keeps the seeded DATA_DIR there and reuses it on the next run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { closeHandle, type Db, execute, openPostgres } from '~/db/engine'
import { sql } from 'drizzle-orm'
import * as analytics from '~/server/services/analytics'
import * as stats from '~/server/services/stats'
import { ANALYTICS_DAYS } from '~/shared/validators'
import { startPostgres } from '../tests/helpers/postgres'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : fallback
}
const USERS = arg('users', '10000')
const EVENTS = arg('events', '1000000')
const DAYS = arg('days', '90')
const root = path.resolve(import.meta.dir, '..')
const keep = process.env.BENCH_DATA_DIR
const dataDir = keep ?? mkdtempSync(path.join(tmpdir(), 'vibes-pg-bench-'))
const dbFile = path.join(dataDir, 'vibes.db')
const env = { ...process.env, DATA_DIR: dataDir }

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`
if (!existsSync(dbFile)) {
  const t0 = performance.now()
  const seed = Bun.spawnSync(['bun', 'scripts/seed-demo.ts', '--users', USERS, '--events', EVENTS, '--days', DAYS], { cwd: root, env, stderr: 'inherit' })
  if (seed.exitCode !== 0) process.exit(1)
  console.log(`seed:demo ${Number(EVENTS).toLocaleString('en-US')} plays: ${seconds(t0)}`)
}

const pg = await startPostgres()
await pg.createDatabase('bench')
let t0 = performance.now()
const copy = Bun.spawnSync(['bun', 'src/server/entry.ts', 'db', 'copy', '--to', pg.url('bench')], { cwd: root, env })
if (copy.exitCode !== 0) {
  console.error(copy.stderr.toString())
  process.exit(1)
}
console.log(`db copy: ${seconds(t0)}`)
const onPostgres = openPostgres(pg.url('bench'))
t0 = performance.now()
await execute(onPostgres, sql`ANALYZE`)
console.log(`ANALYZE: ${seconds(t0)}`)
const onSqlite = openDb(dbFile, path.join(root, 'src/db/migrations'))

const now = Date.now()
type Days = (typeof ANALYTICS_DAYS)[number]
const periodic: Array<[string, (db: Db, days: Days) => Promise<unknown>]> = [
  ['listening-overview', (db, d) => analytics.listeningOverview(db, d, now)],
  ['user-listening-behavior', (db, d) => analytics.userListeningBehavior(db, d, 20, now)],
  ['listening-patterns', (db, d) => analytics.listeningPatterns(db, d, now)],
  ['geographic-listening', (db, d) => analytics.geographicListening(db, d, now)],
  ['playlist-analytics', (db, d) => analytics.playlistAnalytics(db, d, 15, now)],
  ['user-engagement', (db, d) => analytics.userEngagement(db, d, now)],
  ['stats top-tracks (fresh)', (db, d) => stats.topTracks(db, d, 10, true, now)],
  ['stats top-pages', (db, d) => stats.topPages(db, d, 5, now)],
  ['stats daily-activity', (db, d) => stats.dailyActivity(db, d, now)],
  ['stats hits', (db, d) => stats.hitAnalytics(db, d, undefined, now)],
]
const once: Array<[string, (db: Db) => Promise<unknown>]> = [
  ['stats overview (forceFresh)', (db) => stats.adminStats(db, true, now)],
  ['stats dau', (db) => stats.dauStats(db, now)],
  ['stats dashboard counts', (db) => stats.dashboardSummary(db)],
  ['stats user-activity (fresh)', (db) => stats.userActivitySummary(db, true, now)],
  ['stats errors hours=24', (db) => stats.recentErrors(db, 24, 10, now)],
]

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]
/** Median and p95 of 20 runs after one warm-up. */
async function time(fn: () => Promise<unknown>) {
  await fn()
  const runs: number[] = []
  for (let i = 0; i < 20; i++) {
    const t = performance.now()
    await fn()
    runs.push(performance.now() - t)
  }
  return { median: quantile(runs, 0.5), p95: quantile(runs, 0.95) }
}
const cell = (t: { median: number; p95: number }) => `${t.median.toFixed(1)}/${t.p95.toFixed(1)}`.padStart(13)

console.log(`\nmedian/p95 ms of 20 uncached calls: ${Number(EVENTS).toLocaleString('en-US')} plays, ${USERS} members, ${DAYS} days`)
console.log(`${'call'.padEnd(30)}${'engine'.padEnd(10)}${ANALYTICS_DAYS.map((d) => `days=${d}`.padStart(13)).join('')}`)
const worst = { sqlite: 0, postgres: 0 }
for (const [name, fn] of periodic) {
  for (const [engine, db] of [
    ['sqlite', onSqlite],
    ['postgres', onPostgres],
  ] as const) {
    const cells: string[] = []
    for (const d of ANALYTICS_DAYS) {
      const t = await time(() => fn(db, d))
      worst[engine] = Math.max(worst[engine], t.p95)
      cells.push(cell(t))
    }
    console.log(`${name.padEnd(30)}${engine.padEnd(10)}${cells.join('')}`)
  }
}
for (const [name, fn] of once) {
  for (const [engine, db] of [
    ['sqlite', onSqlite],
    ['postgres', onPostgres],
  ] as const) {
    const t = await time(() => fn(db))
    worst[engine] = Math.max(worst[engine], t.p95)
    console.log(`${name.padEnd(30)}${engine.padEnd(10)}${cell(t)}`)
  }
}
console.log(`slowest p95: SQLite ${worst.sqlite.toFixed(1)} ms, PostgreSQL ${worst.postgres.toFixed(1)} ms (goal < 100 ms)`)

await closeHandle(onPostgres)
onSqlite.$client.close()
await pg.stop()
if (!keep) rmSync(dataDir, { recursive: true, force: true })
