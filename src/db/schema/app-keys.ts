// App keys: long random secrets a member creates on /profile for native OpenSubsonic apps (the
// `apiKey` extension), so an app never holds the account password. A key is found by its SHA-256
// (as sessions are); for token login (md5(key + salt)) the server needs the key itself, so it is
// also kept encrypted with a key derived from AUTH_SECRET (auth/sealed-secret.ts): the database
// alone hands out no working key. Keys made before that have no ciphertext (decision 066). Revoking keeps the row
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
    /** AES-256-GCM of the key (auth/sealed-secret.ts); null for a key made before token login. */
    keySecret: text(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    lastUsedAt: integer({ mode: 'timestamp_ms' }),
    revokedAt: integer({ mode: 'timestamp_ms' }),
  },
  (t) => [index('app_keys_user_id_idx').on(t.userId)],
)

export type AppKey = typeof appKeys.$inferSelect
