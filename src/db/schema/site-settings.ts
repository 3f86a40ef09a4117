// The operator's site-wide settings, one row (id 1, written on first change): whether adverts
// interrupt playback between tracks and their chance (by default on,
// 30 %), and whether the default promotions were ever seeded, so an admin who deletes every
// promotion does not see the defaults come back on the next read.
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const siteSettings = sqliteTable('site_settings', {
  id: integer().primaryKey(),
  advertsEnabled: integer({ mode: 'boolean' }).notNull().default(true),
  advertChancePercent: integer().notNull().default(30),
  promotionsSeeded: integer({ mode: 'boolean' }).notNull().default(false),
  /** Who may subscribe the server to a new podcast feed: 'everyone' (members) or 'admins'. */
  podcastFeedsBy: text().notNull().default('everyone'),
})
