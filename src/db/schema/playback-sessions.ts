// What each member's apps say they are playing now (services/playback-reports.ts, decisions 067
// and 100): one row per member and app, moved on by every reportPlayback and now-playing scrobble,
// whichever node the report reaches, so that every node records one play per song and shows the
// same "now playing". Rows not heard from for a while are deleted.
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { users } from './users'

export const playbackSessions = sqliteTable(
  'playback_sessions',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The app (OpenSubsonic `c`); '' when it named none. */
    app: text().notNull(),
    songId: text().notNull(),
    path: text().notNull(),
    duration: real().notNull(),
    /** starting, playing, paused or stopped. */
    state: text().notNull(),
    /** False when the app asked not to scrobble (ignoreScrobble): now playing only. */
    scrobble: integer({ mode: 'boolean' }).notNull(),
    /** The play event this session writes to, claimed (its id chosen) by the report that records it. */
    playEventId: text(),
    /** When the song started, and the last report (ms since the epoch). */
    startedAt: integer().notNull(),
    at: integer().notNull(),
    positionMs: integer().notNull(),
    rate: real().notNull(),
    /** Seconds heard so far by the server's clock: time in `playing` times the rate. */
    listened: real().notNull(),
    /** Moves on with every write: a report writes only over the row it read (two nodes at once). */
    version: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.app] }), index('playback_sessions_at_idx').on(t.at)],
)
