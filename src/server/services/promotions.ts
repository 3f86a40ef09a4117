// The "Featured Promotions" grid and the advert modal: stored promotions,
// seeded with four defaults the first time the list is read (once: site_settings remembers it, so
// an admin who deletes them all gets an empty grid, not the defaults again). The default images
// are served from /promotions/ so the page never depends on a third-party host. Admins manage the
// promotions and the adverts' chance; the public list carries that chance, so
// the player learns it with the promotions it already loads, without another request.
import { NotFoundError } from '../errors'
import { and, asc, eq, max } from 'drizzle-orm'
import { type Db, tablesOf, transaction } from '~/db/engine'
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

function columnsOf(db: Db) {
  const { promotions } = tablesOf(db)
  return {
    id: promotions.id,
    title: promotions.title,
    description: promotions.description,
    imageUrl: promotions.imageUrl,
    linkUrl: promotions.linkUrl,
    backgroundColor: promotions.backgroundColor,
    textColor: promotions.textColor,
  }
}

export type PromotionView = { id: string; title: string; description: string; imageUrl: string; linkUrl: string; backgroundColor: string; textColor: string }
export type AdminPromotionView = PromotionView & { active: boolean }

const DEFAULT_SETTINGS = { advertsEnabled: true, advertChancePercent: Math.round(AD_CHANCE * 100), promotionsSeeded: false }

async function readSettings(db: Db) {
  const { siteSettings } = tablesOf(db)
  const [row] = await db
    .select({
      advertsEnabled: siteSettings.advertsEnabled,
      advertChancePercent: siteSettings.advertChancePercent,
      promotionsSeeded: siteSettings.promotionsSeeded,
    })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1))
  return row ?? DEFAULT_SETTINGS
}

async function writeSettings(db: Db, values: Partial<typeof DEFAULT_SETTINGS>) {
  const { siteSettings } = tablesOf(db)
  await db
    .insert(siteSettings)
    .values({ id: 1, ...DEFAULT_SETTINGS, ...values })
    .onConflictDoUpdate({ target: siteSettings.id, set: values })
}

/** Seeds the defaults the first time promotions are read, unless some exist (an older database). */
async function seedOnce(db: Db) {
  if ((await readSettings(db)).promotionsSeeded) return
  const { promotions, siteSettings } = tablesOf(db)
  await transaction(db, async (tx) => {
    // Whoever turns the flag on seeds; two first readers (two nodes on PostgreSQL) seed once: the
    // second one's update waits for the first's row lock, then finds the flag on.
    await tx
      .insert(siteSettings)
      .values({ id: 1, ...DEFAULT_SETTINGS })
      .onConflictDoNothing()
    const claimed = await tx
      .update(siteSettings)
      .set({ promotionsSeeded: true })
      .where(and(eq(siteSettings.id, 1), eq(siteSettings.promotionsSeeded, false)))
      .returning({ id: siteSettings.id })
    if (claimed.length === 0) return
    const [any] = await tx.select({ id: promotions.id }).from(promotions).limit(1)
    if (!any) await tx.insert(promotions).values(DEFAULT_PROMOTIONS.map((p, position) => ({ ...p, position })))
  })
}

export async function advertSettings(db: Db): Promise<AdvertSettings> {
  const s = await readSettings(db)
  return { enabled: s.advertsEnabled, chancePercent: s.advertChancePercent }
}

export async function setAdvertSettings(db: Db, input: AdvertSettings): Promise<AdvertSettings> {
  await writeSettings(db, { advertsEnabled: input.enabled, advertChancePercent: input.chancePercent })
  return advertSettings(db)
}

export async function listPromotions(db: Db): Promise<PromotionView[]> {
  await seedOnce(db)
  const { promotions } = tablesOf(db)
  return db.select(columnsOf(db)).from(promotions).where(eq(promotions.active, true)).orderBy(asc(promotions.position)).limit(PROMOTIONS_SHOWN)
}

/** Every promotion, switched off ones too, in grid order (the admin's list). */
export async function listAllPromotions(db: Db): Promise<AdminPromotionView[]> {
  await seedOnce(db)
  const { promotions } = tablesOf(db)
  return db
    .select({ ...columnsOf(db), active: promotions.active })
    .from(promotions)
    .orderBy(asc(promotions.position))
}

async function promotionById(db: Db, id: string): Promise<AdminPromotionView> {
  const { promotions } = tablesOf(db)
  const [row] = await db
    .select({ ...columnsOf(db), active: promotions.active })
    .from(promotions)
    .where(eq(promotions.id, id))
  if (!row) throw new NotFoundError(PROMOTION_NOT_FOUND)
  return row
}

/** A new promotion goes last in the grid order. */
export async function createPromotion(db: Db, input: PromotionCreateInput): Promise<AdminPromotionView> {
  await seedOnce(db)
  const { promotions } = tablesOf(db)
  const [last] = await db.select({ position: max(promotions.position) }).from(promotions)
  const [row] = await db
    .insert(promotions)
    .values({ ...input, position: (last?.position ?? -1) + 1 })
    .returning({ id: promotions.id })
  return promotionById(db, row.id)
}

export async function updatePromotion(db: Db, { id, ...fields }: PromotionUpdateInput): Promise<AdminPromotionView> {
  await promotionById(db, id)
  const { promotions } = tablesOf(db)
  await db.update(promotions).set(fields).where(eq(promotions.id, id))
  return promotionById(db, id)
}

export async function deletePromotion(db: Db, id: string): Promise<{ id: string; deleted: true }> {
  await promotionById(db, id)
  const { promotions } = tablesOf(db)
  await db.delete(promotions).where(eq(promotions.id, id))
  return { id, deleted: true }
}
