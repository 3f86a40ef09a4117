// Starts the analytics worker (src/server/analytics-worker.ts) and registers it on globalThis for
// services/analytics-offload.ts. Called by the entry once the database is open and migrated. If the
// worker dies, the host unregisters itself and the reports run in place again.
import type { AnalyticsReport, AnalyticsWorkerHost } from './services/analytics-offload'

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
  }
  const host: AnalyticsWorkerHost = {
    file,
    run: (name: AnalyticsReport, args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        worker.postMessage({ id, file, name, args })
      }),
  }
  shared.__vibesAnalyticsWorker = host
}
