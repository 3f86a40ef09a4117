// The analytics worker (see services/analytics-offload.ts): a Bun Worker that answers the six
// listening-analytics reports from its own read-only connection to the database file, so their
// queries never hold up the server's request loop.
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { Db } from '~/db/client'
import * as analytics from './services/analytics'
import type { AnalyticsReport } from './services/analytics-offload'

declare const self: Worker
let db: Db | undefined

self.onmessage = (event: MessageEvent<{ id: number; file: string; name: AnalyticsReport; args: unknown[] }>) => {
  const { id, file, name, args } = event.data
  try {
    db ??= drizzle({ client: new Database(file, { readonly: true, strict: true }) }) as unknown as Db
    const report = analytics[name] as (db: Db, ...rest: unknown[]) => unknown
    self.postMessage({ id, value: report(db, ...args) })
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
}
