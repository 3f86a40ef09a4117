// Members' playlists of library tracks. An entry names its track by the catalog's stable track key
// (catalog/track-key.ts: the file's /media/ URL without a signature, as plays and likes record
// it), so it outlives rescans and a wiped index; the title, artist and length seen when it was
// added are kept beside it, so an entry whose file has vanished is still shown (as unavailable)
// rather than dropped. Entries are numbered 0..n-1 by `position`, rewritten by the service on
// every change (no unique index: a renumbering passes through duplicate positions).
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const playlists = sqliteTable(
  'playlists',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    comment: text().notNull().default(''),
    /** Other members may see (never change) a public playlist. */
    isPublic: integer({ mode: 'boolean' }).notNull().default(false),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  // A member's own list (newest change first) and everyone's public ones.
  (t) => [index('playlists_user_updated_idx').on(t.userId, t.updatedAt), index('playlists_public_updated_idx').on(t.isPublic, t.updatedAt)],
)

export const playlistEntries = sqliteTable(
  'playlist_entries',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    playlistId: text()
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    trackKey: text().notNull(),
    title: text().notNull(),
    artist: text().notNull().default(''),
    duration: real().notNull().default(0),
    addedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('playlist_entries_order_idx').on(t.playlistId, t.position)],
)

export type Playlist = typeof playlists.$inferSelect
export type PlaylistEntry = typeof playlistEntries.$inferSelect
