// Accounts, their revocable sessions (the Lucia design), reset tokens and the login log.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'

export const users = sqliteTable(
  'users',
  {
    id: text().primaryKey().$defaultFn(newId),
    username: text().notNull().unique(),
    email: text().notNull().unique(),
    passwordHash: text().notNull(),
    isAdmin: integer({ mode: 'boolean' }).notNull().default(false),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('users_created_at_idx').on(t.createdAt)],
)

// A session row is what a token points at: deleting it revokes every copy of that token.
// The id is the SHA-256 of the session secret carried in the token, so a leaked database
// does not hand out live sessions.
export const sessions = sqliteTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    // What /profile lists so a member can tell their sessions apart: the browser or app that
    // logged in, and when the session was last used (refreshed at most every few minutes).
    userAgent: text().notNull().default(''),
    lastSeenAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: text().primaryKey(), // SHA-256 of the e-mailed token
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    usedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
)

// One row per successful login: the admin "User Activity" table counts them per day. The member
// index answers engagement's "active again a day after signing up" with one seek per new member.
export const logins = sqliteTable(
  'logins',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('logins_created_at_idx').on(t.createdAt), index('logins_user_created_idx').on(t.userId, t.createdAt)],
)

export type User = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert
export type Session = typeof sessions.$inferSelect
