// The server's database, opened (and migrated) on first use. Kept on globalThis because the
// production entry and the Vite-built app bundle each carry a copy of this module: one
// connection per process either way.
import { openDb, type Db } from '~/db/client'
import { config } from './config'

const shared = globalThis as typeof globalThis & { __vibesDb?: Db }

export function getDb(): Db {
  shared.__vibesDb ??= openDb(config.dbFile, config.migrationsDir)
  return shared.__vibesDb
}

export function closeDb() {
  shared.__vibesDb?.$client.close()
  shared.__vibesDb = undefined
}
