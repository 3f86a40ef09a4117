// What members play and do: play events (with their updates), interactions and likes.
// Play events keep their rows when a user is deleted (userId set null) so analytics stay whole.
import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const playEvents = sqliteTable(
  'play_events',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text().references(() => users.id, { onDelete: 'set null' }),
    trackUrl: text().notNull(),
    title: text().notNull(),
    duration: real().notNull().default(0),
    deviceType: text().notNull().default('unknown'),
    genre: text(),
    artist: text(),
    album: text(),
    year: integer(),
    source: text().notNull().default('direct'),
    /** The app that reported the play (OpenSubsonic `c`, e.g. 'DSub'); null for the web player. */
    client: text(),
    playlistId: text(),
    previousTrack: text(),
    nextTrack: text(),
    sessionId: text(),
    sessionPosition: integer(),
    networkType: text().notNull().default('unknown'),
    country: text(),
    region: text(),
    city: text(),
    listenDuration: real().notNull().default(0),
    completed: integer({ mode: 'boolean' }).notNull().default(false),
    skipped: integer({ mode: 'boolean' }).notNull().default(false),
    skipTime: real(),
    liked: integer({ mode: 'boolean' }).notNull().default(false),
    shared: integer({ mode: 'boolean' }).notNull().default(false),
    repeated: integer({ mode: 'boolean' }).notNull().default(false),
    bufferCount: integer().notNull().default(0),
    qualityDrops: integer().notNull().default(0),
    startedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    endedAt: integer({ mode: 'timestamp_ms' }),
    /** The client's own key for this play (the web player's queue id): a play re-sent after its
     *  answer was lost is recorded once (docs/decisions/107). Null for plays sent without one. */
    clientPlayId: text(),
  },
  (t) => [
    index('play_events_started_at_idx').on(t.startedAt),
    index('play_events_user_started_idx').on(t.userId, t.startedAt),
    // OpenSubsonic getAlbumList2 frequent/recent: a member's plays by album, read from the index
    // alone (album itself too: SQLite reads the row for any column the index lacks).
    index('play_events_user_album_idx').on(t.userId, sql`lower(${t.album})`, t.startedAt, t.album).where(sql`${t.album} IS NOT NULL`),
    index('play_events_track_started_idx').on(t.trackUrl, t.startedAt),
    index('play_events_playlist_started_idx').on(t.playlistId, t.startedAt),
    index('play_events_country_started_idx').on(t.country, t.startedAt),
    // Keys are the member's own: one play per member and key. Partial: plays without a key (apps'
    // scrobbles, share links) add nothing to it.
    uniqueIndex('play_events_user_client_play_idx').on(t.userId, t.clientPlayId).where(sql`${t.clientPlayId} IS NOT NULL`),
  ],
)

export const interactions = sqliteTable(
  'interactions',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text().references(() => users.id, { onDelete: 'set null' }),
    trackId: text().notNull(),
    interactionType: text().notNull(), // like | share | repeat
    timestamp: integer({ mode: 'timestamp_ms' }).notNull(), // the client's moment
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('interactions_created_at_idx').on(t.createdAt), index('interactions_user_created_idx').on(t.userId, t.createdAt)],
)

// Likes are keyed by track title; the url is kept for display and charts.
export const likes = sqliteTable(
  'likes',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    trackKey: text().notNull(),
    trackUrl: text(),
    liked: integer({ mode: 'boolean' }).notNull().default(true),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.trackKey] })],
)

export type PlayEvent = typeof playEvents.$inferSelect
export type NewPlayEvent = typeof playEvents.$inferInsert
