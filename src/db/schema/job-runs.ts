// Which node ran a scheduled job's slot (server/jobs/once-per-schedule.ts): on PostgreSQL every
// node keeps the same schedule, and the one whose insert of (name, slot) lands runs it; the
// others find the row and skip. SQLite has one process and leaves this table empty.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const jobRuns = sqliteTable(
  'job_runs',
  {
    name: text().notNull(),
    /** The slot's number: its start in ms since the epoch divided by the job's period. */
    slot: integer().notNull(),
    /** When the claiming node began the run (ms since the epoch). */
    startedAt: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.slot] })],
)
