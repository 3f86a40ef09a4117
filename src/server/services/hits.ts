// Page visits for the footer counter. A visitor is an HMAC of IP + User-Agent under
// a salt that changes every UTC day, so no raw IP is stored and one day's visitors cannot be linked
// to the next day's. "Unique" therefore means distinct visitor-days.
import { createHmac } from 'node:crypto'
import { and, eq, sql, sum } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { pageHitCounts, pageHits } from '~/db/schema'

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
export function readPageHits(db: Db, page: string): PageHitCounts {
  const row = db.select({ hits: pageHitCounts.hits, unique: pageHitCounts.uniqueVisitors }).from(pageHitCounts).where(eq(pageHitCounts.page, page)).get()
  const total = db
    .select({ hits: sum(pageHitCounts.hits) })
    .from(pageHitCounts)
    .get()
  return { hitCount: row?.hits ?? 0, uniqueHitCount: row?.unique ?? 0, totalHitCount: Number(total?.hits ?? 0) }
}

/**
 * Records one hit and answers the counts including it, from the running totals in
 * page_hit_counts (so the cost does not grow with stored hits). bun:sqlite is synchronous and the
 * whole check-insert-count runs in one transaction, so concurrent requests each see an exact,
 * distinct running total.
 */
export function recordPageHit(db: Db, page: string, visitor: string, now = new Date()): PageHitCounts {
  return db.transaction((tx) => {
    const seen = tx
      .select({ one: sql`1` })
      .from(pageHits)
      .where(and(eq(pageHits.page, page), eq(pageHits.visitorHash, visitor)))
      .limit(1)
      .get()
    const newVisitor = seen ? 0 : 1
    tx.insert(pageHits).values({ page, visitorHash: visitor, createdAt: now }).run()
    const counts = tx
      .insert(pageHitCounts)
      .values({ page, hits: 1, uniqueVisitors: newVisitor })
      .onConflictDoUpdate({
        target: pageHitCounts.page,
        set: { hits: sql`${pageHitCounts.hits} + 1`, uniqueVisitors: sql`${pageHitCounts.uniqueVisitors} + ${newVisitor}` },
      })
      .returning({ hits: pageHitCounts.hits, unique: pageHitCounts.uniqueVisitors })
      .get()
    const total = tx
      .select({ hits: sum(pageHitCounts.hits) })
      .from(pageHitCounts)
      .get()
    return { hitCount: counts.hits, uniqueHitCount: counts.unique, totalHitCount: Number(total?.hits ?? 0) }
  })
}
