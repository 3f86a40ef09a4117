// App keys: long random secrets a member creates on /profile for native OpenSubsonic apps (the
// `apiKey` extension), so an app never holds the account password. Only the SHA-256 of a key is
// stored (as with sessions): a leaked database hands out no working key. Revoking keeps the row
// so the list can show it as revoked; verification ignores revoked rows.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const appKeys = sqliteTable(
  'app_keys',
  {
    id: text().primaryKey().$defaultFn(newId),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    keyHash: text().notNull().unique(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    lastUsedAt: integer({ mode: 'timestamp_ms' }),
    revokedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [index('app_keys_user_id_idx').on(t.userId)],
)

export type AppKey = typeof appKeys.$inferSelect
