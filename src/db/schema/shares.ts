// Share links: a member's read-only link to library tracks or an album that anyone may open and
// play without an account (/s/<id>). The id is the link's secret (144 random bits, base64url), so
// it is the primary key itself. The target is a small typed union (services/shares.ts
// ShareTarget): its kind and the ids it names, kept as a JSON array. Revoking keeps the row so
// the link can say it was revoked; the counters are the share's own visit and play counts.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { users } from './users'

export const shares = sqliteTable(
  'shares',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'tracks' or 'album' (ShareTarget's kind). */
    targetKind: text().notNull(),
    /** JSON array of the library ids the target names (one album id for an album). */
    targetIds: text().notNull(),
    description: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    /** Null: the link never expires. */
    expiresAt: integer({ mode: 'timestamp_ms' }),
    revokedAt: integer({ mode: 'timestamp_ms' }),
    visitCount: integer().notNull().default(0),
    playCount: integer().notNull().default(0),
    lastVisitedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [index('shares_user_created_idx').on(t.userId, t.createdAt)],
)

export type Share = typeof shares.$inferSelect
