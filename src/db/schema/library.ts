// Members' folders (ordered per user); their library tracks come from the library index.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const folders = sqliteTable(
  'folders',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text().notNull(),
    path: text().notNull(),
    position: integer().notNull().default(0),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  // In the list's own order (position, then age): every member page reads it without a sort step.
  (t) => [index('folders_user_order_idx').on(t.userId, t.position, t.createdAt)],
)

export type Folder = typeof folders.$inferSelect
export type NewFolder = typeof folders.$inferInsert
