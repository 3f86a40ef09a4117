// The server as an operator meets it: configuration errors, durability, shutdown, rate limits,
// logs, and the single binary.
import { describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { waitForOutboxMail } from '../helpers/outbox'
import { makeTone } from '../helpers/media'
import { startServer } from '../helpers/server'
import { BINARY_OUTPUT, buildIsStale } from '../../scripts/build-state'

const root = path.resolve(import.meta.dir, '../..')

describe('configuration', () => {
  test('a bad value stops the server with one line naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['REMOTE_ALLOW_PRIVATE', 'maybe'],
      ['AUTH_SECRET', 'short'],
      ['CHARTS_SOURCE_URL', 'ftp://example.com/{region}'],
    ]) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-cfg-'))
      const r = Bun.spawnSync(['bun', 'src/server/entry.ts'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, [name]: value },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      rmSync(dataDir, { recursive: true, force: true })
      expect(r.exitCode).toBe(1)
      const lines = r.stderr.toString().trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toStartWith(`Invalid configuration: ${name} `)
    }
  })
})

describe('data safety', () => {
  test('an acknowledged write survives kill -9; migrations and WAL are in place', async () => {
    const first = await startServer()
    const m = await createMember(first.url)
    await first.kill9()
    expect(await sqlOn(first, 'select username from users where email = ?', [m.email])).toEqual([{ username: m.username }])
    // SQLite's own journal; PostgreSQL keeps its write-ahead log itself.
    if (first.databaseUrl === null) expect(await sqlOn(first, 'pragma journal_mode')).toEqual([{ journal_mode: 'wal' }])
    const second = await startServer({}, { dataDir: first.dataDir, mediaRoot: first.mediaRoot })
    expect((await api(second.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })).status).toBe(200)
    // The old token still points at a live session after the restart.
    expect((await api(second.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
    await second.stop()
    rmSync(first.dataDir, { recursive: true, force: true })
    rmSync(first.mediaRoot, { recursive: true, force: true })
  })

  test('SIGTERM finishes and exits 0; requests are logged as JSON with id, method, path, status, duration', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-term-'))
    const proc = Bun.spawn(['bun', 'src/server/entry.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const reader = proc.stdout.getReader()
    let out = ''
    while (!/"port":(\d+)/.test(out)) out += new TextDecoder().decode((await reader.read()).value)
    const port = /"port":(\d+)/.exec(out)![1]
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200)
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      out += new TextDecoder().decode(chunk.value)
    }
    const requestLine = out.split('\n').find((l) => l.includes('"path":"/api/health"'))!
    const entry = JSON.parse(requestLine)
    expect(entry.method).toBe('GET')
    expect(entry.status).toBe(200)
    expect(entry.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(typeof entry.durationMs).toBe('number')
    rmSync(dataDir, { recursive: true, force: true })
  })
})

describe('shutdown deadline', () => {
  test('a stalled upload cannot keep the server alive: after SHUTDOWN_GRACE_SECONDS it is cut off and the process exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-grace-'))
    const proc = Bun.spawn(['bun', 'src/server/entry.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTDOWN_GRACE_SECONDS: '1' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const reader = proc.stdout.getReader()
    let out = ''
    while (!/"port":(\d+)/.test(out)) out += new TextDecoder().decode((await reader.read()).value)
    const port = Number(/"port":(\d+)/.exec(out)![1])
    // Headers and the first bytes of a body it promises, then silence.
    const socket = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } })
    socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"email":"sta`)
    await Bun.sleep(500)
    const started = performance.now()
    proc.kill('SIGTERM')
    const code = await Promise.race([proc.exited, Bun.sleep(8000).then(() => 'still running')])
    const seconds = (performance.now() - started) / 1000
    if (code === 'still running') proc.kill('SIGKILL')
    socket.end()
    rmSync(dataDir, { recursive: true, force: true })
    expect(code).toBe(0)
    expect(seconds).toBeLessThan(8)
  }, 20_000)
})

describe('mail without SMTP', () => {
  test('a reset mail is written to DATA_DIR/outbox with its link', async () => {
    const server = await startServer({ APP_URL: 'https://music.example.org' })
    const m = await createMember(server.url)
    expect((await api(server.url, 'POST', '/auth/forgot-password', { body: { email: m.email } })).status).toBe(200)
    const mail = await waitForOutboxMail(server.dataDir)
    expect(mail).toContain(`To: ${m.email}`)
    const token = /https:\/\/music\.example\.org\/reset-password\/([a-z0-9]+)/.exec(mail)![1]
    expect((await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'new-password' } })).status).toBe(200)
    await server.stop()
  })
})

describe('revocation by the database', () => {
  test('a changed admin flag or a deleted user makes old tokens fail', async () => {
    const server = await startServer()
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    await sqlOn(server, 'update users set is_admin = true where id = ?', [a.user.id])
    expect((await api(server.url, 'GET', '/auth/session', { token: a.token })).status).toBe(401)
    await sqlOn(server, 'delete from users where id = ?', [b.user.id])
    expect((await api(server.url, 'GET', '/auth/session', { token: b.token })).status).toBe(401)
    // With the flag now set, a fresh login carries it.
    const again = await api(server.url, 'POST', '/auth/login', { body: { email: a.email, password: a.password } })
    expect(again.body.data.user.isAdmin).toBe(true)
    await server.stop()
  })
})

describe('rate limiting', () => {
  test('too many logins from one client get 429 with Retry-After and "Rate limit exceeded"', async () => {
    const server = await startServer({ RATE_LIMIT: 'on' })
    const statuses: number[] = []
    let limited: Awaited<ReturnType<typeof api>> | undefined
    // A different account each time: this is the per-address limit (30 a minute, decision 013).
    for (let i = 0; i < 33; i++) {
      const r = await api(server.url, 'POST', '/auth/login', { body: { email: `x${i}@example.com`, password: 'wrong-password' } })
      statuses.push(r.status)
      if (r.status === 429) limited ??= r
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true)
    expect(limited?.body).toEqual({ success: false, error: 'Rate limit exceeded. Please try again later.' })
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0)
    // A client cannot dodge the limit by claiming another address.
    const spoofed = await api(server.url, 'POST', '/auth/login', {
      body: { email: 'x@example.com', password: 'wrong' },
      headers: { 'x-vibes-client-ip': '10.9.8.7', 'x-forwarded-for': '10.9.8.7' },
    })
    expect(spoofed.status).toBe(429)
    // Nor on a request without a body, whose address is asked of the socket only when needed.
    const bodiless = await fetch(`${server.url}/api/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vibes-client-ip': '10.9.8.7' },
    })
    expect(bodiless.status).toBe(429)
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
    await server.stop()
  })
})

describe('single binary', () => {
  test('dist/vibes, run from an empty directory without node_modules: health, signup, login, a page, a media range, SIGTERM exit 0', async () => {
    // Built once for all runs while the sources stay the same (the build takes a minute).
    if (buildIsStale(root, BINARY_OUTPUT)) {
      const build = Bun.spawnSync(['bun', 'run', 'build:binary'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
      expect(build.exitCode).toBe(0)
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bin-'))
    const mediaRoot = mkdtempSync(path.join(tmpdir(), 'vibes-bin-media-'))
    makeTone(path.join(mediaRoot, 'music/tone.mp3'), { title: 'Binary Tone', seconds: 2 })
    // Its own temporary folder: what the binary leaves there is checked below.
    const temp = mkdtempSync(path.join(tmpdir(), 'vibes-bin-tmp-'))
    cpSync(path.join(root, BINARY_OUTPUT), path.join(dir, 'vibes'))
    const proc = Bun.spawn(['./vibes'], {
      cwd: dir,
      env: {
        PATH: '/usr/bin:/bin',
        TMPDIR: temp,
        PORT: '0',
        HOST: '127.0.0.1',
        MEDIA_ROOT: mediaRoot,
        ADMIN_EMAIL: 'root@example.com',
        ADMIN_PASSWORD: 'root-password',
        TRUST_PROXY: 'true',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const reader = proc.stdout.getReader()
    let out = ''
    while (!/"port":(\d+)/.test(out)) out += new TextDecoder().decode((await reader.read()).value)
    const base = `http://127.0.0.1:${/"port":(\d+)/.exec(out)![1]}`
    // Keep reading the log so the server never blocks on a full pipe.
    void (async () => {
      while (!(await reader.read()).done) {}
    })()

    expect((await api(base, 'GET', '/health')).body.data.status).toBe('ok')
    // The migrations it unpacked for Drizzle's migrator are gone once the database is migrated.
    expect(readdirSync(temp)).toEqual([])
    const page = await (await fetch(`${base}/login`)).text()
    expect(page).toContain('<title>Login · Vibes</title>')
    const css = /\/assets\/[^"]+\.css/.exec(page)![0]
    const asset = await fetch(base + css)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('text/css')
    const admin = await api(base, 'POST', '/auth/login', { body: { email: 'root@example.com', password: 'root-password' } })
    expect(admin.body.data.user.isAdmin).toBe(true)
    // The embedded GeoIP database places a play from a public address (here forwarded by the
    // trusted proxy, without a country header).
    const token = admin.body.data.token
    const play = await api(base, 'POST', '/playlist/plays', {
      token,
      headers: { 'x-forwarded-for': '8.8.8.8' },
      body: { trackUrl: 'https://music.example/a.mp3', title: 'A', duration: 60 },
    })
    expect(play.status).toBe(201)
    const places = await api(base, 'GET', '/analytics/geographic-listening?days=1', { token })
    expect(places.body.data.countries).toEqual([{ country: 'US', plays: 1, uniqueUsers: 1 }])
    // That report ran on the analytics worker (an entry point of the binary, not the request loop): its
    // own read-only connection is a second handle on the database file, its checkpointing one a third.
    const fds = `/proc/${proc.pid}/fd`
    const target = (fd: string) => {
      try {
        return readlinkSync(path.join(fds, fd))
      } catch {
        return '' // closed meanwhile
      }
    }
    expect(readdirSync(fds).filter((fd) => target(fd).endsWith('/vibes.db'))).toHaveLength(3)

    const member = await createMember(base)
    expect(member.user.isAdmin).toBe(false)
    const folder = await api(base, 'POST', '/user/folders', { token: member.token, body: { label: 'Music', path: '/music' } })
    expect(folder.status).toBe(201)
    const playlist = await api(base, 'GET', `/user/folders/${folder.body.data.id}/playlist`, { token: member.token })
    expect(playlist.body.data.map((t: { title: string }) => t.title)).toEqual(['Binary Tone'])
    const range = await fetch(base + playlist.body.data[0].url, { headers: { range: 'bytes=0-99' } })
    expect(range.status).toBe(206)
    expect(range.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/)
    expect((await range.arrayBuffer()).byteLength).toBe(100)

    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    rmSync(dir, { recursive: true, force: true })
    rmSync(mediaRoot, { recursive: true, force: true })
    rmSync(temp, { recursive: true, force: true })
  }, 240_000)
})
