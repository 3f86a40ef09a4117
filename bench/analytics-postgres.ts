// Every admin analytics and statistics call, uncached, on PostgreSQL beside SQLite, on the same
// data: a `seed:demo` instance (default 1M plays, 10k members, 90 days) on SQLite, copied into a
// throwaway PostgreSQL 15 cluster with `vibes db copy` (tests/helpers/postgres.ts: fsync off, the
// default settings otherwise), then ANALYZE there (what autovacuum does on its own within a minute
// of a bulk load). Each call: median and p95 of 20 runs, every period, in this process (SQLite
// through a file connection, PostgreSQL through the server's pool of 10). Goal < 100 ms each.
// Run: bun bench/analytics-postgres.ts [--users N --events N --days N]
// BENCH_DATA_DIR=/tmp/x keeps the seeded DATA_DIR there and reuses it on the next run.
import path from 'node:path'
import { openDb } from '~/db/client'
import { closeHandle, execute, openPostgres } from '~/db/engine'
import { sql } from 'drizzle-orm'
import { ANALYTICS_DAYS } from '~/shared/validators'
import { startPostgres } from '../tests/helpers/postgres'
import { DAYS, EVENTS, USERS, periodicCalls, quantile, root, seededInstance, unperiodicCalls } from './lib/analytics-instance'

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`
const { dataDir, dbFile, discard } = seededInstance('vibes-pg-bench-')
const env = { ...process.env, DATA_DIR: dataDir }

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
const periodic = periodicCalls(now)
const once = unperiodicCalls(now)

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
discard()
