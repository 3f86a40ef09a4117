// Folders over REST, the server library playlist and /media streaming against the built server:
// ownership, reorder rules, tags and natural order, signed URLs, ranges byte for byte,
// conditional requests, and traversal attempts against a canary file outside MEDIA_ROOT.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, TEST_ENGINE, type TestServer } from '../helpers/server'

const SECRET = 'library-test-secret-'.repeat(3)
const CANARY = 'CANARY-OUTSIDE-MEDIA-ROOT'
let server: TestServer
let outside: string
let member: Awaited<ReturnType<typeof createMember>>
let other: Awaited<ReturnType<typeof createMember>>
let admin: string

beforeAll(async () => {
  server = await startServer({ AUTH_SECRET: SECRET, ...adminEnv })
  const lib = path.join(server.mediaRoot, 'music/collection')
  makeTone(path.join(lib, '1 First.mp3'), { title: 'First Light', artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999, cover: true })
  makeTone(path.join(lib, '10 Tenth.mp3'), { seconds: 2 })
  makeTone(path.join(lib, '2 Second.mp3'), { title: 'Second Wind', artist: 'Bo' })
  makeTone(path.join(lib, 'sub dir/Deep #1.wav'), { seconds: 1 })
  writeFileSync(path.join(lib, 'notes.txt'), 'not media')
  writeFileSync(path.join(lib, '.hidden.mp3'), 'hidden')
  // Outside MEDIA_ROOT: a canary file and folder, reachable only through symlinks.
  outside = mkdtempSync(path.join(tmpdir(), 'vibes-outside-'))
  writeFileSync(path.join(outside, 'canary.mp3'), CANARY)
  symlinkSync(path.join(outside, 'canary.mp3'), path.join(lib, 'zz escape.mp3'))
  symlinkSync(outside, path.join(server.mediaRoot, 'music/linked-out'))
  mkdirSync(path.join(server.mediaRoot, 'empty'))
  ;[member, other, admin] = await Promise.all([createMember(server.url), createMember(server.url), loginAdmin(server.url)])
})
afterAll(async () => {
  await server?.stop()
  rmSync(outside, { recursive: true, force: true })
})

const asMember = (method: string, p: string, body?: unknown) => api(server.url, method, p, { token: member.token, body })

/** Sends a request line exactly as written (fetch would normalise the path). */
function rawGet(target: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))
    let data = ''
    socket.on('data', (c) => (data += c.toString('latin1')))
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data }))
    socket.on('error', reject)
  })
}

describe('folders', () => {
  test('create (201), list in order, update, delete; the answer shape', async () => {
    expect((await asMember('GET', '/user/folders')).body).toEqual({ success: true, data: [] })
    const a = await asMember('POST', '/user/folders', { label: '  Collection ', path: '/music/collection' })
    expect(a.status).toBe(201)
    const folder = a.body.data
    expect(Object.keys(folder).sort()).toEqual(['_id', 'createdAt', 'id', 'label', 'path'])
    expect(folder).toMatchObject({ label: 'Collection', path: '/music/collection' })
    expect(folder._id).toBe(folder.id)
    expect(Number.isNaN(Date.parse(folder.createdAt))).toBe(false)
    const b = (await asMember('POST', '/user/folders', { label: 'Radio', path: '/empty' })).body.data
    expect((await asMember('GET', '/user/folders')).body.data.map((f: { id: string }) => f.id)).toEqual([folder.id, b.id])

    const updated = await asMember('PATCH', `/user/folders/${b.id}`, { label: 'Web Radio', path: '/' })
    expect(updated.body).toMatchObject({ success: true, data: { id: b.id, label: 'Web Radio', path: '/' } })
    expect((await asMember('DELETE', `/user/folders/${b.id}`)).status).toBe(200)
    expect((await asMember('GET', '/user/folders')).body.data.map((f: { id: string }) => f.id)).toEqual([folder.id])
    expect((await asMember('DELETE', `/user/folders/${b.id}`)).status).toBe(404)
  })

  test("bad input is a 400 with the dialog's message; no token is a 401", async () => {
    const cases: Array<[unknown, string]> = [
      [{ label: '', path: '/x' }, 'Folder name is required'],
      [{ label: 'x', path: '  ' }, 'Folder path is required'],
      [{ label: 'x', path: '/music/../etc' }, 'Invalid path format'],
      [{ label: 'x', path: '/a<b>' }, 'Invalid path format'],
      [{ label: 'x', path: 'music/relative' }, 'Path must be a URL or absolute path'],
      [{ label: 'x', path: 'http://' }, 'Please enter a valid URL'],
      [{ label: 'x', path: '/ok', owner: 'someone' }, 'Unrecognized key: "owner"'],
      [{ label: 'x'.repeat(10_000), path: '/x' }, 'Folder name must be at most 100 characters'],
      [{ label: 'x', path: `/${'p'.repeat(10_000)}` }, 'Folder path must be at most 2048 characters'],
      [{ label: ' \u0007 ', path: '/x' }, 'Folder name must not contain control characters'],
      [{ label: ' \u0000 ', path: '/x' }, 'label: Text may not contain a NUL character'],
      [{ label: 'x', path: '/a\nb' }, 'Invalid path format'],
      [{ label: 'x', path: 'file:///etc/passwd' }, 'Path must be a URL or absolute path: only http:// and https:// URLs are supported'],
    ]
    for (const [body, error] of cases) expect(await asMember('POST', '/user/folders', body)).toMatchObject({ status: 400, body: { success: false, error } })
    expect((await api(server.url, 'GET', '/user/folders')).status).toBe(401)
    expect((await api(server.url, 'POST', '/user/folders', { body: { label: 'x', path: '/x' } })).status).toBe(401)
  })

  test("another member's folder is a 404 for every call", async () => {
    const mine = (await asMember('POST', '/user/folders', { label: 'Mine', path: '/music' })).body.data
    const t = other.token
    expect((await api(server.url, 'GET', `/user/folders/${mine.id}/playlist`, { token: t })).status).toBe(404)
    expect((await api(server.url, 'PATCH', `/user/folders/${mine.id}`, { token: t, body: { label: 'x', path: '/x' } })).status).toBe(404)
    expect((await api(server.url, 'DELETE', `/user/folders/${mine.id}`, { token: t })).status).toBe(404)
    expect((await api(server.url, 'GET', '/user/folders', { token: t })).body.data).toEqual([])
    // The same through tRPC, byId included; and a reorder naming it is refused.
    for (const proc of ['folders.byId', 'folders.playlist']) {
      const input = encodeURIComponent(JSON.stringify({ json: { id: mine.id } }))
      const res = await fetch(`${server.url}/api/trpc/${proc}?input=${input}`, { headers: { authorization: `Bearer ${t}` } })
      expect([proc, res.status]).toEqual([proc, 404])
    }
    expect((await api(server.url, 'PUT', '/user/folders/reorder', { token: t, body: { folderIds: [mine.id] } })).status).toBe(400)
    expect((await asMember('GET', `/user/folders/${mine.id}/playlist`)).status).toBe(200)
    expect((await asMember('GET', '/user/folders')).body.data.find((f: { id: string }) => f.id === mine.id).label).toBe('Mine')
  })

  test('reorder takes exactly the caller’s folder ids; the order is kept', async () => {
    const m = await createMember(server.url)
    for (const dir of ['a', 'b', 'c', 'o']) mkdirSync(path.join(server.mediaRoot, dir))
    const mk = async (label: string) =>
      (await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label, path: `/${label}` } })).body.data.id as string
    const [a, b, c] = [await mk('a'), await mk('b'), await mk('c')]
    const theirs = (await api(server.url, 'POST', '/user/folders', { token: other.token, body: { label: 'o', path: '/o' } })).body.data.id
    const put = (folderIds: unknown) => api(server.url, 'PUT', '/user/folders/reorder', { token: m.token, body: { folderIds } })
    const ok = await put([c, a, b])
    expect(ok.status).toBe(200)
    expect(ok.body.data.map((f: { id: string }) => f.id)).toEqual([c, a, b])
    for (const bad of [[c, a], [c, a, b, theirs], [c, a, a], [c, a, 'nope'], 'x', [1, 2, 3]]) expect((await put(bad)).status).toBe(400)
    expect((await put([c, a])).body.error).toBe('folderIds must list each of your folders exactly once')
    expect((await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data.map((f: { label: string }) => f.label)).toEqual(['c', 'a', 'b'])
  })

  test('a member can keep at most 500 folders', async () => {
    const m = await createMember(server.url)
    // 501 different folders: a member cannot save the same one twice.
    for (let i = 0; i <= 500; i++) mkdirSync(path.join(server.mediaRoot, `many/f${i}`), { recursive: true })
    for (let i = 0; i < 500; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: `f${i + j}`, path: `/many/f${i + j}` } }),
        ),
      )
    const over = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'one more', path: '/many/f500' } })
    expect(over).toMatchObject({ status: 400, body: { error: 'You can keep at most 500 folders' } })
    expect((await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data).toHaveLength(500)
  })
})

describe('folder playlists and the scans that index them', () => {
  test('a folder a scan walked before all its files were there lists all of them when saved and played', async () => {
    // As when the start-up scan walks the library while the admin is still copying files in: the
    // index holds the folder with half its files, and the folder changed after that scan started.
    const dir = path.join(server.mediaRoot, 'half-copied')
    makeTone(path.join(dir, '1.mp3'), { title: 'One', seconds: 1 })
    makeTone(path.join(dir, '2.mp3'), { title: 'Two', seconds: 1 })
    await scanLibraryNow(server.url, admin)
    makeTone(path.join(dir, '3.mp3'), { title: 'Three', seconds: 1 })
    makeTone(path.join(dir, '4.mp3'), { title: 'Four', seconds: 1 })
    const { token } = await createMember(server.url)
    const id = (await api(server.url, 'POST', '/user/folders', { token, body: { label: 'Half', path: '/half-copied' } })).body.data.id
    const res = await api(server.url, 'GET', `/user/folders/${id}/playlist`, { token })
    expect(res.body.data.map((t: { title: string }) => t.title)).toEqual(['One', 'Two', 'Three', 'Four'])
  })
})

describe('library playlist', () => {
  let tracks: any[]
  beforeAll(async () => {
    // A member of its own: the shared one saved /music/collection already, and cannot save it twice.
    const { token } = await createMember(server.url)
    const id = (await api(server.url, 'POST', '/user/folders', { token, body: { label: 'Collection', path: '/music/collection/' } })).body.data.id
    const res = await api(server.url, 'GET', `/user/folders/${id}/playlist`, { token })
    expect(res.status).toBe(200)
    tracks = res.body.data
    const again = await api(server.url, 'GET', `/user/folders/${id}/playlist`, { token })
    expect(again.body.data).toEqual(tracks)
  })

  test('media files in the folder and below, natural order, tags, signed URLs', () => {
    expect(tracks.map((t) => t.title)).toEqual(['First Light', 'Second Wind', '10 Tenth', 'Deep #1'])
    const [first, second, tenth, deep] = tracks
    expect(first).toMatchObject({ artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999, mime: 'audio/mpeg' })
    expect(first.duration).toBeGreaterThan(2.5)
    expect(first.duration).toBeLessThan(3.5)
    expect(first.cover).toMatch(/^\/media\/music\/collection\/1%20First\.mp3\?cover=1&exp=\d+&sig=/)
    expect(second).toMatchObject({ artist: 'Bo', album: 'Unknown Album' })
    expect(second.cover).toBeUndefined()
    expect(tenth).toMatchObject({ artist: '', album: 'Unknown Album' })
    expect(deep).toMatchObject({ mime: 'audio/wav' })
    expect(deep.url).toMatch(/^\/media\/music\/collection\/sub%20dir\/Deep%20%231\.wav\?exp=\d+&sig=[\w-]+$/)
    expect(JSON.stringify(tracks)).not.toContain('escape')
  })

  test('the playlist reads the index: a folder new on disk waits for a scan; a file removed shows at once, a re-tagged one after the next scan', async () => {
    const dir = path.join(server.mediaRoot, 'index-check')
    makeTone(path.join(dir, 'a.mp3'), { title: 'Before', seconds: 1 })
    makeTone(path.join(dir, 'b.mp3'), { title: 'Bee', seconds: 1 })
    makeTone(path.join(dir, 'c.mp3'), { title: 'Sea', seconds: 1 })
    // Saved after the last scan and not indexed: the first play asks for a scan and waits for it.
    const id = (await asMember('POST', '/user/folders', { label: 'Index', path: '/index-check' })).body.data.id
    const titles = async () => (await asMember('GET', `/user/folders/${id}/playlist`)).body.data.map((t: { title: string }) => t.title)
    expect(await titles()).toEqual(['Before', 'Bee', 'Sea'])
    // Re-tagged in place (the folder itself unchanged): the play lists what the last scan read (no
    // walk, no tag reading per request) …
    makeTone(path.join(dir, 'a.mp3'), { title: 'After and longer', seconds: 2 })
    expect(await titles()).toEqual(['Before', 'Bee', 'Sea'])
    // … and follows once a scan has run.
    await scanLibraryNow(server.url, admin)
    expect(await titles()).toEqual(['After and longer', 'Bee', 'Sea'])
    // A file removed changes the folder: its next play waits for a scan rather than list a file that is gone.
    rmSync(path.join(dir, 'b.mp3'))
    expect(await titles()).toEqual(['After and longer', 'Sea'])
    // The tags live in the index alone: the old per-file tag table is gone.
    const tables =
      TEST_ENGINE === 'postgres'
        ? "SELECT table_name AS name FROM information_schema.tables WHERE table_name = 'media_tags'"
        : "SELECT name FROM sqlite_master WHERE name = 'media_tags'"
    expect(await sqlOn(server, tables)).toEqual([])
  })

  test('a saved folder that is gone, or has become a link out of the library, is a 404 when played', async () => {
    // Saving refuses both (folder-save.http.test.ts); they can still change on disk afterwards.
    for (const dir of ['music/nowhere', 'music/relinked']) mkdirSync(path.join(server.mediaRoot, dir))
    const ids: string[] = []
    for (const p of ['/music/nowhere', '/music/relinked']) ids.push((await asMember('POST', '/user/folders', { label: 'x', path: p })).body.data.id)
    rmSync(path.join(server.mediaRoot, 'music/nowhere'), { recursive: true })
    rmSync(path.join(server.mediaRoot, 'music/relinked'), { recursive: true })
    symlinkSync(outside, path.join(server.mediaRoot, 'music/relinked'))
    for (const id of ids) {
      const res = await asMember('GET', `/user/folders/${id}/playlist`)
      expect(res.status).toBe(404)
      expect(res.body.error).toContain('Folder not found in the music library')
    }
    const empty = (await asMember('POST', '/user/folders', { label: 'e', path: '/empty' })).body.data.id
    expect((await asMember('GET', `/user/folders/${empty}/playlist`)).body).toEqual({ success: true, data: [] })
  })

  test('full file, HEAD, ranges byte for byte, 416', async () => {
    const file = readFileSync(path.join(server.mediaRoot, 'music/collection/1 First.mp3'))
    const url = server.url + tracks[0].url
    const full = await fetch(url)
    expect(full.status).toBe(200)
    expect(full.headers.get('content-type')).toBe('audio/mpeg')
    expect(full.headers.get('accept-ranges')).toBe('bytes')
    expect(Buffer.from(await full.arrayBuffer()).equals(file as Uint8Array)).toBe(true)

    const head = await fetch(url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(file.length))

    const ranges: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, file.length - 1],
      ['bytes=-500', file.length - 500, file.length - 1],
      [`bytes=${file.length - 10}-${file.length + 1000}`, file.length - 10, file.length - 1],
    ]
    for (const [range, start, end] of ranges) {
      const res = await fetch(url, { headers: { range } })
      expect(res.status).toBe(206)
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${file.length}`)
      expect(res.headers.get('content-length')).toBe(String(end - start + 1))
      expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(start, end + 1) as Uint8Array)).toBe(true)
    }
    const bad = await fetch(url, { headers: { range: `bytes=${file.length}-` } })
    expect(bad.status).toBe(416)
    expect(bad.headers.get('content-range')).toBe(`bytes */${file.length}`)
  })

  test('range edge cases: one byte, last byte, suffixes, multiple, reversed, garbage; HEAD with ranges', async () => {
    const file = readFileSync(path.join(server.mediaRoot, 'music/collection/1 First.mp3'))
    const size = file.length
    const url = server.url + tracks[0].url
    const cases: Array<[string, number, string | null, number, number]> = [
      // [Range header, status, Content-Range, first byte, last byte]
      ['bytes=0-0', 206, `bytes 0-0/${size}`, 0, 0],
      ['bytes=-1', 206, `bytes ${size - 1}-${size - 1}/${size}`, size - 1, size - 1],
      [`bytes=-${size * 10}`, 206, `bytes 0-${size - 1}/${size}`, 0, size - 1],
      ['bytes=0-', 206, `bytes 0-${size - 1}/${size}`, 0, size - 1],
      ['bytes=0-99999999999999999999', 206, `bytes 0-${size - 1}/${size}`, 0, size - 1],
      // Ignored (RFC 9110 lets a server send the whole file): several ranges, reversed, malformed.
      ['bytes=0-1,5-6', 200, null, 0, size - 1],
      ['bytes=9-2', 200, null, 0, size - 1],
      ['bytes=abc', 200, null, 0, size - 1],
      ['bytes=-', 200, null, 0, size - 1],
      ['items=0-5', 200, null, 0, size - 1],
    ]
    for (const [range, status, contentRange, start, end] of cases) {
      const res = await fetch(url, { headers: { range } })
      expect([range, res.status]).toEqual([range, status])
      expect(res.headers.get('content-range')).toBe(contentRange)
      expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(start, end + 1) as Uint8Array)).toBe(true)
    }
    for (const range of ['bytes=-0', `bytes=${size}-${size + 10}`, 'bytes=99999999999999999999-']) {
      const res = await fetch(url, { headers: { range } })
      expect([range, res.status, res.headers.get('content-range')]).toEqual([range, 416, `bytes */${size}`])
    }
    const head = await fetch(url, { method: 'HEAD', headers: { range: 'bytes=10-19' } })
    expect([head.status, head.headers.get('content-range'), head.headers.get('content-length')]).toEqual([206, `bytes 10-19/${size}`, '10'])
    expect((await head.arrayBuffer()).byteLength).toBe(0)
    expect((await fetch(url, { method: 'HEAD', headers: { range: `bytes=${size}-` } })).status).toBe(416)
    expect((await fetch(url, { method: 'POST' })).status).toBe(405)
  })

  test('curl (as VLC would) fetches the playlist URL without any header: bytes, type, 206 for -r 0-99', async () => {
    const file = readFileSync(path.join(server.mediaRoot, 'music/collection/1 First.mp3'))
    const url = server.url + tracks[0].url
    const curl = async (...args: string[]) => {
      const proc = Bun.spawn(['curl', '-sS', '-D', '-', '-o', '-', ...args, url], { stdout: 'pipe', stderr: 'pipe' })
      const out = Buffer.from(await new Response(proc.stdout).arrayBuffer())
      expect(await proc.exited).toBe(0)
      const split = out.indexOf('\r\n\r\n')
      return { head: out.subarray(0, split).toString('latin1'), body: out.subarray(split + 4) }
    }
    const full = await curl()
    expect(full.head).toMatch(/^HTTP\/1\.1 200/)
    expect(full.head).toMatch(/\r\ncontent-type: audio\/mpeg\r\n/i)
    expect(full.body.equals(file as Uint8Array)).toBe(true)
    const part = await curl('-r', '0-99')
    expect(part.head).toMatch(/^HTTP\/1\.1 206/)
    expect(part.head).toMatch(new RegExp(`\\r\\ncontent-range: bytes 0-99/${file.length}\\r\\n`, 'i'))
    expect(part.body.equals(file.subarray(0, 100) as Uint8Array)).toBe(true)
  })

  test('ETag / Last-Modified and conditional requests', async () => {
    const url = server.url + tracks[1].url
    const first = await fetch(url)
    await first.arrayBuffer()
    const etag = first.headers.get('etag')!
    const lastModified = first.headers.get('last-modified')!
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304)
    expect((await fetch(url, { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
    expect((await fetch(url, { headers: { 'if-modified-since': lastModified } })).status).toBe(304)
    expect((await fetch(url, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304)
    // A date in the future is invalid and ignored; so is garbage.
    expect((await fetch(url, { headers: { 'if-modified-since': 'Thu, 01 Jan 2099 00:00:00 GMT' } })).status).toBe(200)
    expect((await fetch(url, { headers: { 'if-modified-since': 'yesterday' } })).status).toBe(200)
    expect((await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': etag } })).status).toBe(206)
    const stale = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"stale"' } })
    expect(stale.status).toBe(200)
    expect(Number(stale.headers.get('content-length'))).toBeGreaterThan(10)
  })

  test('cover art is served from the tags, signed the same way', async () => {
    const res = await fetch(server.url + tracks[0].cover)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG')
    const u = new URL(tracks[0].cover, server.url)
    u.searchParams.delete('cover')
    expect((await fetch(u)).status).toBe(403)
  })

  test('unsigned, tampered and expired URLs are 403', async () => {
    const signed = new URL(tracks[0].url, server.url)
    expect((await fetch(`${server.url}${signed.pathname}`)).status).toBe(403)
    const tampered = new URL(signed)
    tampered.pathname = '/media/music/collection/2%20Second.mp3'
    expect((await fetch(tampered)).status).toBe(403)
    const longer = new URL(signed)
    longer.searchParams.set('exp', String(Number(signed.searchParams.get('exp')) + 3600))
    expect((await fetch(longer)).status).toBe(403)
    const expired = signMediaUrl(SECRET, 'music/collection/1 First.mp3', 'file', Math.floor(Date.now() / 1000) - 3 * 86_400)
    const res = await fetch(server.url + expired)
    expect(res.status).toBe(403)
    expect(await res.text()).toBe('Media link expired')
  })

  test('no way out of MEDIA_ROOT: dot segments, encodings, NUL, symlinks — even when signed', async () => {
    const rel = path.relative(server.mediaRoot, path.join(outside, 'canary.mp3'))
    const q = (p: string) => new URL(signMediaUrl(SECRET, p), 'http://x').search
    const attempts = [
      `/media/${rel}${q(rel)}`,
      `/media/../${path.basename(outside)}/canary.mp3${q(`../${path.basename(outside)}/canary.mp3`)}`,
      `/media/%2e%2e/%2e%2e${outside}/canary.mp3${q(`../..${outside}/canary.mp3`)}`,
      `/media/%252e%252e/%252e%252e${outside}/canary.mp3`,
      `/media/..%2f..%2f..${outside}/canary.mp3`,
      `/media/music%2f..%2f..%2f${rel}`,
      `/media/music/collection/1%20First.mp3%00${q('music/collection/1 First.mp3\0')}`,
      `/media/music/collection/zz%20escape.mp3${q('music/collection/zz escape.mp3')}`,
      `/media/music/linked-out/canary.mp3${q('music/linked-out/canary.mp3')}`,
      `/media/${encodeURIComponent(outside + '/canary.mp3')}`,
    ]
    for (const target of attempts) {
      const res = await rawGet(target)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expect(res.text).not.toContain(CANARY)
    }
    // The symlink that stays inside the library still works: signed + inside = served.
    const ok = await rawGet(new URL(tracks[0].url, 'http://x').pathname + q('music/collection/1 First.mp3'))
    expect(ok.status).toBe(200)
  })
})
