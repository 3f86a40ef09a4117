// Site-wide records: contact inbox, page hits, promotions, recorded server errors, chart cache.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'

export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: text().primaryKey().$defaultFn(newId),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    read: integer({ mode: 'boolean' }).notNull().default(false),
    important: integer({ mode: 'boolean' }).notNull().default(false),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    index('contact_messages_read_idx').on(t.read, t.createdAt),
    index('contact_messages_important_idx').on(t.important, t.createdAt),
  ],
)

// One row per counted visit. visitorHash is a salted hash of IP + User-Agent whose salt rotates
// daily (no raw IP is stored).
export const pageHits = sqliteTable(
  'page_hits',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    page: text().notNull(),
    visitorHash: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [
    index('page_hits_page_visitor_idx').on(t.page, t.visitorHash),
    index('page_hits_created_at_idx').on(t.createdAt),
    index('page_hits_visitor_idx').on(t.visitorHash),
  ],
)

// Running totals per page, kept in the same transaction as each hit so the footer counter costs
// O(log n) however many hits are stored. Whoever deletes page_hits must clear these too.
export const pageHitCounts = sqliteTable('page_hit_counts', {
  page: text().primaryKey(),
  hits: integer().notNull().default(0),
  uniqueVisitors: integer().notNull().default(0),
})

export const promotions = sqliteTable('promotions', {
  id: text().primaryKey().$defaultFn(newId),
  title: text().notNull(),
  description: text().notNull(),
  imageUrl: text().notNull(),
  linkUrl: text().notNull(),
  backgroundColor: text().notNull(),
  textColor: text().notNull(),
  position: integer().notNull().default(0),
  active: integer({ mode: 'boolean' }).notNull().default(true),
})

export const serverErrors = sqliteTable(
  'server_errors',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    requestId: text(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    message: text().notNull(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('server_errors_created_at_idx').on(t.createdAt)],
)

// The last good upstream chart per region, served for an hour and kept as a fallback.
export const chartCache = sqliteTable('chart_cache', {
  region: text().primaryKey(),
  payload: text().notNull(), // JSON: { updated, tracks[] }
  fetchedAt: integer({ mode: 'timestamp_ms' }).notNull(),
})

export type ContactMessage = typeof contactMessages.$inferSelect
export type Promotion = typeof promotions.$inferSelect
