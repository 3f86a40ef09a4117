// A member's own marks on the library: ratings (1–5 stars on a song, album or artist) and
// bookmarks (a position in a song to resume from). Keyed by the library index's ids, which are
// hashes of what identifies the thing (a track's path…) and so survive a rescan; a song removed
// from the library leaves its rows behind, unread, until it comes back under the same path.
// Both are private: every read and write names the member.
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { users } from './users'

export const RATED_KINDS = ['song', 'album', 'artist'] as const
export type RatedKind = (typeof RATED_KINDS)[number]

export const ratings = sqliteTable(
  'ratings',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A library_tracks, library_albums or library_artists id. */
    itemId: text().notNull(),
    kind: text({ enum: RATED_KINDS }).notNull(),
    /** 1–5; clearing a rating deletes the row. */
    rating: integer().notNull(),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.itemId] }),
    // item_id in it: a member's ratings (read on nearly every OpenSubsonic answer, for userRating)
    // and the highest-rated albums come from the index alone, not one row lookup per rating.
    index('ratings_user_kind_rating_idx').on(t.userId, t.kind, t.rating, t.itemId),
  ],
)

export const bookmarks = sqliteTable(
  'bookmarks',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A library_tracks id. */
    trackId: text().notNull(),
    positionMs: integer().notNull(),
    comment: text().notNull().default(''),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.trackId] })],
)
