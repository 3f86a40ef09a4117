// Fixed-window request counts shared by every node on PostgreSQL (docs/decisions/083): the login
// and request limits must hold whichever node a request reaches. SQLite keeps its limits in the
// one process's memory (server/http/rate-limit.ts) and leaves this table empty.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const rateLimits = sqliteTable(
  'rate_limits',
  {
    bucket: text().notNull(),
    key: text().notNull(),
    /** When the current window began (ms since the epoch). */
    windowStart: integer().notNull(),
    /** Requests counted in the window; one past the bucket's max marks a refused one. */
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
)
