// SQLite only (on PostgreSQL the reports run on the pool: docs/decisions/091).
// The analytics worker (see services/analytics-offload.ts): a Bun Worker that answers the six
// listening-analytics reports from its own read-only connection to the database file, so their
// queries never hold up the server's request loop. It also keeps the WAL checkpointed, on a second
// connection of its own, so that no listener's commit pays for a checkpoint (docs/decisions/036).
import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { changeCounter, UNKNOWN } from '~/db/change-counter'
import type { Db } from '~/db/client'
import * as analytics from './services/analytics'
import type { AnalyticsReport } from './services/analytics-offload'

declare const self: Worker

export type WorkerRequest = { id: number; file: string; name: AnalyticsReport; args: unknown[] } | { checkpoint: { file: string; everyMs: number } }

/** How long an answer is reused when nothing was written meanwhile (reports roll with the clock). */
export const ANSWER_TTL_MS = 10_000

let db: Db | undefined
// One answer per (report, arguments), valid while the database's change counter (moved by every
// commit: a play, its progress, a deleted member…; db/change-counter.ts) is the one they were read
// at; a new count drops them all.
const answers = new Map<string, { at: number; value: unknown }>()
let answersChange = UNKNOWN

function reader(file: string): Db {
  db ??= drizzle({ client: new Database(file, { readonly: true, strict: true }) }) as unknown as Db
  return db
}

async function answer(file: string, name: AnalyticsReport, args: unknown[]): Promise<unknown> {
  const connection = reader(file)
  const key = `${name}:${JSON.stringify(args)}`
  const change = changeCounter(connection)()
  if (change !== answersChange || change === UNKNOWN) {
    answers.clear()
    answersChange = change
  }
  const now = Date.now()
  const kept = answers.get(key)
  if (kept && now - kept.at < ANSWER_TTL_MS) return kept.value
  const report = analytics[name] as (db: Db, ...rest: unknown[]) => Promise<unknown>
  const value = await report(connection, ...args)
  answers.set(key, { at: now, value })
  return value
}

/**
 * PASSIVE: copies what the WAL holds back into the database file without waiting for (or making
 * wait) the server's writer or any reader; the writer starts the WAL over once it is all copied.
 */
function startCheckpoints(file: string, everyMs: number) {
  const writer = new Database(file, { strict: true })
  setInterval(() => {
    try {
      writer.exec('PRAGMA wal_checkpoint(PASSIVE)')
    } catch {
      // Busy or locked this time: the next tick copies it.
    }
  }, everyMs)
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data
  if ('checkpoint' in request) {
    startCheckpoints(request.checkpoint.file, request.checkpoint.everyMs)
    // Opened with the thread, so the first report does not wait for it.
    reader(request.checkpoint.file)
    return
  }
  const { id, file, name, args } = request
  try {
    self.postMessage({ id, value: await answer(file, name, args) })
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
}
