// An instance moved to PostgreSQL with `vibes db copy` must show the admin the same analytics: a
// seeded demo instance (seed:demo, SQLite, 100 days of plays and page hits), copied into a fresh
// PostgreSQL 15 database with the real command line, then one server on each engine; every admin
// analytics and statistics call, every period, answers the same on both (the moment of the answer
// aside). It starts one server of each engine itself, so it runs in the SQLite pass only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ANALYTICS_DAYS } from '~/shared/validators'
import { adminEnv, api, loginAdmin } from '../helpers/api'
import { startPostgres, type TestPostgres } from '../helpers/postgres'
import { startServer, TEST_AUTH_SECRET, type TestServer } from '../helpers/server'

const ROOT = path.resolve(import.meta.dir, '../..')
let pg: TestPostgres
let sqliteDataDir: string
let mediaRoot: string
let onSqlite: TestServer
let onPostgres: TestServer
let sqliteAdmin: string
let postgresAdmin: string

beforeAll(async () => {
  pg = await startPostgres()
  sqliteDataDir = mkdtempSync(path.join(tmpdir(), 'vibes-copy-analytics-'))
  mediaRoot = mkdtempSync(path.join(tmpdir(), 'vibes-copy-analytics-media-'))
  const env = { ...process.env, DATA_DIR: sqliteDataDir, MEDIA_ROOT: mediaRoot }
  const seed = Bun.spawnSync(['bun', 'scripts/seed-demo.ts', '--users', '40', '--events', '6000', '--days', '100'], { cwd: ROOT, env, stderr: 'inherit' })
  if (seed.exitCode !== 0) throw new Error('seed:demo failed')
  // The admin exists before the copy, so both engines hold the same members.
  const first = await startServer(adminEnv, { dataDir: sqliteDataDir, mediaRoot })
  await first.stop()
  await pg.createDatabase('copied')
  const copy = Bun.spawnSync(['bun', 'src/server/entry.ts', 'db', 'copy', '--to', pg.url('copied')], { cwd: ROOT, env })
  if (copy.exitCode !== 0) throw new Error(`db copy failed: ${copy.stderr.toString()}`)

  onSqlite = await startServer(adminEnv, { dataDir: sqliteDataDir, mediaRoot })
  onPostgres = await startServer({ ...adminEnv, DATABASE_URL: pg.url('copied'), AUTH_SECRET: TEST_AUTH_SECRET })
  // One sign-in on each: logins count towards the active members, so both record one.
  sqliteAdmin = await loginAdmin(onSqlite.url)
  postgresAdmin = await loginAdmin(onPostgres.url)
}, 300_000)

afterAll(async () => {
  await onSqlite?.stop()
  await onPostgres?.stop()
  await pg?.stop()
  rmSync(sqliteDataDir, { recursive: true, force: true })
  rmSync(mediaRoot, { recursive: true, force: true })
})

/** Every admin analytics and statistics read, each period (the stats ones asked for fresh answers). */
const CALLS = [
  ...ANALYTICS_DAYS.flatMap((days) => [
    `/analytics/listening-overview?days=${days}`,
    `/analytics/user-listening-behavior?days=${days}&limit=50`,
    `/analytics/listening-patterns?days=${days}`,
    `/analytics/geographic-listening?days=${days}`,
    `/analytics/playlist-analytics?days=${days}&limit=50`,
    `/analytics/user-engagement?days=${days}`,
    `/admin/stats/top-tracks?days=${days}&limit=50&clearCache=true`,
    `/admin/stats/top-pages?days=${days}&limit=50`,
    `/admin/metrics/daily-activity?days=${days}`,
    `/admin/analytics/hits?days=${days}`,
    `/admin/analytics/hits?days=${days}&page=home`,
  ]),
  '/admin/dashboard',
  '/admin/stats?forceFresh=true',
  '/admin/stats/dau',
  '/admin/stats/user-activity-summary?fresh=true',
  '/admin/errors?hours=24',
]

/** The answer without the moment it was computed at (each server reads its own clock). */
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['period', 'lastUpdated', 'updatedAt', 'updated'].includes(key))
      .map(([key, v]) => [key, withoutClock(v)]),
  )
}

describe('db copy of a seeded instance', () => {
  test('every admin analytics and statistics call answers the same on SQLite and on PostgreSQL', async () => {
    const seen = { plays: 0, pages: 0 }
    for (const call of CALLS) {
      // Asked at the same moment, so both periods start at the same millisecond or so.
      const [sqlite, postgres] = await Promise.all([
        api(onSqlite.url, 'GET', call, { token: sqliteAdmin }),
        api(onPostgres.url, 'GET', call, { token: postgresAdmin }),
      ])
      if (postgres.status !== 200) console.error(onPostgres.logs.slice(-5).join('\n'))
      expect({ call, status: sqlite.status }).toEqual({ call, status: 200 })
      expect({ call, answer: withoutClock(postgres.body) }).toEqual({ call, answer: withoutClock(sqlite.body) })
      if (call === '/analytics/listening-overview?days=90') seen.plays = sqlite.body.data.overview.totalPlays
      if (call === '/admin/stats/top-pages?days=90&limit=50') seen.pages = sqlite.body.data.pages.length
    }
    // The comparison is about real figures, not two empty answers.
    expect(seen.plays).toBeGreaterThan(1000)
    expect(seen.pages).toBeGreaterThan(1)
  }, 120_000)
})
