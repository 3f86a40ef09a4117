// The server's database, opened (and migrated) on first use: one connection per process (the page
// bundle carries no copy of this module, decision 043).
import { openDb, type Db } from '~/db/client'
import { config } from './config'

let db: Db | undefined

export function getDb(): Db {
  db ??= openDb(config.dbFile, config.migrationsDir)
  return db
}

export function closeDb() {
  db?.$client.close()
  db = undefined
}
