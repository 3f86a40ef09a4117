// Starts the analytics worker (src/server/analytics-worker.ts) and registers it on globalThis for
// services/analytics-offload.ts. Called by the entry once the database is open and migrated. If the
// worker dies, the host unregisters itself and the reports run in place again.
// The worker also checkpoints the WAL, so the server's own connection stops doing it on the commit
// that crosses 1000 pages (a 5–10 ms stall of that listener's call, docs/decisions/036); if the
// worker dies, the connection checkpoints for itself again.
import type { WorkerRequest } from './analytics-worker'
import { getDb } from './db'
import type { AnalyticsReport, AnalyticsWorkerHost } from './services/analytics-offload'

const CHECKPOINT_EVERY_MS = 1000
/** SQLite's default, restored when the worker is gone. */
const AUTO_CHECKPOINT_PAGES = 1000

export function startAnalyticsWorker(file: string) {
  const shared = globalThis as typeof globalThis & { __vibesAnalyticsWorker?: AnalyticsWorkerHost }
  const worker = new Worker(new URL('./analytics-worker.ts', import.meta.url))
  // Bun's Worker: unref() lets SIGTERM's shutdown exit without waiting for it.
  ;(worker as unknown as { unref(): void }).unref()
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let next = 0
  worker.onmessage = (event: MessageEvent<{ id: number; value?: unknown; error?: string }>) => {
    const call = pending.get(event.data.id)
    if (!call) return
    pending.delete(event.data.id)
    if (event.data.error !== undefined) call.reject(new Error(event.data.error))
    else call.resolve(event.data.value)
  }
  worker.onerror = (event) => {
    for (const call of pending.values()) call.reject(new Error(`analytics worker failed: ${event.message}`))
    pending.clear()
    if (shared.__vibesAnalyticsWorker === host) shared.__vibesAnalyticsWorker = undefined
    getDb().$client.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
  }
  const host: AnalyticsWorkerHost = {
    file,
    run: (name: AnalyticsReport, args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        worker.postMessage({ id, file, name, args } satisfies WorkerRequest)
      }),
  }
  shared.__vibesAnalyticsWorker = host
  worker.postMessage({ checkpoint: { file, everyMs: CHECKPOINT_EVERY_MS } } satisfies WorkerRequest)
  getDb().$client.exec('PRAGMA wal_autocheckpoint = 0')
}
