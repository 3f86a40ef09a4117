// Server faults are kept for the admin's recent-errors panel (GET /admin/errors).
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import { logger } from '../logger'

export function recordServerError(db: Db, entry: { method: string; path: string; status: number; error: unknown; requestId?: string }) {
  const message = entry.error instanceof Error ? entry.error.message : String(entry.error)
  logger.error({ err: entry.error, method: entry.method, path: entry.path, requestId: entry.requestId }, 'server error')
  const { serverErrors } = tablesOf(db)
  // Not awaited: the 500 answer does not wait for its record (on SQLite the insert runs at once).
  db.insert(serverErrors)
    .values({ method: entry.method, path: entry.path.slice(0, 500), status: entry.status, message: message.slice(0, 1000), requestId: entry.requestId })
    .then(undefined, (dbError: unknown) => logger.error({ err: dbError }, 'could not record server error'))
}
