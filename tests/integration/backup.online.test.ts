// `bun run backup -- <file>` as an operator runs it: against the live DATA_DIR of a real server
// that keeps taking writes, then restored the way the README says (replace vibes.db, drop the
// -wal/-shm files, start) and used.
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { startServer } from '../helpers/server'

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

/** The command as documented, run as a separate process beside the server. */
async function backup(dataDir: string, file: string) {
  const proc = Bun.spawn(['bun', 'run', 'backup', '--', file], { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  // `bun run` itself echoes the script line and its exit code on stderr; the rest is ours.
  const ours = stderr.split('\n').filter((l) => !l.startsWith('$ ') && !/^error: script "backup" exited/.test(l))
  return { code, stdout, stderr: ours.join('\n') }
}

const count = (db: Database, table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
const tables = (db: Database) => (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name)

describe('backup', () => {
  test('a consistent copy while the server takes writes; restored, it serves the same accounts', async () => {
    const server = await startServer()
    const member = await createMember(server.url)
    const live = new Database(path.join(server.dataDir, 'vibes.db'), { readonly: true })

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

    const target = path.join(tempDir(), 'vibes-backup.db')
    const before = count(live, 'contact_messages')
    const result = await backup(server.dataDir, target)
    const after = count(live, 'contact_messages')
    writing = false
    await writer

    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    // One line naming the file and its size.
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(target)
    expect(lines[0]).toContain(`${statSync(target).size} bytes`)
    expect(statSync(target).mode & 0o777).toBe(0o600)
    // The server never stumbled while the copy was made.
    expect(statuses.every((s) => s === 201)).toBe(true)

    const copy = new Database(target, { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(tables(copy)).toEqual(tables(live))
    const copied = count(copy, 'contact_messages')
    expect(copied).toBeGreaterThanOrEqual(before)
    expect(copied).toBeLessThanOrEqual(after)
    expect(copy.query('SELECT username FROM users WHERE email = ?').get(member.email)).toEqual({ username: member.username })
    copy.close()
    live.close()

    // A second run never overwrites the first copy.
    const bytes = readFileSync(target, 'latin1')
    const again = await backup(server.dataDir, target)
    expect(again.code).toBe(1)
    expect(again.stderr.trim()).toBe(`${target} already exists; a backup never overwrites a file (choose a new name)`)
    expect(readFileSync(target, 'latin1') === bytes).toBe(true)

    // Restore as the README says: a copy of DATA_DIR (its auth-secret) with vibes.db replaced by
    // the backup and the -wal/-shm files removed. (The helper deletes DATA_DIR when it stops.)
    const restored = tempDir()
    cpSync(server.dataDir, restored, { recursive: true })
    await server.stop()
    for (const suffix of ['-wal', '-shm']) rmSync(path.join(restored, `vibes.db${suffix}`), { force: true })
    cpSync(target, path.join(restored, 'vibes.db'))
    const media = tempDir()
    const second = await startServer({}, { dataDir: restored, mediaRoot: media })
    try {
      const login = await api(second.url, 'POST', '/auth/login', { body: { email: member.email, password: member.password } })
      expect(login.status).toBe(200)
      expect((await api(second.url, 'GET', '/auth/session', { token: member.token })).status).toBe(200)
    } finally {
      await second.stop()
    }
  }, 60_000)

  test('no database at DATA_DIR, or a folder that does not exist, is one line and exit 1', async () => {
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
      const r = await backup(server.dataDir, nowhere)
      expect(r.code).toBe(1)
      expect(r.stderr.trim()).toBe(`Cannot write ${nowhere}: the folder ${path.dirname(nowhere)} does not exist`)
    } finally {
      await server.stop()
    }
  })
})
