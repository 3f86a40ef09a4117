// The request and login limits on PostgreSQL, where several nodes serve one instance: each window
// is a row of `rate_limits`, so a limit reached through one node holds on every other
// (docs/decisions/083). The same fixed windows and numbers as the in-memory limiter
// (http/rate-limit.ts), which SQLite keeps: one process serves it, and memory costs no statement.
//
// A window's row holds its start and count; a take that finds it full is refused and leaves the
// count at max + 1, so "refused" reads straight off the row it returns. A take is one upsert:
// two nodes counting the same key at once both count.
import { and, eq, sql } from 'drizzle-orm'
import { type Db, rows, tablesOf } from '~/db/engine'
import { config } from '../config'
import { type Bucket, LIMITS } from './rate-limit'

const secondsLeft = (windowStart: number, windowMs: number, now: number) => Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))

/** The limiter of one PostgreSQL database (off with RATE_LIMIT=off, as in memory). */
export function sharedLimiter(db: Db) {
  const { rateLimits } = tablesOf(db)
  async function windowOf(bucket: Bucket, key: string) {
    const [row] = await db
      .select({ windowStart: rateLimits.windowStart, count: rateLimits.count })
      .from(rateLimits)
      .where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, key)))
    return row
  }
  return {
    /** Seconds to wait, or 0 when the request may go ahead (and is counted). */
    async take(bucket: Bucket, key: string, now = Date.now()): Promise<number> {
      if (!config.RATE_LIMIT) return 0
      const { max, windowMs } = LIMITS[bucket]
      const cutoff = now - windowMs
      // PostgreSQL-only: ON CONFLICT reads the existing row by the table's alias.
      const [row] = await rows<{ window_start: number; count: number }>(
        db,
        sql`INSERT INTO rate_limits AS r (bucket, key, window_start, count) VALUES (${bucket}, ${key}, ${now}::bigint, 1)
            ON CONFLICT (bucket, key) DO UPDATE SET
              window_start = CASE WHEN r.window_start <= ${cutoff}::bigint THEN ${now}::bigint ELSE r.window_start END,
              count = CASE WHEN r.window_start <= ${cutoff}::bigint THEN 1 WHEN r.count > ${max}::bigint THEN r.count ELSE r.count + 1 END
            RETURNING window_start, count`,
      )
      return row.count > max ? secondsLeft(row.window_start, windowMs, now) : 0
    },
    /** Seconds to wait, or 0, without counting. */
    async peek(bucket: Bucket, key: string, now = Date.now()): Promise<number> {
      if (!config.RATE_LIMIT) return 0
      const { max, windowMs } = LIMITS[bucket]
      const w = await windowOf(bucket, key)
      if (!w || now - w.windowStart >= windowMs || w.count < max) return 0
      return secondsLeft(w.windowStart, windowMs, now)
    },
    /** Requests counted in the key's current window (0 once it has ended), without counting one. */
    async count(bucket: Bucket, key: string, now = Date.now()): Promise<number> {
      if (!config.RATE_LIMIT) return 0
      const { max, windowMs } = LIMITS[bucket]
      const w = await windowOf(bucket, key)
      return !w || now - w.windowStart >= windowMs ? 0 : Math.min(w.count, max)
    },
    /** Starts the key over (a right password clears that address's failures for the account). */
    async forget(bucket: Bucket, key: string): Promise<void> {
      await db.delete(rateLimits).where(and(eq(rateLimits.bucket, bucket), eq(rateLimits.key, key)))
    },
  }
}

/** Windows this old have ended in every bucket: their rows are deleted (each node sweeps; a sweep is idempotent). */
const SWEEP_EVERY_MS = 15 * 60_000
const LONGEST_WINDOW_MS = Math.max(...Object.values(LIMITS).map((l) => l.windowMs))

export function sweepSharedLimits(db: Db): () => void {
  const { rateLimits } = tablesOf(db)
  const timer = setInterval(() => {
    db.delete(rateLimits)
      .where(sql`${rateLimits.windowStart} < ${Date.now() - LONGEST_WINDOW_MS}`)
      .then(undefined, () => {})
  }, SWEEP_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
