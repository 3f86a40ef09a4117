// The "Featured Promotions" grid and the advert modal (§2, §3 "Promotion"): stored promotions,
// seeded with four defaults the first time the list is read. Images are served from /promotions/
// so the page never depends on a third-party host.
import { asc, eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { promotions } from '~/db/schema'

export const DEFAULT_PROMOTIONS = [
  {
    title: 'Vibes Premium',
    description: 'Stream your remote folders in full quality, keep your folders in sync and never lose a play. First month free.',
    imageUrl: '/promotions/premium.svg',
    linkUrl: '/register',
    backgroundColor: '#4c1d95',
    textColor: '#f5f3ff',
  },
  {
    title: 'Live Sessions Weekly',
    description: 'Fresh acoustic sets from independent artists every Friday night. Add the folder and press play.',
    imageUrl: '/promotions/live-sessions.svg',
    linkUrl: '/about',
    backgroundColor: '#831843',
    textColor: '#fdf2f8',
  },
  {
    title: 'Top of the Charts',
    description: 'See what the world is playing right now, from the US to Japan, refreshed every minute.',
    imageUrl: '/promotions/charts.svg',
    linkUrl: '/charts',
    backgroundColor: '#0c4a6e',
    textColor: '#f0f9ff',
  },
  {
    title: 'Studio Headphones Sale',
    description: 'Closed-back monitors tuned for long listening sessions. 30% off for Vibes listeners this month.',
    imageUrl: '/promotions/headphones.svg',
    linkUrl: '/contact',
    backgroundColor: '#14532d',
    textColor: '#f0fdf4',
  },
]

const columns = {
  id: promotions.id,
  title: promotions.title,
  description: promotions.description,
  imageUrl: promotions.imageUrl,
  linkUrl: promotions.linkUrl,
  backgroundColor: promotions.backgroundColor,
  textColor: promotions.textColor,
}

export type PromotionView = { id: string; title: string; description: string; imageUrl: string; linkUrl: string; backgroundColor: string; textColor: string }

export function listPromotions(db: Db): PromotionView[] {
  const rows = db.select(columns).from(promotions).where(eq(promotions.active, true)).orderBy(asc(promotions.position)).limit(4).all()
  if (rows.length > 0) return rows
  const any = db.select({ id: promotions.id }).from(promotions).limit(1).get()
  if (any) return [] // an admin switched them all off
  db.transaction((tx) => {
    // Re-check inside the write transaction so two first readers seed once.
    if (tx.select({ id: promotions.id }).from(promotions).limit(1).get()) return
    tx.insert(promotions)
      .values(DEFAULT_PROMOTIONS.map((p, position) => ({ ...p, position })))
      .run()
  })
  return db.select(columns).from(promotions).where(eq(promotions.active, true)).orderBy(asc(promotions.position)).limit(4).all()
}
