// Housekeeping: rows that can never open anything again are deleted, so the tables a login or a
// reset reads stay small and a stolen database copy holds less. Expired sessions and used or
// expired reset tokens go when a node starts (a purge is idempotent: nodes starting together
// each run it) and then once a day, on one node of all that share the database
// (jobs/once-per-schedule.ts).
import type { Db } from '~/db/client'
import { deleteExpiredSessions } from '../auth/sessions'
import { oncePerSchedule } from '../jobs/once-per-schedule'
import { logger } from '../logger'
import { deleteSpentResetTokens } from './auth'

const DAY_MS = 86_400_000

export async function purgeExpired(db: Db) {
  return { sessions: await deleteExpiredSessions(db), resetTokens: await deleteSpentResetTokens(db) }
}

async function purgeAndLog(db: Db) {
  try {
    logger.info({ purged: await purgeExpired(db) }, 'housekeeping done')
  } catch (error) {
    logger.error({ err: error }, 'housekeeping failed')
  }
}

/** Purges now and every day after; answers once the first purge is done, with a function that stops the daily runs. */
export async function startHousekeeping(db: Db): Promise<() => void> {
  await purgeAndLog(db)
  return oncePerSchedule(db, { name: 'housekeeping', periodMs: DAY_MS, run: () => purgeAndLog(db) })
}
