// How long `bun run db:copy` takes to move a `seed:demo` instance (default 1M plays, 10k members,
// 90 days, plus its page hits, logins and likes) into an empty PostgreSQL 15, verification
// included, with the real command (a child process). It also measures the alternative the copy
// does not take: leaving the roll-up tables to PostgreSQL's per-play triggers instead of copying
// them (decision 074), and whether that alternative still verifies (identical roll-ups).
// Run: bun bench/db-copy.ts [--users N --events N --days N]
// BENCH_DATA_DIR=/tmp/x keeps the seeded DATA_DIR there and reuses it on the next run.
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CopyError, copyDatabase } from '../src/db/pg/copy'
import { startPostgres } from '../tests/helpers/postgres'

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i < 0 ? fallback : process.argv[i + 1]
}
const USERS = arg('users', '10000')
const EVENTS = arg('events', '1000000')
const DAYS = arg('days', '90')
const root = path.resolve(import.meta.dir, '..')
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'vibes-bench-dbcopy-'))
const dbFile = path.join(dataDir, 'vibes.db')
if (!existsSync(dbFile)) {
  console.log(`seeding ${dataDir} with seed:demo (${EVENTS} plays, ${USERS} members, ${DAYS} days)…`)
  const seed = Bun.spawnSync(['bun', 'scripts/seed-demo.ts', '--users', USERS, '--events', EVENTS, '--days', DAYS], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  if (seed.exitCode !== 0) process.exit(1)
}
console.log(`source: ${(statSync(dbFile).size / 1048576).toFixed(1)} MB`)

const pg = await startPostgres()
try {
  await pg.createDatabase('copied')
  const started = performance.now()
  const proc = Bun.spawn(['bun', 'src/server/entry.ts', 'db', 'copy', '--to', pg.url('copied')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const out = await new Response(proc.stdout).text()
  const code = await proc.exited
  const seconds = (performance.now() - started) / 1000
  console.log(out.trimEnd())
  console.log(`db:copy (roll-ups copied, triggers off): exit ${code}, ${seconds.toFixed(1)} s wall (start-up, migration and verification included)`)

  await pg.createDatabase('rebuilt')
  const rebuildStarted = performance.now()
  let outcome = 'verified: identical roll-ups'
  try {
    await copyDatabase(dbFile, pg.url('rebuilt'), { rollups: 'rebuild' })
  } catch (error) {
    if (!(error instanceof CopyError)) throw error
    outcome = error.message
  }
  console.log(`alternative (roll-ups rebuilt by the triggers): ${((performance.now() - rebuildStarted) / 1000).toFixed(1)} s; ${outcome}`)
} finally {
  await pg.stop()
}
