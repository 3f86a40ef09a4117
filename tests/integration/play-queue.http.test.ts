// A member's play queue (at most 5,000 tracks): GET/PUT /api/playlist/queue on the
// real built server with a real SQLite file. The web player resumes from it on another device,
// so: it round-trips, it is private to its member, the newest save wins, and bad input is a 400
// naming the problem.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { signMediaUrl, verifyMediaSignature } from '~/server/media/sign'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'play-queue-test-secret-0123456789abcdef'
let server: TestServer

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
})
afterAll(async () => {
  await server.stop()
})

const remote = (n: number) => ({
  url: `https://music.example.com/album/${n}.mp3`,
  title: `Song ${n}`,
  artist: 'Band',
  album: 'Album',
  duration: 180 + n,
  mime: 'audio/mpeg',
})

describe('GET/PUT /api/playlist/queue', () => {
  test('a member with no saved queue gets an empty one', async () => {
    const m = await createMember(server.url)
    const res = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' })
  })

  test('a saved queue comes back as it was sent, with the time it was saved', async () => {
    const m = await createMember(server.url)
    const tracks = [remote(1), remote(2), remote(3)]
    const before = Date.now()
    const put = await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks, index: 1, positionSec: 42.5, device: 'Firefox on Windows' } })
    expect(put.status).toBe(200)
    expect(put.body.data.updatedAt).toBeGreaterThanOrEqual(before)
    const res = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ tracks, index: 1, positionSec: 42.5, updatedAt: put.body.data.updatedAt, device: 'Firefox on Windows' })
  })

  test('without a device the server names it from the User-Agent', async () => {
    const m = await createMember(server.url)
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks: [remote(1)], index: 0, positionSec: 0 }, headers: { 'user-agent': ua } })
    const res = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    expect(res.body.data.device).toBe('Chrome on Linux')
  })

  test('anonymous callers get 401 on both', async () => {
    const get = await api(server.url, 'GET', '/playlist/queue')
    expect(get.status).toBe(401)
    expect(get.body.success).toBe(false)
    const put = await api(server.url, 'PUT', '/playlist/queue', { body: { tracks: [remote(1)], index: 0, positionSec: 0 } })
    expect(put.status).toBe(401)
  })

  test('5,001 tracks are a 400 naming the limit, and nothing is saved', async () => {
    const m = await createMember(server.url)
    const tracks = Array.from({ length: 5001 }, (_, i) => ({
      url: `/media/a/${i}.mp3`,
      title: `T${i}`,
      artist: '',
      album: '',
      duration: 1,
      mime: 'audio/mpeg',
    }))
    const res = await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks, index: 0, positionSec: 0 } })
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.error).toContain('at most 5000 tracks')
    const after = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    expect(after.body.data.tracks).toEqual([])
    // 5,000 is allowed.
    const ok = await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks: tracks.slice(0, 5000), index: 4999, positionSec: 0 } })
    expect(ok.status).toBe(200)
  })

  test.each([
    ['an index past the end', { tracks: [remote(1)], index: 1, positionSec: 0 }, 'Index must point at one of the tracks'],
    [
      'a local blob URL',
      { tracks: [{ ...remote(1), url: 'blob:http://localhost/x' }], index: 0, positionSec: 0 },
      'Track URL must start with http://, https:// or /media/',
    ],
    ['a javascript URL', { tracks: [{ ...remote(1), url: 'javascript:alert(1)' }], index: 0, positionSec: 0 }, 'Track URL must start with'],
    ...['/media/../../etc/passwd', '/media/%2e%2e/%2E%2e/etc/passwd', '/media/Jazz/..%2f..%2f..%2fetc/passwd', '/media/Jazz/%zz.mp3'].map(
      (url) => [`the library path ${url}`, { tracks: [{ url }], index: 0, positionSec: 0 }, 'Track URL must be a file path inside the library'] as const,
    ),
    ['a negative position', { tracks: [remote(1)], index: 0, positionSec: -1 }, 'Position must be at least 0'],
    ['tracks that are not a list', { tracks: 'x', index: 0, positionSec: 0 }, 'Tracks must be a list'],
    ['an unknown field', { tracks: [], index: 0, positionSec: 0, owner: 'x' }, 'owner'],
  ])('%s is a 400 naming the problem', async (_name, body, message) => {
    const m = await createMember(server.url)
    const res = await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body })
    expect(res.status).toBe(400)
    expect(res.body.success).toBe(false)
    expect(res.body.error).toContain(message)
  })

  test("one member never sees another's queue", async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    await api(server.url, 'PUT', '/playlist/queue', { token: a.token, body: { tracks: [remote(7)], index: 0, positionSec: 5, device: 'A' } })
    const res = await api(server.url, 'GET', '/playlist/queue', { token: b.token })
    expect(res.body.data.tracks).toEqual([])
    await api(server.url, 'PUT', '/playlist/queue', { token: b.token, body: { tracks: [remote(8)], index: 0, positionSec: 1, device: 'B' } })
    const again = await api(server.url, 'GET', '/playlist/queue', { token: a.token })
    expect(again.body.data.tracks).toEqual([remote(7)])
    expect(again.body.data.device).toBe('A')
  })

  test('the newest save wins', async () => {
    const m = await createMember(server.url)
    await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks: [remote(1), remote(2)], index: 1, positionSec: 10, device: 'Phone' } })
    const second = await api(server.url, 'PUT', '/playlist/queue', {
      token: m.token,
      body: { tracks: [remote(3)], index: 0, positionSec: 20, device: 'Laptop' },
    })
    const res = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    expect(res.body.data).toEqual({ tracks: [remote(3)], index: 0, positionSec: 20, updatedAt: second.body.data.updatedAt, device: 'Laptop' })
  })

  test('an expired library URL of an indexed file comes back signed afresh; one the index does not hold, or a forged one, comes back untouched', async () => {
    makeTone(path.join(server.mediaRoot, 'Jazz/01 So What.mp3'), { seconds: 1 })
    makeTone(path.join(server.mediaRoot, '.hidden/secret.mp3'), { seconds: 1 })
    await scanLibraryNow(server.url, await loginAdmin(server.url))
    const m = await createMember(server.url)
    const longAgo = Math.floor(Date.now() / 1000) - 30 * 24 * 3600
    const expired = signMediaUrl(SECRET, 'Jazz/01 So What.mp3', 'file', longAgo)
    const hidden = signMediaUrl(SECRET, '.hidden/secret.mp3', 'file', longAgo)
    const forged = '/media/Other/secret.mp3?exp=9999999999&sig=forged'
    const tracks = [
      { ...remote(1), url: expired },
      { ...remote(2), url: forged },
      { ...remote(3), url: hidden },
    ]
    await api(server.url, 'PUT', '/playlist/queue', { token: m.token, body: { tracks, index: 0, positionSec: 0 } })
    const res = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
    const [fresh] = res.body.data.tracks.map((t: { url: string }) => new URL(t.url, 'http://x'))
    expect(fresh.pathname).toBe('/media/Jazz/01%20So%20What.mp3')
    expect(verifyMediaSignature(SECRET, 'Jazz/01 So What.mp3', 'file', fresh.searchParams.get('exp'), fresh.searchParams.get('sig'))).toBe('ok')
    expect(res.body.data.tracks.slice(1).map((t: { url: string }) => t.url)).toEqual([forged, hidden])
    expect((await fetch(server.url + res.body.data.tracks[2].url)).status).toBe(403)
  })
})
