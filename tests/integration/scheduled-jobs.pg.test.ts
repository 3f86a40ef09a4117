// Scheduled jobs run once per slot across every node sharing one PostgreSQL database
// (src/server/jobs/once-per-schedule.ts, docs/decisions/089): two handles on one database stand
// for two nodes (each its own pool, as each node has). On SQLite one process serves the database
// and every claim runs. Always on PostgreSQL for the claims, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '../../src/db/client'
import { sql } from 'drizzle-orm'
import { closeHandle, type Db, openPostgres, rows } from '../../src/db/engine'
import { migratePostgres } from '../../src/db/pg/migrate'
import { claimSlot, oncePerSchedule, slotAt } from '../../src/server/jobs/once-per-schedule'
import { freshPostgresUrl } from '../helpers/server'

const ROOT = path.resolve(import.meta.dir, '../..')
let nodeA: Db
let nodeB: Db

beforeAll(async () => {
  const databaseUrl = await freshPostgresUrl()
  await migratePostgres(databaseUrl)
  nodeA = openPostgres(databaseUrl)
  nodeB = openPostgres(databaseUrl)
}, 60_000)
afterAll(async () => {
  await Promise.all([nodeA && closeHandle(nodeA), nodeB && closeHandle(nodeB)])
})

const jobRows = (name: string) => rows<{ slot: number }>(nodeA, sql`SELECT slot FROM job_runs WHERE name = ${name} ORDER BY slot`)

describe('claiming a slot on PostgreSQL', () => {
  test('of two nodes asking for the same slot at once, exactly one runs it, every time', async () => {
    for (let slot = 1; slot <= 20; slot++) {
      const answers = await Promise.all([claimSlot(nodeA, 'race', slot), claimSlot(nodeB, 'race', slot), claimSlot(nodeA, 'race', slot)])
      expect(answers.filter(Boolean)).toHaveLength(1)
    }
  })

  test('the node that runs a slot forgets the older ones; other jobs keep theirs', async () => {
    expect(await claimSlot(nodeA, 'tidy', 5)).toBe(true)
    expect(await claimSlot(nodeA, 'other', 5)).toBe(true)
    expect(await claimSlot(nodeB, 'tidy', 6)).toBe(true)
    expect(await jobRows('tidy')).toEqual([{ slot: 6 }])
    expect(await jobRows('other')).toEqual([{ slot: 5 }])
    // A slot already run is not run again, by either node.
    expect(await claimSlot(nodeA, 'tidy', 6)).toBe(false)
  })

  test('two nodes keeping the same schedule run each slot once between them', async () => {
    const ran: Array<{ node: string; slot: number }> = []
    const periodMs = 150
    const job = (node: string) => ({ name: 'tick', periodMs, run: () => void ran.push({ node, slot: slotAt(periodMs) }) })
    const first = slotAt(periodMs)
    const stops = [oncePerSchedule(nodeA, job('A')), oncePerSchedule(nodeB, job('B'))]
    await Bun.sleep(periodMs * 5)
    for (const stop of stops) stop()
    const slots = ran.map((r) => r.slot)
    expect(new Set(slots).size).toBe(slots.length)
    expect(slots.length).toBeGreaterThanOrEqual(2)
    expect(Math.min(...slots)).toBeGreaterThan(first)
  })
})

test('on SQLite every claim runs (one process serves the database) and job_runs stays empty', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vibes-jobs-'))
  const db = openDb(path.join(dir, 'vibes.db'), path.join(ROOT, 'src/db/migrations'))
  try {
    expect(await claimSlot(db, 'race', 1)).toBe(true)
    expect(await claimSlot(db, 'race', 1)).toBe(true)
    expect(db.$client.query('SELECT count(*) AS n FROM job_runs').get()).toEqual({ n: 0 })
  } finally {
    db.$client.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
