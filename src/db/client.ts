// One SQLite connection per process (bun:sqlite is synchronous and fast; WAL lets readers run
// beside the single writer). Committed migrations are applied when the database is opened.
// The file holds password hashes and sessions: owner only (0600). SQLite gives the -wal and -shm
// files it creates the main file's mode; ones left by an older version are narrowed here too.
import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import * as schema from './schema'

export type Db = ReturnType<typeof openDb>

const PRIVATE = 0o600

function makePrivate(file: string) {
  if (file === ':memory:') return
  closeSync(openSync(file, 'a', PRIVATE))
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, PRIVATE)
}

export function openDb(file: string, migrationsFolder: string) {
  makePrivate(file)
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
