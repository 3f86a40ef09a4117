// The analytics worker's host while it runs: set by the entry's analytics-worker-host.ts, read by
// analytics-offload.ts. A module of its own so that the host, registered at start-up, does not
// load the reports' code (analytics.ts and the validators) before the server listens.
import type { AnalyticsWorkerHost } from './analytics-offload'

let current: AnalyticsWorkerHost | undefined

/** The worker's host now in use, or undefined: the reports run in place. */
export const analyticsWorker = () => current

export function setAnalyticsWorker(host: AnalyticsWorkerHost | undefined) {
  current = host
}
