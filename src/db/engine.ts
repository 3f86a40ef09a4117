// One data layer, two engines (docs/decisions/083): SQLite in DATA_DIR (the default) or, with
// DATABASE_URL, PostgreSQL shared by any number of nodes.
//
// Services take the one handle type `Db` and reach the tables through `tablesOf(db)`, which hands
// out the engine's table objects: the SQLite tables, or their PostgreSQL twins derived from them
// (decision 071: same export names, column keys and JS values). They await Drizzle builders,
// which are thenable on both dialects, instead of SQLite's synchronous `.all()/.get()/.run()`.
// The types are the SQLite dialect's: the twins hold the same values, so they describe both.
// SQL that must differ is written once per dialect behind one function that asks `isPostgres`.
import type { SQLQueryBindings } from 'bun:sqlite'
import { SQL } from 'bun'
import type { SQL as DrizzleSql } from 'drizzle-orm'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import type { Db } from './client'
import * as sqliteSchema from './schema'

export type { Db }
export type Tables = typeof sqliteSchema

/** Turns a `sql` template into SQLite's statement text and parameters. */
const sqliteDialect = new SQLiteSyncDialect()

// Handles (and their transactions) that talk to PostgreSQL.
const postgresHandles = new WeakSet<object>()

/** Connections each node keeps to PostgreSQL: requests wait for a free one beyond this. */
const POOL_SIZE = 10

// The PostgreSQL tables, once a handle on PostgreSQL has been opened (tablesOf answers only for those).
let pgTables: typeof import('./pg/schema').pgTables | undefined

/** A Drizzle handle on PostgreSQL (Bun's built-in SQL client, decision 071); migrate it first. */
export function openPostgres(url: string): Db {
  // Loaded on the first handle, not with this module: deriving the PostgreSQL tables and loading
  // Drizzle's PostgreSQL dialect cost a SQLite instance's start-up time and memory for nothing.
  const { drizzle } = require('drizzle-orm/bun-sql') as typeof import('drizzle-orm/bun-sql')
  pgTables ??= (require('./pg/schema') as typeof import('./pg/schema')).pgTables
  // int8 as BigInt rather than text, so that rows() can tell a count from a text column holding digits.
  // JIT off: compiling a plan costs 100–300 ms, more than any of the app's queries takes to run
  // (PostgreSQL turns it on for any plan its estimate calls costly, such as a report's; decision 091).
  const client = new SQL({ url, max: POOL_SIZE, bigint: true, connection: { jit: 'off' } })
  const db = drizzle({ client, schema: pgTables })
  postgresHandles.add(db)
  return db as unknown as Db
}

export const isPostgres = (db: Db): boolean => postgresHandles.has(db)

/** The engine's table objects, typed as the SQLite ones they are derived from. */
export function tablesOf(db: Db): Tables {
  return (isPostgres(db) ? pgTables : sqliteSchema) as unknown as Tables
}

/** Closes the handle's connections (SQLite's file or PostgreSQL's pool). */
export async function closeHandle(db: Db): Promise<void> {
  if (isPostgres(db)) await (db.$client as unknown as SQL).close()
  else db.$client.close()
}

// Handles that stand for an open transaction: a change made with one joins that transaction.
const openTransactions = new WeakSet<object>()
// SQLite: the handle each transaction handle was made from (prepared statements belong to it).
const sqliteBase = new WeakMap<object, Db>()
// SQLite: the end of the last transaction begun on each connection; the next one begins after it.
const sqliteTail = new WeakMap<object, Promise<unknown>>()

/** The handle a SQLite transaction handle was made from, or the handle itself. */
export const baseHandle = (db: Db): Db => sqliteBase.get(db) ?? db

/**
 * Runs `body` in one transaction on either engine; a throw rolls it back. Called with a handle
 * that is itself a transaction's, `body` joins that transaction (OpenSubsonic's updatePlaylist:
 * rename, remove and add as one change).
 *
 * SQLite has one connection, so concurrent requests' transactions take turns: each begins when
 * the one before it has ended (a request would otherwise meet "cannot start a transaction within
 * a transaction" whenever two arrive at once). `body` must await nothing but this database, so a
 * turn is short; another request's single statements that run meanwhile are part of the open
 * transaction, which is why a body must not throw after a write it does not mean to undo.
 */
export async function transaction<T>(db: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  if (openTransactions.has(db)) return body(db)
  if (isPostgres(db)) {
    const pg = db as unknown as { transaction: (run: (tx: object) => Promise<T>) => Promise<T> }
    return pg.transaction((tx) => {
      postgresHandles.add(tx)
      openTransactions.add(tx)
      return body(tx as Db)
    })
  }
  const client = db.$client
  const run = async (): Promise<T> => {
    const tx = Object.create(db) as Db
    openTransactions.add(tx)
    sqliteBase.set(tx, db)
    client.run('BEGIN IMMEDIATE')
    try {
      const value = await body(tx)
      client.run('COMMIT')
      return value
    } catch (error) {
      if (client.inTransaction) client.run('ROLLBACK')
      throw error
    } finally {
      openTransactions.delete(tx)
    }
  }
  const previous = sqliteTail.get(client)
  const turn = previous ? previous.then(run, run) : run()
  const tail = turn.catch(() => undefined)
  sqliteTail.set(client, tail)
  void tail.then(() => {
    if (sqliteTail.get(client) === tail) sqliteTail.delete(client)
  })
  return turn
}

/** Whether a write failed on a unique index (two sign-ups racing for one e-mail), on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const text = String(error)
  const cause = (error as { cause?: unknown })?.cause
  return text.includes('UNIQUE') || /duplicate key value/.test(text) || (cause !== undefined && isUniqueViolation(cause))
}

/**
 * PostgreSQL only: the pool of a handle made by openPostgres (not a transaction's), for the few
 * reads every request makes (docs/decisions/103). Its tagged template runs one statement the
 * connection prepared once and skips Drizzle's query building and row mapping, which cost several
 * times the round trip. Rows come as the driver gives them: int8 as BigInt, booleans, text.
 */
export function postgresPool(db: Db): SQL {
  if (openTransactions.has(db)) throw new Error("postgresPool: a transaction's handle has no pool of its own")
  return db.$client as unknown as SQL
}

/** PostgreSQL only: raw SQL's rows as the driver gives them (int8 as BigInt: prefer rows()). */
export async function postgresRows<T>(db: Db, query: DrizzleSql): Promise<T[]> {
  const pg = db as unknown as { execute: (q: DrizzleSql) => Promise<T[]> }
  return [...(await pg.execute(query))]
}

/** int8 (a count, a bigint column) as the number SQLite answers; every other value as it is. */
function withNumbers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) if (typeof row[key] === 'bigint') row[key] = Number(row[key])
  return row
}

/**
 * The rows of one SQL statement written for both engines (`sql\`…\`` with `${value}` parameters).
 * Write it so that both read it the same (docs/decisions/086): quoted camelCase aliases
 * (`AS "albumId"`: PostgreSQL folds unquoted names to lower case), `CAST(sum(x) AS bigint)` and
 * `CAST(avg(x) AS double precision)` (PostgreSQL's numeric arrives as text), booleans tested as
 * `WHERE p.is_public` and counted as `CASE WHEN … THEN 1 ELSE 0 END`, `coalesce` not `ifnull`,
 * every selected column named in GROUP BY.
 */
export async function rows<T>(db: Db, query: DrizzleSql): Promise<T[]> {
  if (isPostgres(db)) return (await postgresRows<Record<string, unknown>>(db, query)).map(withNumbers) as T[]
  // SQLite: bun's query() keeps each compiled statement by its text, so a report's statement (a few
  // ms to compile) is compiled once, not on every call.
  const { sql: text, params } = sqliteDialect.sqlToQuery(query)
  return db.$client.query(text).all(...(params as SQLQueryBindings[])) as T[]
}

/** The first row of rows(), or undefined. */
export async function firstRow<T>(db: Db, query: DrizzleSql): Promise<T | undefined> {
  return (await rows<T>(db, query))[0]
}

/** Runs one SQL statement written for both engines, for its effect. */
export async function execute(db: Db, query: DrizzleSql): Promise<void> {
  if (isPostgres(db)) await postgresRows(db, query)
  else db.run(query)
}
