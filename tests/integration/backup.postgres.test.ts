// `vibes backup <file>` with DATABASE_URL=postgres://… against a throwaway PostgreSQL cluster: it
// runs pg_dump, writes an owner-only custom-format dump that pg_restore brings back row for row,
// never prints the password, refuses an existing file, and says in one line what went wrong when
// the database cannot be reached or there is no pg_dump.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { backupPostgres, BackupError, findPgDump } from '~/server/backup'
import { migratePostgres } from '~/db/pg/migrate'
import { PG_BIN, startPostgres, type TestPostgres } from '../helpers/postgres'

const root = path.resolve(import.meta.dir, '../..')
const entry = path.join(root, 'src/server/entry.ts')
let pg: TestPostgres
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-pg-backup-'))

beforeAll(async () => {
  pg = await startPostgres()
  await pg.createDatabase('vibes')
  await migratePostgres(pg.url('vibes'))
  const sql = new Bun.SQL({ url: pg.url('vibes'), max: 1 })
  try {
    await sql`INSERT INTO contact_messages (id, name, email, subject, message, created_at) VALUES ('m1', 'Ada', 'ada@example.com', 'Hi', 'Backed up, I hope.', 1)`
  } finally {
    await sql.close()
  }
}, 120_000)
afterAll(async () => {
  await pg?.stop()
  rmSync(dir, { recursive: true, force: true })
})

/** The command as an operator runs it; the trust-auth cluster ignores the password, which must still never be shown. */
function backup(file: string, databaseUrl = pg.url('vibes').replace('postgres@', 'postgres:s3cret-pw@')) {
  const r = Bun.spawnSync(['bun', entry, 'backup', file], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dir } })
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }
}

describe('backup on PostgreSQL', () => {
  test('pg_dump writes an owner-only dump that pg_restore restores row for row; the password is never printed', async () => {
    const file = path.join(dir, 'vibes.dump')
    const r = backup(file)
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    expect(r.stdout).toContain('with pg_dump')
    expect(r.stdout).toContain(`postgres@127.0.0.1:${pg.port}/vibes`)
    expect(r.stdout).not.toContain('s3cret-pw')
    expect(statSync(file).mode & 0o777).toBe(0o600)

    await pg.createDatabase('restored')
    const restore = Bun.spawnSync([`${PG_BIN}/pg_restore`, '--no-owner', `--dbname=${pg.url('restored')}`, file])
    expect(restore.stderr.toString()).toBe('')
    expect(restore.exitCode).toBe(0)
    const sql = new Bun.SQL({ url: pg.url('restored'), max: 1 })
    try {
      expect(await sql`SELECT id, name, message FROM contact_messages`).toEqual([{ id: 'm1', name: 'Ada', message: 'Backed up, I hope.' }])
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`
      expect(n).toBeGreaterThan(0)
    } finally {
      await sql.close()
    }
  })

  test('an existing file is refused and left as it was', () => {
    const file = path.join(dir, 'taken.dump')
    writeFileSync(file, 'keep me')
    const r = backup(file)
    expect(r.code).toBe(1)
    expect(r.stderr.trim()).toBe(`${file} already exists; a backup never overwrites a file (choose a new name)`)
    expect(Bun.file(file).size).toBe(7)
  })

  test('a database that cannot be reached: one line naming it, exit 1, no file left', () => {
    const file = path.join(dir, 'nowhere.dump')
    const r = backup(file, `postgres://postgres:s3cret-pw@127.0.0.1:${pg.port}/no_such_db`)
    expect(r.code).toBe(1)
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toStartWith(`Backup failed: pg_dump could not dump postgres@127.0.0.1:${pg.port}/no_such_db: `)
    expect(lines[0]).toContain('no_such_db')
    expect(r.stderr).not.toContain('s3cret-pw')
    expect(existsSync(file)).toBe(false)
  })

  test('pg_dump is found on PATH, else under the versions folder; without one the error says what to install', async () => {
    expect(findPgDump('', path.dirname(PG_BIN.replace(/\/bin$/, '')))).toBe(`${PG_BIN}/pg_dump`)
    expect(findPgDump(PG_BIN, '/nonexistent')).toBe(`${PG_BIN}/pg_dump`)
    expect(findPgDump('', '/nonexistent')).toBeNull()
    const file = path.join(dir, 'no-tool.dump')
    const error = await backupPostgres(pg.url('vibes'), file, null).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BackupError)
    expect((error as Error).message).toContain('pg_dump, which is not on PATH nor in /usr/lib/postgresql/*/bin (install postgresql-client)')
    expect(existsSync(file)).toBe(false)
  })
})
