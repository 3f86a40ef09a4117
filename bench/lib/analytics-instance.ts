// The set-up the analytics benchmarks share (bench/analytics-at-scale.ts, bench/analytics-postgres.ts):
// their flags, a `seed:demo` instance of synthetic members, plays and page hits in a DATA_DIR (kept and
// reused when BENCH_DATA_DIR names one), and the admin analytics and statistics calls they time.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Db } from '~/db/engine'
import * as analytics from '~/server/services/analytics'
import * as stats from '~/server/services/stats'
import type { ANALYTICS_DAYS } from '~/shared/validators'

export const root = path.resolve(import.meta.dir, '../..')

/** `--name value` from the command line, else `fallback`. */
export const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : fallback
}

/** The instance's size: `--users N --events N --days N` (default 10k members, 1M plays, 90 days). */
export const USERS = arg('users', '10000')
export const EVENTS = arg('events', '1000000')
export const DAYS = arg('days', '90')

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]
}

/**
 * A DATA_DIR holding a seeded `vibes.db`: BENCH_DATA_DIR when set (seeded on the first run, reused
 * after), else a temp dir named `prefix…`. `discard()` deletes a temp dir and leaves BENCH_DATA_DIR.
 */
export function seededInstance(prefix: string) {
  const keep = process.env.BENCH_DATA_DIR
  const dataDir = keep ?? mkdtempSync(path.join(tmpdir(), prefix))
  const dbFile = path.join(dataDir, 'vibes.db')
  if (!existsSync(dbFile)) {
    const t0 = performance.now()
    const seed = Bun.spawnSync(['bun', 'scripts/seed-demo.ts', '--users', USERS, '--events', EVENTS, '--days', DAYS], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
      stdout: 'inherit',
      stderr: 'inherit',
    })
    if (seed.exitCode !== 0) process.exit(1)
    console.log(`seed:demo ${Number(EVENTS).toLocaleString('en-US')} plays: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  return {
    dataDir,
    dbFile,
    discard() {
      if (!keep) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export type Days = (typeof ANALYTICS_DAYS)[number]

/** Every analytics and statistics call that takes a period, uncached, as of `now`. */
export const periodicCalls = (now: number): Array<[string, (db: Db, days: Days) => Promise<unknown>]> => [
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

/** The statistics calls without a period, uncached, as of `now`. */
export const unperiodicCalls = (now: number): Array<[string, (db: Db) => Promise<unknown>]> => [
  ['stats overview (forceFresh)', (db) => stats.adminStats(db, true, now)],
  ['stats dau', (db) => stats.dauStats(db, now)],
  ['stats dashboard counts', (db) => stats.dashboardSummary(db)],
  ['stats user-activity (fresh)', (db) => stats.userActivitySummary(db, true, now)],
  ['stats errors hours=24', (db) => stats.recentErrors(db, 24, 10, now)],
]
