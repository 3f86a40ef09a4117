// Members' folders (ordered per user) and the tag cache of the server music library.
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
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
  (t) => [index('folders_user_position_idx').on(t.userId, t.position)],
)

// Tags read by music-metadata, keyed by the file's path inside MEDIA_ROOT and valid while its
// size and mtime are unchanged, so a second listing of a large folder reads no file.
export const mediaTags = sqliteTable('media_tags', {
  path: text().primaryKey(),
  size: integer().notNull(),
  mtimeMs: integer().notNull(),
  title: text(),
  artist: text(),
  album: text(),
  genre: text(),
  year: integer(),
  duration: real(),
  coverMime: text(),
})

export type Folder = typeof folders.$inferSelect
export type NewFolder = typeof folders.$inferInsert
export type MediaTags = typeof mediaTags.$inferSelect
