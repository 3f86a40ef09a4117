// Secrets and files on disk: a bad secret stops start-up without being echoed,
// and what DATA_DIR holds (database, generated secret, outbox mails) is readable by the owner only.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { startServer } from '../helpers/server'

const root = path.resolve(import.meta.dir, '../..')
const scratch = mkdtempSync(path.join(tmpdir(), 'vibes-secrets-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const modeOf = (file: string) => statSync(file).mode & 0o777

/** Runs the server entry with `env` and returns its exit code and everything it printed. */
async function startExpectingFailure(env: Record<string, string>) {
  const proc = Bun.spawn(['bun', 'src/server/entry.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(scratch, 'never'), MEDIA_ROOT: scratch, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, output: stdout + stderr }
}

describe('configuration errors', () => {
  test.each([
    ['AUTH_SECRET', 'too-short-secret-4f9a7c'],
    ['ADMIN_PASSWORD', 'pw4f9'],
    ['SMTP_URL', 'ftp://mailer:hunter2-4f9a@mail.example.com'],
  ])('a bad %s stops start-up with one line naming it, never its value', async (name, value) => {
    const { code, output } = await startExpectingFailure({ [name]: value, ...(name === 'ADMIN_PASSWORD' ? { ADMIN_EMAIL: 'root@example.com' } : {}) })
    expect(code).not.toBe(0)
    expect(output).toContain(`Invalid configuration: ${name}`)
    expect(output).toContain('(value hidden)')
    expect(output).not.toContain(value)
    expect(output).not.toContain('hunter2')
    expect(output.trim().split('\n')).toHaveLength(1)
  })
})

describe('files in DATA_DIR', () => {
  test('DATA_DIR is 0700; the database with its WAL files, the generated secret and outbox mails are 0600', async () => {
    // A DATA_DIR that does not exist yet: the server makes it, and makes it private.
    const dataDir = path.join(scratch, 'fresh', 'data')
    const server = await startServer({ DATA_DIR: dataDir })
    try {
      const m = await createMember(server.url)
      expect((await api(server.url, 'POST', '/auth/forgot-password', { body: { email: m.email } })).status).toBe(200)
      const outbox = path.join(dataDir, 'outbox')
      const deadline = Date.now() + 10_000
      while (!(existsSync(outbox) && readdirSync(outbox).length > 0)) {
        if (Date.now() > deadline) throw new Error('no mail reached the outbox')
        await Bun.sleep(50)
      }

      expect(modeOf(dataDir)).toBe(0o700)
      // On PostgreSQL the database lives there and AUTH_SECRET is given, so neither is a file in DATA_DIR.
      const ownFiles = server.databaseUrl === null ? ['vibes.db', 'vibes.db-wal', 'vibes.db-shm', 'auth-secret'] : []
      for (const name of ownFiles) expect([name, modeOf(path.join(dataDir, name))]).toEqual([name, 0o600])
      expect(modeOf(outbox)).toBe(0o700)
      for (const name of readdirSync(outbox)) expect([name, modeOf(path.join(outbox, name))]).toEqual([name, 0o600])
    } finally {
      await server.stop()
    }
  })
})
