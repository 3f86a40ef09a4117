// Health figures: process, machine and database. Anyone may learn that
// the server and its database are up (`liveness`); the host's telemetry (`health`) tells an
// attacker how loaded and how big the machine is, so only admins see it.
import os from 'node:os'
import type { Db } from '~/db/client'
import { isPostgres, postgresPool } from '~/db/engine'
import { preparedFor } from '~/db/prepared'

const startedAt = Date.now()
// Prepared once per database: a probe per health check, not a statement lookup per probe.
const probe = preparedFor((db) => db.$client.prepare('select 1'))

function probeDb(db: Db) {
  let connected = true
  const t0 = performance.now()
  try {
    probe(db).values()
  } catch {
    connected = false
  }
  return { connected, latencyMs: Math.round((performance.now() - t0) * 100) / 100 }
}

/**
 * PostgreSQL: one `select 1` round trip over the pool (a server that went away fails it), sent
 * straight through the pool (docs/decisions/103). Checks that arrive while one is on its way share
 * its answer: it began less than a round trip before they came.
 */
const probesUnderway = new WeakMap<Db, Promise<{ connected: boolean; latencyMs: number }>>()

function probePostgres(db: Db) {
  let underway = probesUnderway.get(db)
  if (!underway) {
    const t0 = performance.now()
    underway = postgresPool(db)`select 1`
      .then(
        () => true,
        () => false,
      )
      .then((connected) => {
        probesUnderway.delete(db)
        return { connected, latencyMs: Math.round((performance.now() - t0) * 100) / 100 }
      })
    probesUnderway.set(db, underway)
  }
  return underway
}

/** Whether the connection is usable: a closed bun:sqlite handle throws on any use. Monitors call
 *  liveness all the time, so it asks the handle instead of running a statement (decision 042). */
function connectionOpen(db: Db): boolean {
  try {
    return typeof db.$client.inTransaction === 'boolean'
  } catch {
    return false
  }
}

// The time as ISO text, made once per millisecond however many checks share it.
let now = { ms: 0, iso: '' }
function isoNow(): string {
  const ms = Date.now()
  if (ms !== now.ms) now = { ms, iso: new Date(ms).toISOString() }
  return now.iso
}

/** What anonymous callers and members get: up or not, and the server's time. */
export function liveness(db: Db) {
  if (isPostgres(db)) return probePostgres(db).then(({ connected }) => livenessOf(connected))
  return livenessOf(connectionOpen(db))
}

const livenessOf = (connected: boolean) => ({ status: connected ? 'ok' : 'degraded', db: { connected }, timestamp: isoNow() })

/** The full Health entity, for admins. */
export function health(db: Db) {
  return isPostgres(db) ? probePostgres(db).then(healthOf) : healthOf(probeDb(db))
}

function healthOf({ connected, latencyMs }: { connected: boolean; latencyMs: number }) {
  const total = os.totalmem()
  const used = total - os.freemem()
  const [one, five, fifteen] = os.loadavg()
  return {
    status: connected ? 'ok' : 'degraded',
    uptimeSec: Math.round((Date.now() - startedAt) / 1000),
    memoryMB: Math.round((process.memoryUsage().rss / 1048576) * 10) / 10,
    systemMemory: { used: Math.round(used / 1048576), total: Math.round(total / 1048576), usagePercent: Math.round((used / total) * 1000) / 10 },
    cpu: { loadAvg: { '1min': one, '5min': five, '15min': fifteen }, cores: os.cpus().length },
    db: { connected, latencyMs },
    timestamp: new Date().toISOString(),
  }
}
