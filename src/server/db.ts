// The server's database, opened on first use: one SQLite connection per process (migrated when
// opened), or with DATABASE_URL a pool on PostgreSQL, migrated by the start-up before this opens
// it (docs/decisions/083). The page bundle carries no copy of this module (decision 043).
import { openDb, type Db } from '~/db/client'
import { closeHandle, openPostgres } from '~/db/engine'
import { config } from './config'

let db: Db | undefined

export function getDb(): Db {
  db ??= config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : openDb(config.dbFile, config.migrationsDir)
  return db
}

export async function closeDb() {
  const open = db
  db = undefined
  if (open) await closeHandle(open)
}
