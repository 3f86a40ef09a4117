// A folder that cannot play is refused when it is saved, not when it is played: a library path
// that does not exist (or is a file, or leaves MEDIA_ROOT through a symlink), a remote URL whose
// address the policy refuses, or one that does not load (404, nothing listening, unknown name);
// and a member cannot save the same folder twice. Members' folders and the admin's folder
// management, over REST and tRPC, create and update alike; a refused save stores nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { freePort, openUp, startNginx, type ListingServer } from '../helpers/listing-servers'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let outside: string
let member: Awaited<ReturnType<typeof createMember>>
let admin: string
let served: string
let nginx: ListingServer
let closedPort: number

const NOT_IN_LIBRARY = (p: string) => `Folder not found in the music library: ${p}`
const LOOPBACK = 'Remote URL refused: 127.0.0.1 is a loopback address'

const LISTING_HOST = '127.0.0.2'

beforeAll(async () => {
  served = mkdtempSync(path.join(tmpdir(), 'vibes-served-'))
  openUp(served)
  mkdirSync(path.join(served, 'music'))
  writeFileSync(path.join(served, 'music/song.mp3'), 'x')
  nginx = await startNginx(served, LISTING_HOST)
  closedPort = await freePort(LISTING_HOST)
  server = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: LISTING_HOST })
  mkdirSync(path.join(server.mediaRoot, 'music/jazz'), { recursive: true })
  writeFileSync(path.join(server.mediaRoot, 'music/jazz/song.mp3'), 'x')
  outside = mkdtempSync(path.join(tmpdir(), 'vibes-outside-'))
  symlinkSync(outside, path.join(server.mediaRoot, 'escape'))
  ;[member, admin] = await Promise.all([createMember(server.url), loginAdmin(server.url)])
})
afterAll(async () => {
  await Promise.all([server?.stop(), nginx?.stop()])
  rmSync(outside, { recursive: true, force: true })
  rmSync(served, { recursive: true, force: true })
})

const folderCount = async () => (await sqlOn<{ n: number }>(server, 'SELECT count(*) AS n FROM folders'))[0].n

/** Every way a bad folder can be refused, with the message the API must answer. */
const REFUSED: Array<[string, string]> = [
  ['/jazz', NOT_IN_LIBRARY('/jazz')],
  ['/music/jazz/song.mp3', NOT_IN_LIBRARY('/music/jazz/song.mp3')],
  ['/escape', NOT_IN_LIBRARY('/escape')],
  ['http://127.0.0.1:9/music/', LOOPBACK],
  ['http://localhost:9/music/', 'Remote URL refused: localhost resolves to 127.0.0.1, a loopback address'],
  ['http://169.254.169.254/latest/meta-data/', 'Remote URL refused: 169.254.169.254 is a link-local address'],
  ['http://[::1]/music/', 'Remote URL refused: ::1 is a loopback address'],
  ['http://2130706433/music/', LOOPBACK],
  ['http://192.168.1.20/music/', 'Remote URL refused: 192.168.1.20 is a private address (set REMOTE_ALLOW_PRIVATE or REMOTE_ALLOW_HOSTS to allow it)'],
]

describe("members' folders", () => {
  test('create: a missing library path or a refused address is a 400 naming the problem; nothing is stored', async () => {
    const before = await folderCount()
    for (const [folderPath, error] of REFUSED) {
      const res = await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Bad', path: folderPath } })
      expect({ folderPath, status: res.status, body: res.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
    }
    expect(await folderCount()).toBe(before)
  })

  test('update: the same refusals; the stored folder is unchanged', async () => {
    const created = await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Jazz', path: '/music/jazz' } })
    expect(created.status).toBe(201)
    const id = created.body.data.id
    for (const [folderPath, error] of REFUSED) {
      const res = await api(server.url, 'PATCH', `/user/folders/${id}`, { token: member.token, body: { label: 'Bad', path: folderPath } })
      expect({ folderPath, status: res.status, body: res.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
    }
    const stored = (await api(server.url, 'GET', '/user/folders', { token: member.token })).body.data.find((f: { id: string }) => f.id === id)
    expect(stored).toMatchObject({ label: 'Jazz', path: '/music/jazz' })
  })

  test('over tRPC too', async () => {
    const res = await fetch(`${server.url}/api/trpc/folders.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}` },
      body: JSON.stringify({ json: { label: 'Bad', path: '/jazz' } }),
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain(NOT_IN_LIBRARY('/jazz'))
  })

  test('what can play is accepted: an existing library folder, the library root, a URL that loads', async () => {
    const m = await createMember(server.url)
    for (const folderPath of ['/music/jazz', '/', `${nginx.url}/music/`]) {
      const res = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Good', path: folderPath } })
      expect({ folderPath, status: res.status }).toEqual({ folderPath, status: 201 })
    }
  })

  test('a URL that does not load is refused, saying why: an HTTP error, nothing listening, an unknown name', async () => {
    const m = await createMember(server.url)
    const before = await folderCount()
    for (const [folderPath, error] of [
      [`${nginx.url}/no-such-folder/`, 'That address answered 404 Not Found'],
      [`http://${LISTING_HOST}:${closedPort}/music/`, `Nothing answers at that address (${LISTING_HOST}:${closedPort})`],
      ['http://does-not-exist.invalid/music/', 'Could not resolve the host name does-not-exist.invalid'],
    ]) {
      const res = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Web', path: folderPath } })
      expect({ folderPath, status: res.status, body: res.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
    }
    expect(await folderCount()).toBe(before)
  })

  test('the same folder twice is refused (any spelling of the path, or the same URL); another member may have it', async () => {
    const m = await createMember(server.url)
    const save = (token: string, p: string) => api(server.url, 'POST', '/user/folders', { token, body: { label: 'Again', path: p } })
    expect((await save(m.token, '/music/jazz')).status).toBe(201)
    expect((await save(m.token, `${nginx.url}/music/`)).status).toBe(201)
    for (const [again, error] of [
      ['/music/jazz', 'You already have a folder with this path: /music/jazz'],
      ['/music//jazz/', 'You already have a folder with this path: /music//jazz/'],
      [`${nginx.url}/music/`, `You already have a folder with this URL: ${nginx.url}/music/`],
    ]) {
      expect(await save(m.token, again)).toMatchObject({ status: 400, body: { success: false, error } })
    }
    // Renaming a folder keeps its own path; moving another folder onto it is refused.
    const [jazz, web] = (await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data
    expect((await api(server.url, 'PATCH', `/user/folders/${jazz.id}`, { token: m.token, body: { label: 'Renamed', path: '/music/jazz' } })).status).toBe(200)
    expect(await api(server.url, 'PATCH', `/user/folders/${web.id}`, { token: m.token, body: { label: 'Web', path: '/music/jazz' } })).toMatchObject({
      status: 400,
      body: { error: 'You already have a folder with this path: /music/jazz' },
    })
    expect((await save((await createMember(server.url)).token, '/music/jazz')).status).toBe(201)
  })
})

describe("the admin's folder management", () => {
  test('create, update and bulk add refuse the same folders; nothing is stored', async () => {
    const target = await createMember(server.url)
    const good = await api(server.url, 'POST', `/admin/users/${target.user.id}/folders`, { token: admin, body: { label: 'Jazz', path: '/music/jazz' } })
    expect(good.status).toBe(201)
    const before = await folderCount()
    for (const [folderPath, error] of REFUSED) {
      const created = await api(server.url, 'POST', `/admin/users/${target.user.id}/folders`, { token: admin, body: { label: 'Bad', path: folderPath } })
      expect({ folderPath, status: created.status, body: created.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
      const updated = await api(server.url, 'PATCH', `/admin/users/${target.user.id}/folders/${good.body.data.id}`, {
        token: admin,
        body: { label: 'Bad', path: folderPath },
      })
      expect({ folderPath, status: updated.status, body: updated.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
      const bulk = await api(server.url, 'POST', '/admin/folders/bulk-add', {
        token: admin,
        body: { userIds: [target.user.id, member.user.id], label: 'Bad', path: folderPath },
      })
      expect({ folderPath, status: bulk.status, body: bulk.body }).toEqual({ folderPath, status: 400, body: { success: false, error } })
    }
    expect(await folderCount()).toBe(before)
    const bulk = await api(server.url, 'POST', '/admin/folders/bulk-add', {
      token: admin,
      body: { userIds: [target.user.id, member.user.id], label: 'Shared', path: '/music/' },
    })
    expect(bulk.status).toBe(200)
    expect(bulk.body.data.successful).toHaveLength(2)
  })
})

describe('REMOTE_ALLOW_HOSTS and REMOTE_ALLOW_PRIVATE decide at save time as at play time', () => {
  test('an allowed host and a private address with REMOTE_ALLOW_PRIVATE are accepted; loopback still is not', async () => {
    const lan = await startServer({ REMOTE_ALLOW_HOSTS: '127.0.0.2', REMOTE_ALLOW_PRIVATE: 'true' })
    try {
      const m = await createMember(lan.url)
      const save = (p: string) => api(lan.url, 'POST', '/user/folders', { token: m.token, body: { label: 'NAS', path: p } })
      expect((await save(`${nginx.url}/music/`)).status).toBe(201)
      // The policy lets a private address through; what is refused then is that nothing is there.
      expect((await save('http://192.168.1.20/music/')).body.error).not.toMatch(/Remote URL refused/)
      expect(await save('http://127.0.0.1:8080/music/')).toMatchObject({ status: 400, body: { error: 'Remote URL refused: 127.0.0.1 is a loopback address' } })
    } finally {
      await lan.stop()
    }
  })
})

describe('saving and playing a folder does not make the scanner walk the library on demand', () => {
  // A server of its own with the rate limits on, as in production.
  let lib: TestServer
  let m: Awaited<ReturnType<typeof createMember>>
  let adminToken: string
  const dir = (p: string) => path.join(lib.mediaRoot, p)
  /** Scans finished so far (the scanner logs each one), once the scanner is idle. */
  async function scansDone(): Promise<{ count: number; lastScanAt: string | null }> {
    for (let i = 0; i < 200; i++) {
      const status = (await api(lib.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data
      if (!status.scanning) return { count: lib.logs.filter((l) => l.includes('"msg":"library scan done"')).length, lastScanAt: status.lastScanAt }
      await Bun.sleep(50)
    }
    throw new Error('scan did not finish')
  }
  const saveAndPlay = async (id: string, folderPath: string) => {
    const saved = await api(lib.url, 'PATCH', `/user/folders/${id}`, { token: m.token, body: { label: 'Mine', path: folderPath } })
    expect(saved.status).toBe(200)
    const played = await api(lib.url, 'GET', `/user/folders/${id}/playlist`, { token: m.token })
    expect(played.status).toBe(200)
    return played.body.data as Array<{ title: string }>
  }

  beforeAll(async () => {
    lib = await startServer({ ...adminEnv, RATE_LIMIT: 'on' })
    for (const p of ['empty-a', 'empty-b', 'only-hidden/.stash']) mkdirSync(dir(p), { recursive: true })
    writeFileSync(dir('only-hidden/.stash/x.mp3'), 'x')
    ;[m, adminToken] = await Promise.all([createMember(lib.url), loginAdmin(lib.url)])
    // The admin may always scan: this one walks the folders above.
    await scanLibraryNow(lib.url, adminToken)
  }, 60_000)
  afterAll(() => lib?.stop())

  test('folders the last scan already walked (empty, or holding hidden files only): three save-and-play rounds start no scan', async () => {
    const id = (await api(lib.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Mine', path: '/empty-a' } })).body.data.id
    const before = await scansDone()
    for (const folderPath of ['/empty-b', '/only-hidden', '/empty-a']) expect(await saveAndPlay(id, folderPath)).toEqual([])
    expect(await scansDone()).toEqual(before)
  })

  test('new folders on disk: the first play scans and lists it; more new folders within the interval start no further scan', async () => {
    // A member may not hold the same path twice: the first test's folder ends on /empty-a.
    const id = (await api(lib.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Mine', path: '/empty-b' } })).body.data.id
    const before = await scansDone()
    makeTone(dir('new-1/one.mp3'), { title: 'One', seconds: 1 })
    expect((await saveAndPlay(id, '/new-1')).map((t) => t.title)).toEqual(['One'])
    for (const folder of ['new-2', 'new-3']) {
      makeTone(dir(`${folder}/track.mp3`), { seconds: 1 })
      await saveAndPlay(id, `/${folder}`)
    }
    expect((await scansDone()).count).toBe(before.count + 1)
  })
})
