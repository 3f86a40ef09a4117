// Drizzle builds a query's SQL on every call; on the hot request paths (the session check of
// every signed-in request, a member's folder list) that cost more than running it (decision 028).
// preparedFor(build) hands out one prepared statement per database, built on first use; a
// WeakMap because tests open many databases.
import type { Db } from './client'
import { baseHandle } from './engine'

export function preparedFor<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>()
  return (handle) => {
    // A transaction's handle uses the statements of the handle it was made from.
    const db = baseHandle(handle)
    let prepared = byDb.get(db)
    if (prepared === undefined) byDb.set(db, (prepared = build(db)))
    return prepared
  }
}
