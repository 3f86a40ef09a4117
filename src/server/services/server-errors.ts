// Server faults are kept for the admin's recent-errors panel (GET /admin/errors).
import type { Db } from '~/db/client'
import { serverErrors } from '~/db/schema'
import { logger } from '../logger'

export function recordServerError(db: Db, entry: { method: string; path: string; status: number; error: unknown; requestId?: string }) {
  const message = entry.error instanceof Error ? entry.error.message : String(entry.error)
  logger.error({ err: entry.error, method: entry.method, path: entry.path, requestId: entry.requestId }, 'server error')
  try {
    db.insert(serverErrors)
      .values({ method: entry.method, path: entry.path.slice(0, 500), status: entry.status, message: message.slice(0, 1000), requestId: entry.requestId })
      .run()
  } catch (dbError) {
    logger.error({ err: dbError }, 'could not record server error')
  }
}
