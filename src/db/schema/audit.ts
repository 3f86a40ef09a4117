// The admin audit log: who did what in the console (role changes, user deletes, folder changes,
// scans, inbox and statistics actions). The actor's and target's names are copied into the row,
// so an entry still reads right after either account is deleted.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    at: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    actorId: text(),
    actorName: text().notNull(),
    action: text().notNull(),
    target: text().notNull().default(''),
    detail: text().notNull().default(''),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
)
