// One SQLite connection per process (bun:sqlite is synchronous and fast; WAL lets readers run
// beside the single writer). Committed migrations are applied when the database is opened.
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import * as schema from './schema'

export type Db = ReturnType<typeof openDb>

export function openDb(file: string, migrationsFolder: string) {
  const client = new Database(file, { create: true, strict: true })
  client.exec('PRAGMA journal_mode = WAL')
  client.exec('PRAGMA foreign_keys = ON')
  client.exec('PRAGMA busy_timeout = 5000')
  // NORMAL is durable in WAL mode against a killed process (only an OS crash can lose the tail).
  client.exec('PRAGMA synchronous = NORMAL')
  const db = drizzle({ client, schema, casing: 'snake_case' })
  migrate(db, { migrationsFolder })
  return db
}
