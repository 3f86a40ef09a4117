// Housekeeping: rows that can never open anything again are deleted, so the tables a login or a
// reset reads stay small and a stolen database copy holds less. Expired sessions and used or
// expired reset tokens go at start-up and then once a day; the timer is unref'd so it never
// keeps a stopping server alive.
import type { Db } from '~/db/client'
import { deleteExpiredSessions } from '../auth/sessions'
import { logger } from '../logger'
import { deleteSpentResetTokens } from './auth'

const DAY_MS = 86_400_000

export function purgeExpired(db: Db) {
  return { sessions: deleteExpiredSessions(db), resetTokens: deleteSpentResetTokens(db) }
}

/** Purges now and every 24 hours after. */
export function startHousekeeping(db: Db) {
  const run = () => {
    try {
      const purged = purgeExpired(db)
      logger.info({ purged }, 'housekeeping done')
    } catch (error) {
      logger.error({ err: error }, 'housekeeping failed')
    }
  }
  run()
  setInterval(run, DAY_MS).unref()
}
