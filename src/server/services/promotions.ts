// The "Featured Promotions" grid and the advert modal: stored promotions,
// seeded with four defaults the first time the list is read (once: site_settings remembers it, so
// an admin who deletes them all gets an empty grid, not the defaults again). The default images
// are served from /promotions/ so the page never depends on a third-party host. Admins manage the
// promotions and the adverts' chance; the public list carries that chance, so
// the player learns it with the promotions it already loads, without another request.
import { NotFoundError } from '../errors'
import { asc, eq, max } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { promotions, siteSettings } from '~/db/schema'
import { AD_CHANCE } from '~/shared/player/errors'
import type { AdvertSettings, PromotionCreateInput, PromotionUpdateInput } from '~/shared/validators/adverts'

export const PROMOTION_NOT_FOUND = 'Promotion not found'
/** The grid shows four cards; more active promotions wait their turn by position. */
export const PROMOTIONS_SHOWN = 4

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
export type AdminPromotionView = PromotionView & { active: boolean }

const DEFAULT_SETTINGS = { advertsEnabled: true, advertChancePercent: Math.round(AD_CHANCE * 100), promotionsSeeded: false }

// Readers and writers take the transaction too (seedOnce).
function readSettings(db: Pick<Db, 'select'>) {
  return (
    db
      .select({
        advertsEnabled: siteSettings.advertsEnabled,
        advertChancePercent: siteSettings.advertChancePercent,
        promotionsSeeded: siteSettings.promotionsSeeded,
      })
      .from(siteSettings)
      .where(eq(siteSettings.id, 1))
      .get() ?? DEFAULT_SETTINGS
  )
}

function writeSettings(db: Pick<Db, 'insert'>, values: Partial<typeof DEFAULT_SETTINGS>) {
  db.insert(siteSettings)
    .values({ id: 1, ...DEFAULT_SETTINGS, ...values })
    .onConflictDoUpdate({ target: siteSettings.id, set: values })
    .run()
}

/** Seeds the defaults the first time promotions are read, unless some exist (an older database). */
function seedOnce(db: Db) {
  if (readSettings(db).promotionsSeeded) return
  db.transaction((tx) => {
    // Re-check inside the write transaction so two first readers seed once.
    if (readSettings(tx).promotionsSeeded) return
    if (!tx.select({ id: promotions.id }).from(promotions).limit(1).get()) {
      tx.insert(promotions)
        .values(DEFAULT_PROMOTIONS.map((p, position) => ({ ...p, position })))
        .run()
    }
    writeSettings(tx, { promotionsSeeded: true })
  })
}

export function advertSettings(db: Db): AdvertSettings {
  const s = readSettings(db)
  return { enabled: s.advertsEnabled, chancePercent: s.advertChancePercent }
}

export function setAdvertSettings(db: Db, input: AdvertSettings): AdvertSettings {
  writeSettings(db, { advertsEnabled: input.enabled, advertChancePercent: input.chancePercent })
  return advertSettings(db)
}

export function listPromotions(db: Db): PromotionView[] {
  seedOnce(db)
  return db.select(columns).from(promotions).where(eq(promotions.active, true)).orderBy(asc(promotions.position)).limit(PROMOTIONS_SHOWN).all()
}

/** Every promotion, switched off ones too, in grid order (the admin's list). */
export function listAllPromotions(db: Db): AdminPromotionView[] {
  seedOnce(db)
  return db
    .select({ ...columns, active: promotions.active })
    .from(promotions)
    .orderBy(asc(promotions.position))
    .all()
}

function promotionById(db: Db, id: string): AdminPromotionView {
  const row = db
    .select({ ...columns, active: promotions.active })
    .from(promotions)
    .where(eq(promotions.id, id))
    .get()
  if (!row) throw new NotFoundError(PROMOTION_NOT_FOUND)
  return row
}

/** A new promotion goes last in the grid order. */
export function createPromotion(db: Db, input: PromotionCreateInput): AdminPromotionView {
  seedOnce(db)
  const last = db
    .select({ position: max(promotions.position) })
    .from(promotions)
    .get()
  const [row] = db
    .insert(promotions)
    .values({ ...input, position: (last?.position ?? -1) + 1 })
    .returning({ id: promotions.id })
    .all()
  return promotionById(db, row.id)
}

export function updatePromotion(db: Db, { id, ...fields }: PromotionUpdateInput): AdminPromotionView {
  promotionById(db, id)
  db.update(promotions).set(fields).where(eq(promotions.id, id)).run()
  return promotionById(db, id)
}

export function deletePromotion(db: Db, id: string): { id: string; deleted: true } {
  promotionById(db, id)
  db.delete(promotions).where(eq(promotions.id, id)).run()
  return { id, deleted: true }
}
