// A 5,000-track queue of library tracks saves (the most a queue may hold), on the real
// built server with a scanned library of 5,000 files: the player's signed library URLs with their
// tags are over the 1 MB body limit (413), so the player sends each library track as its bare
// path (queuedTrackOf), and GET /api/playlist/queue answers its usual shape again: every
// URL freshly signed and playable, with the library's tags.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { linkSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl, verifyMediaSignature } from '~/server/media/sign'
import { PLAY_QUEUE_LIMITS, queuedTrackOf } from '~/shared/player/play-queue'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'play-queue-library-secret-0123456789abcdef'
const MAX_BODY = 1024 * 1024
let server: TestServer
let member: Awaited<ReturnType<typeof createMember>>

/** 4,999 hard links of one tagged tone in 100 album folders, and one track of its own. */
const paths: string[] = []

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
  const lib = (p: string) => path.join(server.mediaRoot, p)
  makeTone(lib('Jazz/01 So What.mp3'), { title: 'So What', artist: 'Miles Davis', album: 'Kind of Blue', seconds: 2 })
  paths.push('Jazz/01 So What.mp3')
  const seed = lib('seed/Seed.mp3')
  makeTone(seed, { title: 'Seed Tone', artist: 'The Bench Ensemble', album: 'Generated Sessions', seconds: 1 })
  for (let i = 1; i < PLAY_QUEUE_LIMITS.tracks; i++) {
    const rel = `Artist Number ${i % 40}/A Reasonably Long Album Title ${i % 100}/${String(i).padStart(4, '0')} - A Fairly Long Song Title ${i}.mp3`
    mkdirSync(path.dirname(lib(rel)), { recursive: true })
    linkSync(seed, lib(rel))
    paths.push(rel)
  }
  const admin = await loginAdmin(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; ; i++) {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    if (!status.body.data.scanning) break
    if (i > 1200) throw new Error('scan did not finish')
    await Bun.sleep(50)
  }
  member = await createMember(server.url)
}, 120_000)

afterAll(async () => {
  await server.stop()
})

test('5,000 library tracks save as bare paths and come back signed, with their tags', async () => {
  // The tracks as the player holds them: signed URLs and tags, as the library listed them.
  const held = paths.map((p, i) => ({
    url: signMediaUrl(SECRET, p),
    title: i === 0 ? 'So What' : 'Seed Tone',
    artist: i === 0 ? 'Miles Davis' : 'The Bench Ensemble',
    album: i === 0 ? 'Kind of Blue' : 'Generated Sessions',
    duration: i === 0 ? 2 : 1,
    mime: 'audio/mpeg',
  }))
  const full = { tracks: held, index: 4321, positionSec: 12.5, device: 'Laptop' }
  expect(JSON.stringify(full).length).toBeGreaterThan(MAX_BODY)
  expect((await api(server.url, 'PUT', '/playlist/queue', { token: member.token, body: full })).status).toBe(413)

  const compact = { ...full, tracks: held.map(queuedTrackOf) }
  const size = JSON.stringify(compact).length
  console.log(`5,000 library tracks: ${(JSON.stringify(full).length / 1024).toFixed(0)} KiB signed with tags, ${(size / 1024).toFixed(0)} KiB as bare paths`)
  expect(size).toBeLessThan(MAX_BODY)
  const put = await api(server.url, 'PUT', '/playlist/queue', { token: member.token, body: compact })
  expect(put.status).toBe(200)

  const got = await api(server.url, 'GET', '/playlist/queue', { token: member.token })
  const q = got.body.data
  expect({ index: q.index, positionSec: q.positionSec, device: q.device, count: q.tracks.length }).toEqual({
    index: 4321,
    positionSec: 12.5,
    device: 'Laptop',
    count: 5000,
  })
  expect(Object.keys(q.tracks[0]).sort()).toEqual(['album', 'artist', 'duration', 'mime', 'title', 'url'])
  expect(q.tracks[0]).toMatchObject({ title: 'So What', artist: 'Miles Davis', album: 'Kind of Blue', mime: 'audio/mpeg' })
  expect(q.tracks[0].duration).toBeCloseTo(2, 0)
  expect(q.tracks[4999]).toMatchObject({ title: 'Seed Tone', artist: 'The Bench Ensemble', album: 'Generated Sessions' })
  for (const [i, t] of (q.tracks as Array<{ url: string }>).entries()) {
    const u = new URL(t.url, 'http://x')
    expect(verifyMediaSignature(SECRET, paths[i], 'file', u.searchParams.get('exp'), u.searchParams.get('sig'))).toBe('ok')
  }
  const played = await fetch(server.url + q.tracks[4999].url)
  expect(played.status).toBe(200)
  expect(played.headers.get('content-type')).toContain('audio/mpeg')
})

test('only what the index holds is signed: a bare path the scan has not seen, a hidden file or a non-media path comes back as saved and /media refuses it', async () => {
  makeTone(path.join(server.mediaRoot, 'Late/Added After Scan.mp3'), { seconds: 1 })
  // The scanner skips dot-names: a file under a hidden folder is never in the index.
  makeTone(path.join(server.mediaRoot, '.hidden/secret.mp3'), { seconds: 1 })
  const unsigned = ['/media/Late/Added%20After%20Scan.mp3', '/media/.hidden/secret.mp3', '/media/Late/notes.txt']
  const tracks = [{ url: '/media/Jazz/01%20So%20What.mp3' }, ...unsigned.map((url) => ({ url }))]
  expect((await api(server.url, 'PUT', '/playlist/queue', { token: member.token, body: { tracks, index: 0, positionSec: 0 } })).status).toBe(200)
  const [library, ...rest] = (await api(server.url, 'GET', '/playlist/queue', { token: member.token })).body.data.tracks
  expect(library).toMatchObject({ title: 'So What', artist: 'Miles Davis' })
  expect((await fetch(server.url + library.url)).status).toBe(200)
  expect(rest.map((t: { url: string }) => t.url)).toEqual(unsigned)
  for (const t of rest) expect({ url: t.url, status: (await fetch(server.url + t.url)).status }).toEqual({ url: t.url, status: 403 })
})
