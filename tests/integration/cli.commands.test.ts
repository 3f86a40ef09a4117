// The command line as a new user meets it: --help and
// --version answer and create nothing, an unknown flag is one line and exit 2, a port in use is
// one line naming the port, a missing MEDIA_ROOT is one warning and not created. The servers
// started here run on the test engine: with VIBES_TEST_ENGINE=postgres they get DATABASE_URL (a
// fresh database) and the nodes' shared AUTH_SECRET, as an operator on PostgreSQL sets them.
import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CONFIG_VARIABLES } from '~/server/config-variables'
import { signMediaUrl } from '~/server/media/sign'
import pkg from '../../package.json'
import { api, createMember } from '../helpers/api'
import { ensureBuilt } from '../helpers/build'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, TEST_ENGINE } from '../helpers/server'

const root = path.resolve(import.meta.dir, '../..')
const temps: string[] = []
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

/** An empty working directory with DATA_DIR left at its default (./data inside it). */
function emptyDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vibes-cli-'))
  temps.push(dir)
  return dir
}

/** The database settings of a server on the test engine: none on SQLite (DATA_DIR), a fresh database on PostgreSQL. */
async function engineEnv(): Promise<Record<string, string>> {
  return TEST_ENGINE === 'postgres' ? { DATABASE_URL: await freshPostgresUrl(), AUTH_SECRET: TEST_AUTH_SECRET } : {}
}

/** Runs a command from an empty directory, the way an operator tries a fresh download. */
function run(cmd: string[], cwd = emptyDir(), env: Record<string, string> = {}) {
  const { DATA_DIR: _d, MEDIA_ROOT: _m, PORT: _p, DATABASE_URL: _u, ...inherited } = process.env
  const r = Bun.spawnSync(cmd, { cwd, env: { ...inherited, ...env }, stdout: 'pipe', stderr: 'pipe', timeout: 20_000 })
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString(), created: readdirSync(cwd) }
}

const entry = path.join(root, 'src/server/entry.ts')

describe('--help and --version', () => {
  test('--help prints usage and every configuration variable with its default, exits 0, creates nothing', () => {
    for (const flag of ['--help', '-h']) {
      const r = run(['bun', entry, flag])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('Usage:')
      expect(r.stdout).toContain('backup <file>')
      for (const [name, fallback] of CONFIG_VARIABLES) {
        const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${name} `))
        expect(line, name).toBeDefined()
        expect(line).toContain(fallback)
      }
      expect(r.created).toEqual([])
    }
  })

  test('help asked of a command (backup --help, db copy --help) is the same usage, saying backup runs pg_dump on PostgreSQL', () => {
    for (const args of [['--help'], ['backup', '--help'], ['backup', '-h'], ['db', '--help'], ['db', 'copy', '--help']]) {
      const r = run(['bun', entry, ...args])
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' })
      expect(r.stdout).toContain('backup <file>')
      expect(r.stdout).toContain('db copy --to <postgres-url>')
      // An operator on PostgreSQL learns that backup needs pg_dump, and how to restore its dump.
      expect(r.stdout).toContain('(PostgreSQL: runs pg_dump)')
      expect(r.stdout).toContain('install postgresql-client')
      expect(r.stdout).toContain('pg_restore --clean --if-exists --no-owner')
      expect(r.created).toEqual([])
    }
  })

  test('--version prints the package version, exits 0, creates nothing', () => {
    for (const flag of ['--version', '-v']) {
      const r = run(['bun', entry, flag])
      expect(r.code).toBe(0)
      expect(r.stdout.trim()).toBe(`vibes ${pkg.version}`)
      expect(r.created).toEqual([])
    }
  })

  test('an unknown flag or command is one line with a usage hint, exit 2, nothing created', () => {
    for (const args of [['--frobnicate'], ['serve-please'], ['backup'], ['backup', 'a.db', 'b.db'], ['--help', '--bogus']]) {
      const r = run(['bun', entry, ...args])
      expect(r.code, args.join(' ')).toBe(2)
      const lines = r.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain('--help')
      expect(r.stdout).toBe('')
      expect(r.created).toEqual([])
    }
  })

  test('`bun run start -- --help` passes the flag through and does not build', () => {
    // A build would print "Building Vibes…" and vite's output; --help must answer alone.
    const r = run(['bun', 'run', 'start', '--', '--help'], root)
    expect(r.code).toBe(0)
    expect(r.stdout).toStartWith('Vibes')
    expect(r.stdout).not.toContain('Building')
    const v = run(['bun', 'run', 'start', '--', '--version'], root)
    expect(v.stdout.trim()).toBe(`vibes ${pkg.version}`)
  })
})

describe('`bun run start`', () => {
  test('serves from one process: no package script or shell between `bun run` and the server', async () => {
    ensureBuilt()
    const dir = emptyDir()
    const { DATA_DIR: _d, MEDIA_ROOT: _m, PORT: _p, DATABASE_URL: _u, ...inherited } = process.env
    const proc = Bun.spawn(['bun', 'run', 'start'], {
      cwd: root,
      env: {
        ...inherited,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dir,
        MEDIA_ROOT: dir,
        AUTH_SECRET: 'cli-test-secret-'.repeat(3),
        ADMIN_EMAIL: 'root@example.com',
        ADMIN_PASSWORD: 'root-password',
        ...(await engineEnv()),
      },
      stdout: 'pipe',
      stderr: 'inherit',
    })
    try {
      const reader = proc.stdout.getReader()
      let out = ''
      while (!/"port":(\d+)/.test(out)) out += new TextDecoder().decode((await reader.read()).value)
      reader.releaseLock()
      const port = /"port":(\d+)/.exec(out)?.[1]
      const base = `http://127.0.0.1:${port}`
      expect((await fetch(`${base}/api/health`)).status).toBe(200)
      // The process `bun run start` started is the server itself: it has no child processes.
      expect(childProcesses(proc.pid)).toEqual([])
      expect(readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8')).toContain('start')
      // What it serves is the whole app: a page, and a report from the analytics worker.
      expect(await (await fetch(`${base}/login`)).text()).toContain('<title>Login · Vibes</title>')
      const admin = await api(base, 'POST', '/auth/login', { body: { email: 'root@example.com', password: 'root-password' } })
      const report = await api(base, 'GET', '/analytics/listening-overview?days=7', { token: admin.body.data.token })
      expect(report.status).toBe(200)
      expect(report.body.success).toBe(true)
    } finally {
      proc.kill('SIGTERM')
      expect(await proc.exited).toBe(0)
    }
  }, 120_000)
})

/** The port a starting server logs it listens on; what it printed instead when it exits first. */
async function listeningPort(proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>): Promise<number> {
  const reader = proc.stdout.getReader()
  let out = ''
  try {
    for (;;) {
      const port = /"port":(\d+)/.exec(out)?.[1]
      if (port) return Number(port)
      const chunk = await reader.read()
      if (chunk.done) throw new Error(`the server exited before listening:\n${out}\n${await new Response(proc.stderr).text()}`)
      out += new TextDecoder().decode(chunk.value)
    }
  } finally {
    reader.releaseLock()
  }
}

/** Pids whose parent is `pid` (from /proc). */
function childProcesses(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('the single binary', () => {
  test('./vibes --help, --version and an unknown flag answer from an empty directory and create nothing; ./vibes serves', async () => {
    const build = Bun.spawnSync(['bun', 'run', 'build:binary'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    expect(build.exitCode).toBe(0)
    const dir = emptyDir()
    copyFileSync(path.join(root, 'dist/vibes'), path.join(dir, 'vibes'))
    const help = run(['./vibes', '--help'], dir)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('vibes backup <file>')
    for (const [name] of CONFIG_VARIABLES) expect(help.stdout).toContain(`  ${name} `)
    const version = run(['./vibes', '--version'], dir)
    expect(version.stdout.trim()).toBe(`vibes ${pkg.version}`)
    const wrong = run(['./vibes', '--port', '80'], dir)
    expect(wrong.code).toBe(2)
    expect(wrong.stderr.trim()).toBe("unknown option '--port' (run 'vibes --help' for usage)")
    expect(readdirSync(dir)).toEqual(['vibes'])

    // Started with no arguments it serves the whole app on the test engine, migrating its database
    // from the migrations embedded in it (there is no source tree beside it).
    const data = emptyDir()
    const { DATA_DIR: _d, MEDIA_ROOT: _m, PORT: _p, DATABASE_URL: _u, ...inherited } = process.env
    const proc = Bun.spawn(['./vibes'], {
      cwd: dir,
      env: {
        ...inherited,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: data,
        MEDIA_ROOT: data,
        AUTH_SECRET: 'cli-test-secret-'.repeat(3),
        ADMIN_EMAIL: 'root@example.com',
        ADMIN_PASSWORD: 'root-password',
        ...(await engineEnv()),
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const port = await listeningPort(proc)
      const base = `http://127.0.0.1:${port}`
      expect((await fetch(`${base}/api/health`)).status).toBe(200)
      expect(await (await fetch(`${base}/login`)).text()).toContain('<title>Login · Vibes</title>')
      const admin = await api(base, 'POST', '/auth/login', { body: { email: 'root@example.com', password: 'root-password' } })
      expect(admin.status).toBe(200)
    } finally {
      proc.kill('SIGTERM')
    }
    expect(await proc.exited).toBe(0)
  }, 600_000)
})

describe('start-up problems', () => {
  test('a port in use stops start-up with one line naming the port, exit 1, no stack trace', async () => {
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const dir = emptyDir()
      const r = run(['bun', entry], root, {
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'silent',
        DATA_DIR: dir,
        MEDIA_ROOT: dir,
        ...(await engineEnv()),
      })
      expect(r.code).toBe(1)
      expect(r.stderr.trim()).toBe(`Port ${port} is already in use (set PORT to another port)`)
    } finally {
      blocker.close()
    }
  })

  test('a missing MEDIA_ROOT is one warning naming it; it is not created; library paths answer 4xx', async () => {
    const missing = path.join(emptyDir(), 'no-such-library')
    const secret = 'cli-test-secret-'.repeat(3)
    const server = await startServer({ MEDIA_ROOT: missing, AUTH_SECRET: secret })
    try {
      const warnings = server.logs.filter((l) => l.includes('"level":40') && l.includes('MEDIA_ROOT'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(missing)

      const member = await createMember(server.url)
      const saved = await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Jazz', path: '/jazz' } })
      // Refused at save (a missing library path) or, when saved, refused at play: never a 500.
      const answer = saved.status === 201 ? await api(server.url, 'GET', `/user/folders/${saved.body.data.id}/playlist`, { token: member.token }) : saved
      expect(answer.status).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(answer.body.success).toBe(false)
      expect((await fetch(server.url + signMediaUrl(secret, 'jazz/a.mp3'))).status).toBe(404)
      expect(existsSync(missing)).toBe(false)
    } finally {
      await server.stop()
    }
  })
})
