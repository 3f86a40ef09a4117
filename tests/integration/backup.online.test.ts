// `bun run backup -- <file>` as an operator runs it: against the live database of a real server
// that keeps taking writes, then restored the way the README says and used. On SQLite (DATA_DIR)
// the copy is a database file, restored by replacing vibes.db and dropping the -wal/-shm files; on
// PostgreSQL (DATABASE_URL, as the server has it) it is pg_dump's custom format, restored with the
// documented pg_restore command into a new database that a server is then started on.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, type TestServer } from '../helpers/server'

const root = path.resolve(import.meta.dir, '../..')
const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vibes-backup-'))
  temps.push(dir)
  return dir
}

/** The command as documented, run as a separate process beside the server, with the server's database settings. */
async function backup(dataDir: string, file: string, databaseUrl: string | null = null) {
  const { DATABASE_URL: _inherited, ...env } = process.env
  const proc = Bun.spawn(['bun', 'run', 'backup', '--', file], {
    cwd: root,
    env: { ...env, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  // `bun run` itself echoes the script line and its exit code on stderr; the rest is ours.
  const ours = stderr.split('\n').filter((l) => !l.startsWith('$ ') && !/^error: script "backup" exited/.test(l))
  return { code, stdout, stderr: ours.join('\n') }
}

const count = async (server: TestServer, table: string) => (await sqlOn<{ n: number }>(server, `SELECT count(*) AS n FROM ${table}`))[0].n
/** The data tables, by name, on either engine. */
const tablesQuery = (databaseUrl: string | null) =>
  databaseUrl === null
    ? "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    : "SELECT tablename AS name FROM pg_tables WHERE schemaname IN ('public', 'drizzle') ORDER BY tablename"

/**
 * Restores the backup `file` of `server`'s database as the README says, and starts a server on it.
 * SQLite: a copy of DATA_DIR (its auth-secret) with vibes.db replaced and the -wal/-shm files
 * removed. PostgreSQL: pg_restore into a new database, the nodes' shared AUTH_SECRET kept.
 */
async function restore(server: TestServer, file: string): Promise<TestServer> {
  const media = tempDir()
  if (server.databaseUrl === null) {
    const restored = tempDir()
    cpSync(server.dataDir, restored, { recursive: true })
    for (const suffix of ['-wal', '-shm']) rmSync(path.join(restored, `vibes.db${suffix}`), { force: true })
    cpSync(file, path.join(restored, 'vibes.db'))
    return startServer({}, { dataDir: restored, mediaRoot: media })
  }
  const { PG_BIN } = await import('../helpers/postgres')
  const url = await freshPostgresUrl()
  const r = Bun.spawnSync([`${PG_BIN}/pg_restore`, '--clean', '--if-exists', '--no-owner', `--dbname=${url}`, file], { stderr: 'pipe' })
  expect(r.stderr.toString()).toBe('')
  expect(r.exitCode).toBe(0)
  return startServer({ DATABASE_URL: url, AUTH_SECRET: TEST_AUTH_SECRET }, { dataDir: tempDir(), mediaRoot: media })
}

describe('backup', () => {
  test('a consistent copy while the server takes writes; restored, it serves the same accounts', async () => {
    const server = await startServer()
    const member = await createMember(server.url)

    // Contact messages written one after another for as long as the backup runs.
    let writing = true
    const statuses: number[] = []
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const r = await api(server.url, 'POST', '/contact', {
          body: { fullName: 'Load Writer', email: 'load@example.com', message: `Message number ${i} from the writer.` },
        })
        statuses.push(r.status)
      }
    })()
    while (statuses.length < 20) await Bun.sleep(10)

    const target = path.join(tempDir(), server.databaseUrl === null ? 'vibes-backup.db' : 'vibes-backup.dump')
    const before = await count(server, 'contact_messages')
    const result = await backup(server.dataDir, target, server.databaseUrl)
    const after = await count(server, 'contact_messages')
    writing = false
    await writer

    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    // One line naming the file and its size (and, on PostgreSQL, that pg_dump made it).
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(target)
    expect(lines[0]).toContain(`${statSync(target).size} bytes`)
    if (server.databaseUrl !== null) expect(lines[0]).toContain('with pg_dump')
    expect(statSync(target).mode & 0o777).toBe(0o600)
    // The server never stumbled while the copy was made.
    expect(statuses.every((s) => s === 201)).toBe(true)
    const liveTables = await sqlOn<{ name: string }>(server, tablesQuery(server.databaseUrl))

    if (server.databaseUrl === null) {
      const copy = new Database(target, { readonly: true })
      expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
      copy.close()
    }

    // A second run never overwrites the first copy.
    const bytes = readFileSync(target, 'latin1')
    const again = await backup(server.dataDir, target, server.databaseUrl)
    expect(again.code).toBe(1)
    expect(again.stderr.trim()).toBe(`${target} already exists; a backup never overwrites a file (choose a new name)`)
    expect(readFileSync(target, 'latin1') === bytes).toBe(true)

    // Restored (the helper deletes the first server's DATA_DIR when it stops), the copy holds one
    // moment of the live database, every table, and the members sign in with their sessions kept.
    const second = await restore(server, target)
    await server.stop()
    try {
      expect(await sqlOn<{ name: string }>(second, tablesQuery(second.databaseUrl))).toEqual(liveTables)
      const copied = await count(second, 'contact_messages')
      expect(copied).toBeGreaterThanOrEqual(before)
      expect(copied).toBeLessThanOrEqual(after)
      expect(await sqlOn(second, 'SELECT username FROM users WHERE email = ?', [member.email])).toEqual([{ username: member.username }])
      const login = await api(second.url, 'POST', '/auth/login', { body: { email: member.email, password: member.password } })
      expect(login.status).toBe(200)
      expect((await api(second.url, 'GET', '/auth/session', { token: member.token })).status).toBe(200)
    } finally {
      await second.stop()
    }
  }, 120_000)

  test('no database at DATA_DIR, or a folder that does not exist, is one line and exit 1', async () => {
    // Without DATABASE_URL the database is DATA_DIR's SQLite file, on either test engine (an
    // unreachable PostgreSQL is backup.postgres.test.ts's).
    const empty = tempDir()
    const noDb = await backup(empty, path.join(empty, 'x.db'))
    expect(noDb.code).toBe(1)
    expect(noDb.stderr.trim()).toBe(`No database at ${path.join(empty, 'vibes.db')} (set DATA_DIR to the server's data folder)`)
    // A mistyped DATA_DIR is reported, not created (the server's start-up effects do not run).
    const typo = path.join(empty, 'no-such-data')
    const mistyped = await backup(typo, path.join(empty, 'y.db'))
    expect(mistyped.code).toBe(1)
    expect(existsSync(typo)).toBe(false)

    const server = await startServer()
    try {
      const nowhere = path.join(empty, 'missing-folder', 'x.db')
      const r = await backup(server.dataDir, nowhere, server.databaseUrl)
      expect(r.code).toBe(1)
      expect(r.stderr.trim()).toBe(`Cannot write ${nowhere}: the folder ${path.dirname(nowhere)} does not exist`)
    } finally {
      await server.stop()
    }
  })
})
