// Where the listening analytics run, so they never block listeners. The server process is one
// JavaScript thread: a query that runs there makes every stream and API call wait. When the entry
// has registered the analytics worker (src/server/analytics-worker-host.ts, a Bun Worker with its own
// read-only connection: WAL lets it read beside the writer), the six analytics answers are computed
// there (the server entry and the single-file binary both register it and start its thread once
// start-up is done); otherwise (tests on an in-memory database) they run in place.
// On PostgreSQL there is no worker: the query runs in the database server's own process and the
// request loop only awaits its answer on the pool, so the reports always run in place there
// (docs/decisions/091).
// The entry hands over the worker's host (analytics-worker-slot.ts), so services carry no Worker code.
import { type Db, isPostgres } from '~/db/engine'
import * as analytics from './analytics'
import { analyticsWorker } from './analytics-worker-slot'

export type AnalyticsReport =
  | 'listeningOverview'
  | 'userListeningBehavior'
  | 'listeningPatterns'
  | 'geographicListening'
  | 'playlistAnalytics'
  | 'userEngagement'
type Args<K extends AnalyticsReport> = Parameters<(typeof analytics)[K]> extends [Db, ...infer A] ? A : never
type Answer<K extends AnalyticsReport> = Awaited<ReturnType<(typeof analytics)[K]>>

/** What the entry hands over when the worker runs. */
export type AnalyticsWorkerHost = { file: string; run: (name: AnalyticsReport, args: unknown[]) => Promise<unknown> }

export function runAnalytics<K extends AnalyticsReport>(db: Db, name: K, ...args: Args<K>): Promise<Answer<K>> {
  const host = isPostgres(db) ? undefined : analyticsWorker()
  if (host && host.file === db.$client.filename) return host.run(name, args) as Promise<Answer<K>>
  const report = analytics[name] as (db: Db, ...rest: unknown[]) => Promise<Answer<K>>
  return report(db, ...args)
}
