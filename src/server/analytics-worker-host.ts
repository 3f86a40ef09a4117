// Registers the analytics worker (src/server/analytics-worker.ts) on globalThis for
// services/analytics-offload.ts. Called by the entry once the database is open and migrated. The
// worker is a second JavaScript runtime on its own thread (about 10 MB resident, decision 035), so
// its thread starts with the first report asked for, not at start-up. If the worker dies, the host
// unregisters itself and the reports run in place again.
import type { AnalyticsReport, AnalyticsWorkerHost } from './services/analytics-offload'

export function registerAnalyticsWorker(file: string) {
  const shared = globalThis as typeof globalThis & { __vibesAnalyticsWorker?: AnalyticsWorkerHost }
  let worker: Worker | undefined
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let next = 0
  function start(): Worker {
    const started = new Worker(new URL('./analytics-worker.ts', import.meta.url))
    // Bun's Worker: unref() lets SIGTERM's shutdown exit without waiting for it.
    ;(started as unknown as { unref(): void }).unref()
    started.onmessage = onMessage
    started.onerror = onError
    return started
  }
  const onMessage = (event: MessageEvent<{ id: number; value?: unknown; error?: string }>) => {
    const call = pending.get(event.data.id)
    if (!call) return
    pending.delete(event.data.id)
    if (event.data.error !== undefined) call.reject(new Error(event.data.error))
    else call.resolve(event.data.value)
  }
  const onError = (event: ErrorEvent) => {
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
        worker ??= start()
        worker.postMessage({ id, file, name, args })
      }),
  }
  shared.__vibesAnalyticsWorker = host
}
