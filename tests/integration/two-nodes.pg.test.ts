// Two server processes on one PostgreSQL database, as N nodes behind a load balancer run: what a
// member does through one node holds on the other at once (sessions, folders, login limits, the
// library scanner, the public pages each node keeps in memory), the two nodes started together
// migrate once, and without AUTH_SECRET a node refuses to start.
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { sqlOn } from '../helpers/engine'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import type { TestServer } from '../helpers/server'

const ROOT = path.resolve(import.meta.dir, '../..')
let nodes: TwoNodes
let a: TestServer
let b: TestServer
let databaseUrl: string
// The library on storage every node mounts.
let media: string

beforeAll(async () => {
  // Limits on, and the address taken from X-Forwarded-For, so each test can speak from its own.
  // Both nodes are told to create the same admin at start-up.
  nodes = await startTwoNodes({ RATE_LIMIT: 'on', TRUST_PROXY: 'true', ...adminEnv }, { sharedMedia: true })
  ;({ a, b } = nodes)
  databaseUrl = nodes.env.DATABASE_URL
  media = nodes.media!
}, 60_000)
afterAll(async () => {
  await nodes?.stop()
})

/** Waits until no node scans or has a scan asked for (the start-up scans, an earlier test's). */
async function scansSettled(tries = 400) {
  for (let i = 0; i < tries; i++) {
    const [lease] = await sqlOn<{ busy: number }>(a, 'SELECT count(*) AS busy FROM library_scan_lease WHERE asked OR holder IS NOT NULL')
    if (!lease || Number(lease.busy) === 0) return
    await Bun.sleep(50)
  }
  throw new Error('the library scans did not settle')
}

let addresses = 0
/** A client address of its own, so one test's calls do not use up another's per-address limits. */
const fromAddress = () => ({ 'x-forwarded-for': `198.51.100.${++addresses}` })

describe('two nodes on one PostgreSQL', () => {
  test('the two nodes, started together, applied each migration once', async () => {
    const journal = JSON.parse(readFileSync(path.join(ROOT, 'src/db/migrations-pg/meta/_journal.json'), 'utf8')) as { entries: unknown[] }
    const [applied] = await sqlOn<{ n: number; distinct: number }>(
      a,
      'SELECT count(*) AS n, count(DISTINCT hash) AS "distinct" FROM drizzle.__drizzle_migrations',
    )
    expect(applied).toEqual({ n: journal.entries.length, distinct: journal.entries.length })
  })

  test('signed up through A, logged in through B: the token works on both', async () => {
    const headers = fromAddress()
    const input = { username: `node${Date.now().toString(36)}`, email: `node-${Date.now()}@example.com`, password: 'tune-in-2-vibes' }
    expect((await api(a.url, 'POST', '/auth/signup', { body: input, headers })).status).toBe(201)
    const login = await api(b.url, 'POST', '/auth/login', { body: { email: input.email, password: input.password }, headers })
    expect(login.status).toBe(200)
    const token = login.body.data.token as string
    for (const node of [a, b]) expect((await api(node.url, 'GET', '/auth/session', { token })).body.data.user.email).toBe(input.email)
  })

  test('a logout on A is refused on B at once', async () => {
    const m = await createMember(a.url)
    expect((await api(b.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
    expect((await api(a.url, 'POST', '/auth/logout', { token: m.token })).status).toBe(200)
    expect((await api(b.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    expect((await api(b.url, 'GET', '/user/folders', { token: m.token })).status).toBe(401)
  })

  test('a folder reorder on A is read back on B', async () => {
    const m = await createMember(b.url)
    for (const name of ['one', 'two', 'three']) mkdirSync(path.join(media, m.username, name), { recursive: true })
    const ids: string[] = []
    for (const name of ['one', 'two', 'three']) {
      const made = await api(a.url, 'POST', '/user/folders', { token: m.token, body: { label: name, path: `/${m.username}/${name}` } })
      expect(made.status).toBe(201)
      ids.push(made.body.data.id)
    }
    const labelsOn = async (node: TestServer) =>
      (await api(node.url, 'GET', '/user/folders', { token: m.token })).body.data.map((f: { label: string }) => f.label)
    expect(await labelsOn(b)).toEqual(['one', 'two', 'three'])
    expect((await api(a.url, 'PUT', '/user/folders/reorder', { token: m.token, body: { folderIds: ids.toReversed() } })).status).toBe(200)
    expect(await labelsOn(b)).toEqual(['three', 'two', 'one'])
    expect((await api(b.url, 'DELETE', `/user/folders/${ids[1]}`, { token: m.token })).status).toBe(200)
    expect(await labelsOn(a)).toEqual(['three', 'one'])
  })

  test('the admin both nodes were told to create exists once; a role change on A ends the sessions on B at once', async () => {
    const [admins] = await sqlOn<{ n: number }>(a, 'SELECT count(*) AS n FROM users WHERE is_admin')
    expect(admins.n).toBe(1)
    const adminToken = await loginAdmin(b.url)
    const m = await createMember(b.url)
    expect((await api(b.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
    expect((await api(a.url, 'PATCH', `/admin/users/${m.user.id}/role`, { token: adminToken, body: { isAdmin: true } })).status).toBe(200)
    expect((await api(b.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
  })

  test('the home page B keeps in memory shows a promotion the admin changed through A, at the next request', async () => {
    const adminToken = await loginAdmin(a.url)
    const home = async (node: TestServer) => {
      const page = await fetch(`${node.url}/`)
      expect(page.status).toBe(200)
      return page.text()
    }
    const [first] = (await api(a.url, 'GET', '/promotions')).body.data.promotions as { id: string; title: string }[]
    // Rendered on B, then answered from B's memory.
    expect(await home(b)).toContain(first.title)
    expect(await home(b)).toContain(first.title)
    const title = `Spring Session ${Date.now().toString(36)}`
    expect((await api(a.url, 'PATCH', `/admin/promotions/${first.id}`, { token: adminToken, body: { title } })).status).toBe(200)
    const after = await home(b)
    expect(after).toContain(title)
    expect(after).not.toContain(first.title)
  })

  test('a login limit reached through A holds on B', async () => {
    const m = await createMember(a.url)
    const headers = fromAddress()
    const loginOn = (node: TestServer, password: string) => api(node.url, 'POST', '/auth/login', { body: { email: m.email, password }, headers })
    for (let i = 0; i < 10; i++) expect((await loginOn(a, `wrong-${i}`)).status).toBe(401)
    const refused = await loginOn(b, m.password)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Her own address elsewhere still signs in, on either node.
    expect((await api(b.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password }, headers: fromAddress() })).status).toBe(200)
  })

  test('the library is scanned by one node at a time: scans asked on both nodes at once run once, and both report it', async () => {
    const adminToken = await loginAdmin(a.url)
    const statusOn = async (node: TestServer) => (await api(node.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data
    const scansRun = async () => (await sqlOn<{ n: number }>(a, 'SELECT count(*) AS n FROM library_scans'))[0].n
    for (let i = 1; i <= 3; i++) makeTone(path.join(media, 'shared-scan', `${i}.mp3`), { title: `Shared ${i}`, seconds: 1 })
    for (let i = 0; i < 200 && (await statusOn(a)).scanning; i++) await Bun.sleep(50)
    // The two nodes' start-up scans, asked at about the same time, were one.
    expect(await scansRun()).toBe(1)

    const asked = await Promise.all([a, b].map((node) => api(node.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })))
    expect(asked.map((r) => r.status)).toEqual([202, 202])
    // Whichever node scans, both report the scan.
    expect((await statusOn(a)).scanning).toBe(true)
    expect((await statusOn(b)).scanning).toBe(true)
    for (let i = 0; i < 400 && (await statusOn(b)).scanning; i++) await Bun.sleep(50)
    expect(await scansRun()).toBe(2)
    for (const node of [a, b]) expect(await statusOn(node)).toMatchObject({ scanning: false, tracks: 3, albums: expect.any(Number) })
    expect(await sqlOn(a, 'SELECT holder, asked FROM library_scan_lease')).toEqual([{ holder: null, asked: 0 }])
  })

  test('a folder saved while another node holds the scan lease: its play waits for that scan, then lists all its files', async () => {
    // The other node's scan walked before this folder was copied in: when it lets go, the index
    // still lacks the folder, and the play must not answer from it as if it were complete.
    await scansSettled()
    const takeLease = (holder: string | null, expiresAt: number) =>
      sqlOn(a, 'UPDATE library_scan_lease SET holder = ?, expires_at = ? WHERE name = ?', [holder, expiresAt, 'library'])
    await takeLease('a node scanning elsewhere', Date.now() + 60_000)
    for (let i = 1; i <= 2; i++) makeTone(path.join(media, 'during-lease', `${i}.mp3`), { title: `During ${i}`, seconds: 1 })
    const m = await createMember(a.url)
    const id = (await api(a.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Lease', path: '/during-lease' } })).body.data.id
    const play = api(a.url, 'GET', `/user/folders/${id}/playlist`, { token: m.token })
    // The play has reached the held lease (well inside its wait) before the other node lets go.
    await Bun.sleep(1_000)
    await takeLease(null, 0)
    const res = await play
    expect(res.status).toBe(200)
    expect(res.body.data.map((t: { title: string }) => t.title)).toEqual(['During 1', 'During 2'])
  })

  test('a node whose scan lease ran out and was taken by another node lets it go, and leads the next scan asked of it', async () => {
    // As after a database outage longer than the lease: the holder's renewals failed, the lease
    // ran out and another node took it while the first was still in its scan.
    await scansSettled()
    const adminToken = await loginAdmin(a.url)
    const scansRun = async () => Number((await sqlOn<{ n: number }>(a, 'SELECT count(*) AS n FROM library_scans'))[0].n)
    const before = await scansRun()
    expect((await api(a.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
    let taken: unknown[] = []
    for (let i = 0; i < 100 && !taken.length; i++)
      taken = await sqlOn(a, "UPDATE library_scan_lease SET holder = 'another node', expires_at = ? WHERE holder IS NOT NULL RETURNING name", [
        Date.now() + 60_000,
      ])
    expect(taken).toHaveLength(1)
    // The other node's scan ends; then an admin asks A again.
    await Bun.sleep(1_000)
    await sqlOn(a, 'UPDATE library_scan_lease SET holder = NULL, expires_at = 0, asked = false')
    expect((await api(a.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
    await scansSettled(100)
    expect(await scansRun()).toBeGreaterThan(before)
  })
})

describe('start-up on PostgreSQL', () => {
  test('without AUTH_SECRET a node refuses to start, with one line saying why', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-node-'))
    try {
      const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }
      env.DATABASE_URL = databaseUrl
      delete env.AUTH_SECRET
      const proc = Bun.spawn(['bun', 'src/server/entry.ts'], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
      const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
      expect(code).toBe(1)
      expect(err.trim()).toBe('AUTH_SECRET is required with DATABASE_URL: every node sharing the database must sign tokens with the same secret')
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
