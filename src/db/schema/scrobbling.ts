// Scrobbling: a member's connections to ListenBrainz and Last.fm, and every play to send them.
// A connection keeps its credential (a ListenBrainz user token, a Last.fm session key) sealed with
// a key derived from AUTH_SECRET (auth/sealed-secret.ts), never in plain text. Each play waits in
// scrobble_queue until it is sent: one row per play, service and kind (the unique index makes
// queueing idempotent), marked sent only after the service accepted it, so a restart or an outage
// loses nothing and sends nothing twice. The row keeps the track as it was played, so the member's
// list of what was sent reads from it alone.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const scrobbleConnections = sqliteTable(
  'scrobble_connections',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** listenbrainz | lastfm */
    service: text().notNull(),
    /** The account name at the service, as it answered when the connection was made. */
    account: text().notNull(),
    /** The sealed token or session key (auth/sealed-secret.ts). */
    credential: text().notNull(),
    connectedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.service] })],
)

export const scrobbleQueue = sqliteTable(
  'scrobble_queue',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text().notNull(),
    /** now_playing | listen */
    kind: text().notNull(),
    /** The play event it comes from (it may since have been deleted), or `now-playing:<id>` for
     *  an app's "now playing" that recorded no play. */
    playId: text().notNull(),
    artist: text().notNull(),
    title: text().notNull(),
    album: text(),
    /** Seconds. */
    duration: real().notNull(),
    /** When the play started. */
    playedAt: integer({ mode: 'timestamp_ms' }).notNull(),
    /** queued | sent | failed (refused for good) | expired (a "now playing" past its track) */
    status: text().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    /** A sender working on the row holds it until then, so two nodes never send it both. */
    claimedUntil: integer({ mode: 'timestamp_ms' }),
    lastError: text(),
    sentAt: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [
    uniqueIndex('scrobble_queue_play_idx').on(t.playId, t.service, t.kind),
    index('scrobble_queue_due_idx').on(t.status, t.nextAttemptAt),
    index('scrobble_queue_user_created_idx').on(t.userId, t.createdAt),
  ],
)

export type ScrobbleConnection = typeof scrobbleConnections.$inferSelect
export type ScrobbleQueueRow = typeof scrobbleQueue.$inferSelect
