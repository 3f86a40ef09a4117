// Tests that run on either engine (VIBES_TEST_ENGINE=postgres, tests/helpers/server.ts): reading a
// test server's database directly, and marking what does not run on PostgreSQL yet.
import { Database } from 'bun:sqlite'
import { describe } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { TEST_ENGINE, type TestServer } from './server'

/**
 * Runs SQL on the server's own database, SQLite or PostgreSQL, with `?` placeholders. Numbers
 * PostgreSQL answers as text (bigint, count) come back as numbers and its booleans as 1 or 0, as
 * SQLite stores them, so a test reads the same row on either engine.
 */
export async function sqlOn<T = Record<string, unknown>>(server: TestServer, query: string, params: (string | number | null)[] = []): Promise<T[]> {
  if (server.databaseUrl === null) {
    const db = new Database(path.join(server.dataDir, 'vibes.db'))
    try {
      return db.query(query).all(...params) as T[]
    } finally {
      db.close()
    }
  }
  const client = new Bun.SQL({ url: server.databaseUrl, max: 1 })
  try {
    let n = 0
    const rows = (await client.unsafe(
      query.replace(/\?/g, () => `$${++n}`),
      params,
    )) as Record<string, unknown>[]
    return rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, (typeof v === 'string' && /^-?\d+$/.test(v)) || typeof v === 'boolean' ? Number(v) : v])),
    ) as T[]
  } finally {
    await client.close()
  }
}

/**
 * Everything the server's database holds at rest, as text: on SQLite the bytes of vibes.db and its
 * WAL and shared-memory files, on PostgreSQL a plain pg_dump of its database (schema and rows).
 */
export async function databaseAtRest(server: TestServer): Promise<string> {
  if (server.databaseUrl === null) {
    const files = readdirSync(server.dataDir).filter((f) => f.startsWith('vibes.db'))
    if (!files.includes('vibes.db')) throw new Error(`no vibes.db in ${server.dataDir}`)
    return files.map((f) => readFileSync(path.join(server.dataDir, f)).toString('latin1')).join('\n')
  }
  // Loaded here only: it needs PostgreSQL's binaries, which a SQLite run may not have.
  const { PG_BIN } = await import('./postgres')
  const dump = Bun.spawn([`${PG_BIN}/pg_dump`, '--no-password', server.databaseUrl], { stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([dump.exited, new Response(dump.stdout).text(), new Response(dump.stderr).text()])
  if (code !== 0) throw new Error(`pg_dump exited ${code}: ${err}`)
  return out
}

/**
 * Tests of areas still on synchronous SQLite calls (OpenSubsonic, library scanning, analytics,
 * search: docs/decisions/083): they run on SQLite and wait on PostgreSQL until their area moves.
 */
export const describeUntilOnPostgres = describe.skipIf(TEST_ENGINE === 'postgres')
