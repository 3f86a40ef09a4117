// How long `bun run backup` takes on a database of realistic size, and what it costs the writer
// beside it. The database is bench/analytics.ts's (seeded with BENCH_DB; default 100,000 play
// events plus its 500,000 page hits, 60,000 logins, 2,000 members). Each run copies it with the
// real command (a child process, start-up included) while this process keeps inserting play
// events, as a server would, and reports the backup's wall time and the longest single insert,
// beside the longest insert of the same writer for as long again without a backup.
// Run: bun bench/backup.ts [playEvents]    Goal: the writer waits no longer than without a backup.
// BENCH_DB=/tmp/x.db keeps the seeded database there and reuses it on the next run.
import { Database } from 'bun:sqlite'
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const PLAYS = process.argv[2] ?? '100000'
const root = path.resolve(import.meta.dir, '..')
const work = mkdtempSync(path.join(tmpdir(), 'vibes-bench-backup-'))
const seeded = process.env.BENCH_DB ?? path.join(work, 'seed.db')
if (!existsSync(seeded)) {
  console.log(`seeding ${seeded} with bench/analytics.ts (${PLAYS} play events)…`)
  const seed = Bun.spawnSync(['bun', 'bench/analytics.ts', PLAYS], {
    cwd: root,
    env: { ...process.env, BENCH_DB: seeded },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  if (seed.exitCode !== 0) process.exit(1)
}
const dataDir = path.join(work, 'data')
cpSync(seeded, path.join(dataDir, 'vibes.db'))
const db = new Database(path.join(dataDir, 'vibes.db'))
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA busy_timeout = 5000')
db.exec('PRAGMA synchronous = NORMAL')
const plays = (db.query('SELECT count(*) AS n FROM play_events').get() as { n: number }).n
console.log(`database: ${(statSync(path.join(dataDir, 'vibes.db')).size / 1048576).toFixed(1)} MB, ${plays.toLocaleString('en-US')} play events`)

const insert = db.prepare(
  `INSERT INTO play_events (id, track_url, title, duration, device_type, source, session_id, listen_duration, completed, skipped, liked, shared, repeated, buffer_count, quality_drops, started_at, updated_at)
   VALUES (?, 'https://nas.example.com/x.mp3', 'Bench', 200, 'desktop', 'direct', 'bench', 0, 0, 0, 0, 0, 0, 0, 0, ?, ?)`,
)

/** Inserts one play event per macrotask (as requests would arrive) until `until` resolves. */
async function writeWhile(until: Promise<unknown>) {
  let done = false
  let writes = 0
  let longest = 0
  void until.then(() => (done = true))
  while (!done) {
    const t = performance.now()
    insert.run(crypto.randomUUID(), Date.now(), Date.now())
    longest = Math.max(longest, performance.now() - t)
    writes++
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { writes, longest }
}

const results: { ms: number; writes: number; longestWriteMs: number; baselineLongestMs: number; bytes: number }[] = []
for (let run = 0; run < 6; run++) {
  const target = path.join(work, `backup-${run}.db`)
  const t0 = performance.now()
  const proc = Bun.spawn(['bun', 'src/server/entry.ts', 'backup', target], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const exited = proc.exited.then((code) => {
    if (code !== 0) process.exit(1)
    return performance.now() - t0
  })
  const during = await writeWhile(exited)
  const ms = await exited
  // The same writer for as long again without a backup: what a checkpoint costs anyway.
  const baseline = await writeWhile(Bun.sleep(ms))
  if (run > 0) results.push({ ms, writes: during.writes, longestWriteMs: during.longest, baselineLongestMs: baseline.longest, bytes: statSync(target).size })
  rmSync(target)
}
const median = <T>(list: T[], key: (x: T) => number) => list.map(key).sort((a, b) => a - b)[Math.floor(list.length / 2)]
console.log(
  `backup (whole command, median of ${results.length} after a warm-up): ${median(results, (r) => r.ms).toFixed(0)} ms for ${(median(results, (r) => r.bytes) / 1048576).toFixed(1)} MB`,
)
console.log(
  `writer beside it: ${median(results, (r) => r.writes)} inserts during a backup, longest single insert ${median(results, (r) => r.longestWriteMs).toFixed(1)} ms; without a backup ${median(results, (r) => r.baselineLongestMs).toFixed(1)} ms (medians)`,
)
db.close()
rmSync(work, { recursive: true, force: true })
