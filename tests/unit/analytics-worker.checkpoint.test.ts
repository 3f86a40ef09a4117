// Recording a play must not pay for a WAL checkpoint (the goal is < 2 ms per play; decision 036).
// SQLite's automatic checkpoint runs inside the commit that crosses 1000 WAL pages, and a play with
// its roll-up triggers writes about 35 pages, so every ~30th commit of a listener waited for the
// copy and its fsync (5–10 ms). With the analytics worker running, the server's connection does not
// checkpoint; the worker does it on its own connection, off the request loop, and the WAL stays
// bounded because the writer starts it over once the worker has copied it.
// The worker also reuses a report's answer while nothing was written (decision 036): a play
// recorded in between must show in the next answer.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-unit-'))
process.env.LOG_LEVEL = 'warn'
const { config } = await import('~/server/config')
const { getDb, closeDb } = await import('~/server/db')
const { registerAnalyticsWorker } = await import('~/server/analytics-worker-host')
const { runAnalytics } = await import('~/server/services/analytics-offload')
const { recordPlay, updatePlayEvent } = await import('~/server/services/listening')

afterAll(() => closeDb())

const client = getDb().$client
// bun test runs the unit files in one process and the first to load the config picks the database:
// this file's table, member and counts are its own, whatever that database already holds.
const scratch = `scratch_${Date.now()}`
const member = `checkpoint-${Date.now()}`
const walBytes = () => statSync(`${config.dbFile}-wal`).size
const autoCheckpoint = () => (client.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint
/** 1200 commits of one 4 KiB page each on the server's connection: past SQLite's 1000-page mark. */
function burst() {
  const insert = client.query(`INSERT INTO ${scratch} VALUES (randomblob(4000))`)
  for (let i = 0; i < 1200; i++) insert.run()
}

test("the server's connection leaves checkpoints to the worker, which keeps the WAL from growing", async () => {
  client.exec(`CREATE TABLE ${scratch} (x BLOB)`)
  registerAnalyticsWorker(config.dbFile)
  // Idle: no worker thread yet, so the connection still checkpoints for itself.
  expect(autoCheckpoint()).toBe(1000)
  // Writes arriving wake the worker within its WAL poll.
  burst()
  for (let waited = 0; autoCheckpoint() !== 0 && waited < 10_000; waited += 250) await Bun.sleep(250)
  expect(autoCheckpoint()).toBe(0)

  client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  burst()
  const afterFirst = walBytes()
  // More than a burst's worth of pages: SQLite's own checkpoint did not run in those commits.
  expect(afterFirst).toBeGreaterThan(1200 * 4096)
  for (let round = 0; round < 3; round++) {
    await Bun.sleep(2500) // the worker checkpoints every second
    burst()
  }
  // Each burst went back to the start of the copied WAL instead of appending to it (appending,
  // the four bursts would take four times the first's room; a growing table writes a little more).
  expect(walBytes()).toBeLessThan(afterFirst * 1.5)
}, 30_000)

test("the worker's reused answers never hide a play recorded since, nor its progress", async () => {
  const db = getDb()
  client.query("INSERT INTO users (id, username, email, password_hash, created_at) VALUES (?1, ?1, ?1 || '@example.com', 'x', 0)").run(member)
  const plays = async () => (await runAnalytics(db, 'listeningOverview', 7)).overview
  const before = await plays()
  expect(await plays()).toEqual(before)
  const listener = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', country: 'CY', region: null, city: null, ip: '192.168.1.2' }
  const track = { trackUrl: 'https://nas.example.com/a.mp3', title: 'A', duration: 200, source: 'playlist', genre: 'Jazz', networkType: 'wifi' } as never
  const { playEventId } = await recordPlay(db, member, track, listener)
  expect(await plays()).toMatchObject({ totalPlays: before.totalPlays + 1, totalListenTime: before.totalListenTime })
  await updatePlayEvent(db, member, playEventId, { listenDuration: 120 } as never)
  expect(await plays()).toMatchObject({ totalPlays: before.totalPlays + 1, totalListenTime: before.totalListenTime + 120 })
})
