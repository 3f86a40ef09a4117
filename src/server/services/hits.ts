// Page visits for the footer counter (CONTRACT §3). A visitor is an HMAC of IP + User-Agent under
// a salt that changes every UTC day, so no raw IP is stored and one day's visitors cannot be linked
// to the next day's. "Unique" therefore means distinct visitor-days.
import { createHmac } from 'node:crypto'
import { count, countDistinct, eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { pageHits } from '~/db/schema'

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

/**
 * Records one hit and answers the counts including it. bun:sqlite is synchronous and the whole
 * insert-then-count runs in one transaction, so concurrent requests each see an exact, distinct
 * running total.
 */
export function recordPageHit(db: Db, page: string, visitor: string, now = new Date()): PageHitCounts {
  return db.transaction((tx) => {
    tx.insert(pageHits).values({ page, visitorHash: visitor, createdAt: now }).run()
    const forPage = tx
      .select({ hits: count(), unique: countDistinct(pageHits.visitorHash) })
      .from(pageHits)
      .where(eq(pageHits.page, page))
      .get()
    const total = tx.select({ hits: count() }).from(pageHits).get()
    return { hitCount: forPage?.hits ?? 0, uniqueHitCount: forPage?.unique ?? 0, totalHitCount: total?.hits ?? 0 }
  })
}
