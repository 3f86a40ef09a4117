// What makes the page caches (page-cache.ts, member-page-cache.ts) stale: an API write made
// through this node or, on PostgreSQL, through any node sharing the database (docs/decisions/089).
//
// Each cached page keeps the version it was rendered in and is served only while the version
// stands. The version is this node's count of answered writes and, on PostgreSQL, the
// `page_version` sequence every node advances once a write has been answered. A sequence rather
// than a row: `nextval` takes no row lock and leaves no dead row, so writes on many nodes never
// queue behind each other for it, and `last_value` is seen by every session at once. Read per
// cached answer (one round trip): a page cached on one node shows a write made through another
// at the next request, as sessions and folders do (decision 083).
//
// The version moves once the write has been answered, before the answer leaves: a render anywhere
// that began before the write committed kept the old version and is stale from then on; one that
// began after it read data as new as its version, or newer: such an entry may be rendered again
// once too often, never served stale. The caller reads the version before it renders.
import { sql } from 'drizzle-orm'
import { type Db, isPostgres, postgresPool, rows } from '~/db/engine'
import { logger } from '../logger'

let local = 0

/** The version a page rendered now belongs to: a value on SQLite, a promise on PostgreSQL. */
export function pageVersion(db: Db): string | Promise<string> {
  if (!isPostgres(db)) return String(local)
  // Read before the caller renders or compares, so the local part is taken first too.
  const here = local
  // A sequence never advanced holds last_value 1 with is_called false, as after its first nextval: tell them apart.
  // Through the pool's prepared statement: every cached page reads it (docs/decisions/103).
  return postgresPool(db)<{ v: bigint }[]>`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM page_version`.then(([row]) => `${here}:${row.v}`)
}

/**
 * After a write has been answered (and so committed): this node's cached pages are stale from
 * now; on PostgreSQL every node's, once the promise settles. Nothing to wait for on SQLite.
 */
export function pagesChanged(db: Db): Promise<void> | undefined {
  local++
  if (!isPostgres(db)) return undefined
  // A write that succeeded is not answered as failed: the other nodes catch up within the caches' TTL.
  return rows(db, sql`SELECT nextval('page_version')`).then(
    () => undefined,
    (error: unknown) => logger.warn({ err: error }, 'could not mark the cached pages of the other nodes stale'),
  )
}
