// A member's play queue: one row per member, the newest save
// wins. The tracks are one JSON column: the queue is always read and written whole (the web
// player's PUT, OpenSubsonic's savePlayQueue), never queried by track.
import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { users } from './users'

export type QueuedTrack = { url: string; title: string; artist: string; album: string; duration: number; mime: string }

export const playQueues = sqliteTable('play_queues', {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tracks: text({ mode: 'json' }).$type<QueuedTrack[]>().notNull(),
  index: integer().notNull().default(0),
  positionSec: real().notNull().default(0),
  device: text().notNull().default(''),
  updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
})

export type PlayQueue = typeof playQueues.$inferSelect
