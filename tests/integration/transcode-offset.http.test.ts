// The OpenSubsonic transcodeOffset extension against the built server and the real ffmpeg: a
// 10 s FLAC whose first half is a 440 Hz tone and second half 880 Hz. stream?format=mp3&
// timeOffset=6 answers MP3 that lasts about 4 s and starts in the second half; a timeOffset that
// is not a number of seconds within the track is error 0 naming it; a raw stream ignores it; the
// offset is signed into the /media URL (an edited one is 403); conversions from an offset are not
// cached; the extension is advertised.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ffmpeg } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, parseXml } from '../helpers/xml'

const SECRET = 'transcode-offset-test-secret-0123456789'
const HALVES = 'Tones/Halves/Halves.flac'
let server: TestServer
let key: string
let songId: string
const work = mkdtempSync(path.join(tmpdir(), 'vibes-offset-'))

/** Duration (s) of audio bytes, read by ffprobe. */
function durationOf(bytes: Uint8Array): number {
  const file = path.join(work, `probe-${crypto.randomUUID()}`)
  writeFileSync(file, bytes)
  const r = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { stdout: 'pipe' })
  rmSync(file)
  return Number(r.stdout.toString().trim())
}

/** The frequency (Hz) near the start of audio bytes (0.1 s to 0.5 s, past the encoder's leading silence): zero crossings of the decoded samples. */
function firstFrequencyOf(bytes: Uint8Array): number {
  const file = path.join(work, `pcm-${crypto.randomUUID()}`)
  writeFileSync(file, bytes)
  const rate = 22050
  const r = Bun.spawnSync(['ffmpeg', '-v', 'error', '-i', file, '-ss', '0.1', '-t', '0.4', '-ac', '1', '-ar', String(rate), '-f', 's16le', 'pipe:1'], {
    stdout: 'pipe',
  })
  rmSync(file)
  const pcm = new Int16Array(r.stdout.buffer, r.stdout.byteOffset, Math.floor(r.stdout.byteLength / 2))
  let crossings = 0
  for (let i = 1; i < pcm.length; i++) if (pcm[i - 1] < 0 !== pcm[i] < 0) crossings++
  return crossings / 2 / (pcm.length / rate)
}

async function rest(method: string, params: Record<string, string>) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ apiKey: key, c: 'vibes-test', v: '1.16.1', ...params })) url.searchParams.set(k, v)
  return fetch(url)
}

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
  mkdirSync(path.dirname(path.join(server.mediaRoot, HALVES)), { recursive: true })
  ffmpeg(
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=5', '-f', 'lavfi', '-i', 'sine=frequency=880:duration=5'],
    ...['-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1', '-ac', '1', '-ar', '22050', '-metadata', 'title=Halves'],
    path.join(server.mediaRoot, HALVES),
  )
  const admin = await loginAdmin(server.url)
  const member = await createMember(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 200 && (await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning; i++) await Bun.sleep(50)
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Symfonium', currentPassword: member.password } })
  expect(created.status).toBe(201)
  key = created.body.data.key
  const found = await (await rest('search3', { query: 'Halves', f: 'json' })).json()
  songId = found['subsonic-response'].searchResult3.song[0].id
})
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('transcodeOffset', () => {
  test('getOpenSubsonicExtensions lists transcodeOffset version 1', async () => {
    const body = await (await fetch(`${server.url}/rest/getOpenSubsonicExtensions?f=json`)).json()
    expect(body['subsonic-response'].openSubsonicExtensions).toContainEqual({ name: 'transcodeOffset', versions: [1] })
  })

  test('format=mp3 without an offset is the whole track from its first half (440 Hz)', async () => {
    const res = await rest('stream', { id: songId, format: 'mp3' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(Math.abs(durationOf(bytes) - 10)).toBeLessThan(0.3)
    expect(Math.abs(firstFrequencyOf(bytes) - 440)).toBeLessThan(40)
  })

  // Runs after the whole track was converted: its cached copy is not what an offset gets.
  test('format=mp3&timeOffset=6 starts the conversion 6 s in: about 4 s of the second half (880 Hz)', async () => {
    for (const timeOffset of ['6', '6.0']) {
      const res = await rest('stream', { id: songId, format: 'mp3', timeOffset })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('audio/mpeg')
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(Math.abs(durationOf(bytes) - 4)).toBeLessThan(0.3)
      expect(Math.abs(firstFrequencyOf(bytes) - 880)).toBeLessThan(40)
    }
    // At another MP3 rate too.
    const rated = await rest('stream', { id: songId, format: 'mp3', maxBitRate: '128', timeOffset: '6' })
    expect(rated.headers.get('content-type')).toBe('audio/mpeg')
    expect(Math.abs(durationOf(new Uint8Array(await rated.arrayBuffer())) - 4)).toBeLessThan(0.3)
  })

  test('a timeOffset that is not a number of seconds inside the track is error 0 naming it, HTTP 200', async () => {
    for (const timeOffset of ['-1', 'abc', '1e9', '10', '11', 'Infinity', 'NaN', '0x10', ' 6', '6s']) {
      const res = await rest('stream', { id: songId, format: 'mp3', timeOffset })
      expect(res.status).toBe(200)
      const error = childOf(parseXml(await res.text()), 'error')
      expect(error.attributes.code).toBe('0')
      expect(error.attributes.message).toContain('timeOffset')
    }
  })

  test('a raw stream ignores timeOffset: the file as it is, with ranges', async () => {
    const original = new Uint8Array(readFileSync(path.join(server.mediaRoot, HALVES)))
    for (const params of [{ timeOffset: '6' }, { format: 'raw', timeOffset: '6' }] as Record<string, string>[]) {
      const res = await rest('stream', { id: songId, ...params })
      expect(res.status).toBe(200)
      expect(res.headers.get('accept-ranges')).toBe('bytes')
      expect(Buffer.from(await res.arrayBuffer()).equals(original)).toBe(true)
    }
  })

  test('the offset is signed into the /media URL: an edited or dropped offset is 403, a malformed one 400', async () => {
    const signed = new URL(signMediaUrl(SECRET, HALVES, 'mp3', undefined, undefined, 6000), server.url)
    const ok = await fetch(signed)
    expect(ok.status).toBe(200)
    expect(Math.abs(durationOf(new Uint8Array(await ok.arrayBuffer())) - 4)).toBeLessThan(0.3)
    for (const [start, status] of [
      ['1000', 403],
      [null, 403],
      ['-1', 400],
      ['6e3', 400],
      ['abc', 400],
    ] as const) {
      const edited = new URL(signed)
      if (start === null) edited.searchParams.delete('start')
      else edited.searchParams.set('start', start)
      expect((await fetch(edited)).status).toBe(status)
    }
    // An offset on the original file (no conversion) is refused, not ignored.
    const file = new URL(signMediaUrl(SECRET, HALVES, 'file'), server.url)
    file.searchParams.set('start', '6000')
    expect((await fetch(file)).status).toBe(400)
  })

  test('conversions with an offset skip the cache: only the whole track was kept, and it is whole', async () => {
    const dir = path.join(server.dataDir, 'transcode-cache')
    let files: string[] = []
    for (let i = 0; i < 200; i++) {
      files = readdirSync(dir)
      if (!files.some((f) => f.endsWith('.part'))) break
      await Bun.sleep(50)
    }
    expect(files).toHaveLength(1)
    expect(Math.abs(durationOf(new Uint8Array(readFileSync(path.join(dir, files[0])))) - 10)).toBeLessThan(0.3)
  })
})
