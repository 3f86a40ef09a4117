// Scheduled jobs that run once per period across every node sharing one PostgreSQL database
// (docs/decisions/089). Time is cut into slots of the job's period counted from the epoch (a daily
// job's slot starts at 00:00 UTC), so every node computes the same slot numbers. When a slot
// begins, each node tries to insert (name, slot) into `job_runs`; the one whose insert lands runs
// the job, the others find the row and skip. A node that is down misses nothing: whichever nodes
// are up claim the slot. On SQLite one process serves the database: it just runs.
import { and, eq, lt, sql } from 'drizzle-orm'
import { type Db, isPostgres, rows, tablesOf } from '~/db/engine'
import { logger } from '../logger'

/** The slot `time` falls in, for a job run every `periodMs`. */
export const slotAt = (periodMs: number, time = Date.now()) => Math.floor(time / periodMs)

/**
 * Whether this node runs `name`'s `slot`: on PostgreSQL only the first node to ask (one insert,
 * `ON CONFLICT DO NOTHING RETURNING`), which also forgets the job's older slots; on SQLite always.
 */
export async function claimSlot(db: Db, name: string, slot: number, now = Date.now()): Promise<boolean> {
  if (!isPostgres(db)) return true
  const claimed = await rows<{ slot: number }>(
    db,
    sql`INSERT INTO job_runs (name, slot, started_at) VALUES (${name}, ${slot}::bigint, ${now}::bigint)
        ON CONFLICT (name, slot) DO NOTHING RETURNING slot`,
  )
  if (claimed.length === 0) return false
  const { jobRuns } = tablesOf(db)
  await db.delete(jobRuns).where(and(eq(jobRuns.name, name), lt(jobRuns.slot, slot)))
  return true
}

/** setTimeout takes at most this many ms (about 24.8 days); a longer wait is taken in steps. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1

export type ScheduledJob = {
  /** Unique per job: the key of its slots in `job_runs`. */
  name: string
  periodMs: number
  run: () => Promise<unknown> | unknown
}

/**
 * Runs `job` at the start of each of its slots from the next one on, on one node of all that
 * share the database. The timers are unref'd so they never keep a stopping server alive; a run
 * that throws is logged and the next slot runs as planned. Returns a function that stops it.
 */
export function oncePerSchedule(db: Db, job: ScheduledJob): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const arm = (slot: number) => {
    // The slot is fixed when the timer is set, not read off the clock when it fires: a wait
    // longer than setTimeout allows, or a timer that fires early, waits again for the same slot.
    const wait = Math.min(slot * job.periodMs - Date.now(), LONGEST_TIMEOUT_MS)
    timer = setTimeout(() => (Date.now() < slot * job.periodMs ? arm(slot) : void runSlot(slot)), Math.max(0, wait))
    timer.unref()
  }
  const runSlot = async (slot: number) => {
    if (stopped) return
    arm(slot + 1)
    try {
      if (await claimSlot(db, job.name, slot)) await job.run()
    } catch (error) {
      logger.error({ err: error, job: job.name, slot }, 'scheduled job failed')
    }
  }
  arm(slotAt(job.periodMs) + 1)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
