// An instance moved to PostgreSQL with `vibes db copy` must show the admin the same analytics: a
// seeded demo instance (seed:demo, SQLite, 100 days of plays and page hits), copied into a fresh
// PostgreSQL 15 database with the real command line, then one server on each engine; every admin
// analytics and statistics call, every period, answers the same on both (the moment of the answer
// aside). It starts one server of each engine itself, so it runs in the SQLite pass only.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { closeHandle, openPostgres, rows, transaction } from '~/db/engine'
import { sql } from 'drizzle-orm'
import { openDb } from '~/db/client'
import { PG_DERIVED_ROLLUP_TABLES } from '~/db/pg/derived-rollups'
import { DAY_MS } from '~/server/services/analytics'
import { ROLLUP_TABLES, rebuildRollups } from '~/server/services/rollups'
import { topTracks } from '~/server/services/stats'
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

  test('top tracks answers the same on both engines for a period starting on any day of the week, at any hour', async () => {
    // PostgreSQL sums whole weeks and the days after the period's first day in the first one
    // (decision 104); moving `now` back a day and an hour at a time starts the periods on each day of
    // the week and at different times of day.
    const sqlite = openDb(path.join(sqliteDataDir, 'vibes.db'), path.join(ROOT, 'src/db/migrations'))
    const postgres = openPostgres(pg.url('copied'))
    try {
      const latest = Date.now()
      let counted = 0
      for (let back = 0; back < 7; back++) {
        const now = latest - back * (DAY_MS + 3_600_000)
        for (const days of ANALYTICS_DAYS) {
          const [fromSqlite, fromPostgres] = await Promise.all([topTracks(sqlite, days, 50, true, now), topTracks(postgres, days, 50, true, now)])
          expect({ back, days, top: fromPostgres }).toEqual({ back, days, top: fromSqlite })
          counted += fromSqlite.reduce((n, track) => n + track.count, 0)
        }
      }
      expect(counted).toBeGreaterThan(1000)
    } finally {
      sqlite.$client.close()
      await closeHandle(postgres)
    }
  }, 120_000)

  test('rebuilding the roll-ups on PostgreSQL from its plays and hits gives the rows its triggers and the copy hold', async () => {
    const db = openPostgres(pg.url('copied'))
    try {
      const snapshot = async () => {
        const tables: Record<string, string[]> = {}
        // Sums of seconds to 6 decimals: SQLite's sum (which the copy holds) compensates for rounding,
        // PostgreSQL's adds plainly, so the two may part in the last binary digit (4367.6 and 4367.599999999999).
        const same = (_: string, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)
        for (const table of [...ROLLUP_TABLES, ...PG_DERIVED_ROLLUP_TABLES])
          tables[table] = (await rows<Record<string, unknown>>(db, sql.raw(`SELECT * FROM ${table}`))).map((r) => JSON.stringify(r, same)).sort()
        return tables
      }
      const kept = await snapshot()
      expect(kept.rollup_day_totals.length).toBeGreaterThan(0)
      // The copy filled PostgreSQL's own roll-ups (SQLite has nothing to copy into them).
      expect(kept.rollup_week_tracks.length).toBeGreaterThan(0)
      await transaction(db, (tx) => rebuildRollups(tx))
      expect(await snapshot()).toEqual(kept)
      // The triggers are on again: a new play reaches the roll-ups.
      const total = async () => (await rows<{ n: number }>(db, sql`SELECT CAST(coalesce(sum(plays), 0) AS bigint) AS n FROM rollup_day_totals`))[0].n
      const weekTotal = async () =>
        (
          await rows<{ n: number }>(
            db,
            sql`SELECT CAST(coalesce(sum(plays_0 + plays_1 + plays_2 + plays_3 + plays_4 + plays_5 + plays_6), 0) AS bigint) AS n FROM rollup_week_tracks`,
          )
        )[0].n
      const before = await total()
      const weeksBefore = await weekTotal()
      await rows(
        db,
        sql`INSERT INTO play_events (id, track_url, title, duration, started_at, updated_at) VALUES ('after-rebuild', '/media/x.mp3', 'X', 10, ${Date.now()}, ${Date.now()}) RETURNING id`,
      )
      expect(await total()).toBe(before + 1)
      expect(await weekTotal()).toBe(weeksBefore + 1)
    } finally {
      await closeHandle(db)
    }
  }, 120_000)
})
