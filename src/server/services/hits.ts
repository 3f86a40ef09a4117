// Page visits for the footer counter. A visitor is an HMAC of IP + User-Agent under
// a salt that changes every UTC day, so no raw IP is stored and one day's visitors cannot be linked
// to the next day's. "Unique" therefore means distinct visitor-days.
import { createHmac } from 'node:crypto'
import { and, eq, sql, sum } from 'drizzle-orm'
import { type Db, execute, isPostgres, tablesOf, transaction } from '~/db/engine'

let salt: { day: string; key: string } | null = null

/** The day's salt: HMAC(secret, 'page-hits:' + UTC date). Only derivable with AUTH_SECRET. */
function dailySalt(secret: string, now: Date): string {
  const day = now.toISOString().slice(0, 10)
  if (salt?.day !== day) salt = { day, key: createHmac('sha256', secret).update(`page-hits:${day}`).digest('base64') }
  return salt.key
}

export function visitorHash(secret: string, ip: string, userAgent: string, now = new Date()): string {
  return createHmac('sha256', dailySalt(secret, now)).update(`${ip}\n${userAgent}`).digest('base64url').slice(0, 32)
}

export type PageHitCounts = { hitCount: number; uniqueHitCount: number; totalHitCount: number }

/** The counts without recording a hit (HEAD requests and browser prefetches must not count). */
export async function readPageHits(db: Db, page: string): Promise<PageHitCounts> {
  const { pageHitCounts } = tablesOf(db)
  const [row] = await db.select({ hits: pageHitCounts.hits, unique: pageHitCounts.uniqueVisitors }).from(pageHitCounts).where(eq(pageHitCounts.page, page))
  const [total] = await db.select({ hits: sum(pageHitCounts.hits) }).from(pageHitCounts)
  return { hitCount: row?.hits ?? 0, uniqueHitCount: row?.unique ?? 0, totalHitCount: Number(total?.hits ?? 0) }
}

/**
 * Records one hit and answers the counts including it, from the running totals in
 * page_hit_counts (so the cost does not grow with stored hits). The whole check-insert-count is one
 * writer at a time, so concurrent requests each see an exact, distinct running total: on SQLite the
 * transaction holds the one write lock; on PostgreSQL, where several nodes write at once, it first
 * takes the advisory lock the roll-up triggers of page_hits take anyway (src/db/migrations-pg/0002),
 * so the visitor check sees every hit committed before it.
 */
export async function recordPageHit(db: Db, page: string, visitor: string, now = new Date()): Promise<PageHitCounts> {
  return transaction(db, async (tx) => {
    // PostgreSQL: "viberoll" in ASCII, the roll-ups' lock.
    if (isPostgres(tx)) await execute(tx, sql`SELECT pg_advisory_xact_lock(8532459156881239148)`)
    const { pageHitCounts, pageHits } = tablesOf(tx)
    const [seen] = await tx
      .select({ one: sql`1` })
      .from(pageHits)
      .where(and(eq(pageHits.page, page), eq(pageHits.visitorHash, visitor)))
      .limit(1)
    const newVisitor = seen ? 0 : 1
    await tx.insert(pageHits).values({ page, visitorHash: visitor, createdAt: now })
    const [counts] = await tx
      .insert(pageHitCounts)
      .values({ page, hits: 1, uniqueVisitors: newVisitor })
      .onConflictDoUpdate({
        target: pageHitCounts.page,
        set: { hits: sql`${pageHitCounts.hits} + 1`, uniqueVisitors: sql`${pageHitCounts.uniqueVisitors} + ${newVisitor}` },
      })
      .returning({ hits: pageHitCounts.hits, unique: pageHitCounts.uniqueVisitors })
    const [total] = await tx.select({ hits: sum(pageHitCounts.hits) }).from(pageHitCounts)
    return { hitCount: counts.hits, uniqueHitCount: counts.unique, totalHitCount: Number(total?.hits ?? 0) }
  })
}
