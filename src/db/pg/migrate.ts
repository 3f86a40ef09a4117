// Applies the committed PostgreSQL migrations (src/db/migrations-pg) at start-up. Several nodes
// may start together against one database: each takes the same session-level advisory lock first,
// so one applies the migrations while the others wait, then find them recorded and apply nothing.
// One connection (max: 1) holds the lock and runs the migrations, so the lock lives exactly as long
// as this call. Bun's built-in SQL client with drizzle-orm/bun-sql (decision 071).
import { SQL } from 'bun'
import { drizzle } from 'drizzle-orm/bun-sql'
import { migrate } from 'drizzle-orm/bun-sql/migrator'

/** The advisory lock's key: any fixed 64-bit number no other code in this database locks on ("vibesmig" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x76696265736d6967n

export const PG_MIGRATIONS_FOLDER = new URL('../migrations-pg', import.meta.url).pathname

/** The single binary has no source tree: it unpacks its embedded migrations and names the folder in VIBES_PG_MIGRATIONS. */
export async function migratePostgres(databaseUrl: string, migrationsFolder = process.env.VIBES_PG_MIGRATIONS || PG_MIGRATIONS_FOLDER) {
  const client = new SQL({ url: databaseUrl, max: 1 })
  try {
    await client`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`
    try {
      await migrate(drizzle({ client }), { migrationsFolder })
    } finally {
      await client`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`
    }
  } finally {
    await client.close()
  }
}
