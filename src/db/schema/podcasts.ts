// Podcasts (docs/decisions/078): a channel is one feed URL, shared by every member who follows it
// (one row per URL, refreshed once for all of them); its episodes are the feed's items, keyed by
// the feed's own guid. A member's subscription holds when they last opened the channel (the
// new-episode badge counts episodes published since), and their progress in each episode
// (position and played) is theirs alone, read by the web player and by apps alike. An episode
// downloaded into DATA_DIR/podcasts names its file here; otherwise it streams from its source
// through the server.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { users } from './users'

export const podcastChannels = sqliteTable('podcast_channels', {
  id: text().primaryKey(),
  feedUrl: text().notNull().unique(),
  title: text().notNull(),
  author: text().notNull().default(''),
  /** Plain text: the feed's HTML is reduced to text when it is read. */
  description: text().notNull().default(''),
  artworkUrl: text(),
  siteUrl: text(),
  /** The validators of the last full answer, sent back on refresh (a 304 costs nothing). */
  etag: text(),
  lastModified: text(),
  checkedAt: integer({ mode: 'timestamp_ms' }),
  /** Why the last refresh failed, or null. */
  lastError: text(),
  createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
})

export const podcastEpisodes = sqliteTable(
  'podcast_episodes',
  {
    id: text().primaryKey(),
    channelId: text()
      .notNull()
      .references(() => podcastChannels.id, { onDelete: 'cascade' }),
    guid: text().notNull(),
    title: text().notNull(),
    publishedAt: integer({ mode: 'timestamp_ms' }),
    /** Seconds; 0 when the feed does not say. */
    durationSec: integer().notNull().default(0),
    description: text().notNull().default(''),
    enclosureUrl: text().notNull(),
    enclosureType: text().notNull().default('audio/mpeg'),
    enclosureSize: integer().notNull().default(0),
    /** A file name under DATA_DIR/podcasts once downloaded, else null. */
    downloadFile: text(),
    downloadedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('podcast_episodes_channel_guid_idx').on(t.channelId, t.guid),
    index('podcast_episodes_channel_published_idx').on(t.channelId, t.publishedAt),
  ],
)

export const podcastSubscriptions = sqliteTable(
  'podcast_subscriptions',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: text()
      .notNull()
      .references(() => podcastChannels.id, { onDelete: 'cascade' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    /** When the member last opened the channel: later episodes are new to them. */
    visitedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] }), index('podcast_subscriptions_channel_idx').on(t.channelId)],
)

export const podcastProgress = sqliteTable(
  'podcast_progress',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    episodeId: text()
      .notNull()
      .references(() => podcastEpisodes.id, { onDelete: 'cascade' }),
    positionMs: integer().notNull().default(0),
    played: integer({ mode: 'boolean' }).notNull().default(false),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.episodeId] })],
)

export type PodcastChannel = typeof podcastChannels.$inferSelect
export type PodcastEpisode = typeof podcastEpisodes.$inferSelect
