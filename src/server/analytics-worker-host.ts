// Hands the analytics worker (src/server/analytics-worker.ts) to services/analytics-offload.ts
// (through services/analytics-worker-slot.ts). Called by the entry once the database is open and migrated. If the
// worker dies, the host unregisters itself and the reports run in place again.
// The worker is a second JavaScript runtime on its own thread (about 10 MB resident, decision 035).
// Its start (loading its modules, opening its connections: 100 ms or more of CPU on a busy
// machine) must not be what the first report waits for, nor land while listeners' requests run
// (decision 054): the entry calls `start` once start-up is done, after the first answer and the
// deferred modules. Until then (or without the entry, as in tests and benches) the first report
// starts it, and so does a WAL that shows writes arriving. From then on it also checkpoints the
// WAL, so the server's own connection stops doing it on the commit that crosses 1000 pages (a
// 5–10 ms stall of that listener's call, decision 036); if the worker dies, the connection
// checkpoints for itself again.
import { statSync } from 'node:fs'
import type { WorkerRequest } from './analytics-worker'
import { getDb } from './db'
import type { AnalyticsReport, AnalyticsWorkerHost } from './services/analytics-offload'
import { analyticsWorker, setAnalyticsWorker } from './services/analytics-worker-slot'

const CHECKPOINT_EVERY_MS = 1000
/** SQLite's default, restored when the worker is gone. */
const AUTO_CHECKPOINT_PAGES = 1000
/** A WAL this large means plays and hits are being written: time for the worker's checkpoints. */
const WAL_WAKE_BYTES = 1024 ** 2
const WAL_POLL_MS = 5000

/** Hands the host over; `start` starts the worker's thread now if it is not running yet. */
export function registerAnalyticsWorker(file: string): { start: () => void } {
  let worker: Worker | undefined
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let next = 0
  function start(): Worker {
    clearInterval(walPoll)
    const started = new Worker(new URL('./analytics-worker.ts', import.meta.url))
    // Bun's Worker: unref() lets SIGTERM's shutdown exit without waiting for it.
    ;(started as unknown as { unref(): void }).unref()
    started.onmessage = onMessage
    started.onerror = onError
    started.postMessage({ checkpoint: { file, everyMs: CHECKPOINT_EVERY_MS } } satisfies WorkerRequest)
    getDb().$client.exec('PRAGMA wal_autocheckpoint = 0')
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
    if (analyticsWorker() === host) setAnalyticsWorker(undefined)
    getDb().$client.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
  }
  // A stat every few seconds (microseconds) instead of a hook in every writer.
  const walPoll = setInterval(() => {
    try {
      if (statSync(`${file}-wal`).size >= WAL_WAKE_BYTES) worker ??= start()
    } catch {
      // No WAL yet: nothing written.
    }
  }, WAL_POLL_MS)
  walPoll.unref()
  const host: AnalyticsWorkerHost = {
    file,
    run: (name: AnalyticsReport, args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve, reject })
        worker ??= start()
        worker.postMessage({ id, file, name, args } satisfies WorkerRequest)
      }),
  }
  setAnalyticsWorker(host)
  return {
    start: () => {
      if (analyticsWorker() === host) worker ??= start()
    },
  }
}
