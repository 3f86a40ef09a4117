// MEDIA_OFFLOAD=nginx against a real nginx in front of the built server: nginx proxies to Vibes,
// Vibes checks the signed /media URL and answers X-Accel-Redirect, and nginx's `internal`
// locations (aliasing MEDIA_ROOT and the converted-media cache) send the bytes. A user relies on:
// the whole file, a 1 MiB Range, 304s for If-None-Match and If-Modified-Since, the security
// headers, refusals that stay Vibes' (unsigned, tampered, expired, a link out of MEDIA_ROOT, the
// internal location asked for directly), a converted copy offloaded once it is cached, and
// /rest/stream of an original file offloaded the same way.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { type ListingServer, startNginx } from '../helpers/listing-servers'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'offload-secret-'.repeat(4)
const PREFIX = '/_vibes_media/'
const BIG = 'Album/big track.mp3'
const MIB = 1024 * 1024
const ODD = 'Album/a?b%c#d é 100%.mp3'
const bytes = new Uint8Array(3 * MIB).map((_, i) => (i * 2654435761) >>> 24)

let server: TestServer
let nginx: ListingServer
const viaNginx = (url: string, init?: RequestInit) => fetch(nginx.url + url, init)

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET, MEDIA_OFFLOAD: 'nginx' })
  mkdirSync(path.join(server.mediaRoot, 'Album'), { recursive: true })
  writeFileSync(path.join(server.mediaRoot, BIG), bytes)
  writeFileSync(path.join(server.dataDir, 'outside.mp3'), 'not in the library')
  symlinkSync(path.join(server.dataDir, 'outside.mp3'), path.join(server.mediaRoot, 'Album/link out.mp3'))
  mkdirSync(path.join(server.mediaRoot, '.transcode-cache'))
  writeFileSync(path.join(server.mediaRoot, '.transcode-cache/own.mp3'), 'a library file, not a converted copy')
  writeFileSync(path.join(server.mediaRoot, ODD), 'odd name')
  makeTone(path.join(server.mediaRoot, 'Tones/chime.wma'), { title: 'Chime', artist: 'Offload', seconds: 2 })
  makeTone(path.join(server.mediaRoot, 'Tones/plain.mp3'), { title: 'Plain', artist: 'Offload', seconds: 2 })
  // What the README shows, minus the TLS: the cache's location is the longer prefix, so it wins.
  const headers = `add_header X-Content-Type-Options nosniff always; add_header Content-Security-Policy "default-src 'none'; sandbox" always;`
  nginx = await startNginx(
    server.mediaRoot,
    '127.0.0.1',
    `
    location ${PREFIX}.transcode-cache/ { internal; alias ${server.dataDir}/transcode-cache/; ${headers} }
    location ${PREFIX} { internal; alias ${server.mediaRoot}/; ${headers} }
    location / { proxy_pass http://127.0.0.1:${server.port}; proxy_set_header Host $host; }
    `,
  )
})
afterAll(async () => {
  await nginx?.stop()
  await server?.stop()
})

describe('original files', () => {
  test('Vibes names the checked file in X-Accel-Redirect and sends no body', async () => {
    const res = await fetch(server.url + signMediaUrl(SECRET, BIG))
    expect(res.status).toBe(200)
    expect(res.headers.get('x-accel-redirect')).toBe(`${PREFIX}Album/big%20track.mp3`)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    expect((await res.arrayBuffer()).byteLength).toBe(0)
  })

  test('through nginx: the whole file with its type, caching and security headers', async () => {
    const res = await viaNginx(signMediaUrl(SECRET, BIG))
    expect(res.status).toBe(200)
    expect(res.headers.get('server')).toStartWith('nginx')
    expect(res.headers.get('x-accel-redirect')).toBeNull()
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(res.headers.get('etag')).toBeTruthy()
    expect(res.headers.get('last-modified')).toBeTruthy()
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes)
  })

  test('a 1 MiB Range, an open-ended Range and a HEAD', async () => {
    const range = await viaNginx(signMediaUrl(SECRET, BIG), { headers: { range: `bytes=${MIB}-${2 * MIB - 1}` } })
    expect(range.status).toBe(206)
    expect(range.headers.get('content-range')).toBe(`bytes ${MIB}-${2 * MIB - 1}/${bytes.length}`)
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.slice(MIB, 2 * MIB))
    const tail = await viaNginx(signMediaUrl(SECRET, BIG), { headers: { range: `bytes=${bytes.length - 10}-` } })
    expect(tail.status).toBe(206)
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-10))
    const head = await viaNginx(signMediaUrl(SECRET, BIG), { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(bytes.length))
  })

  test('If-None-Match and If-Modified-Since answer 304', async () => {
    const first = await viaNginx(signMediaUrl(SECRET, BIG))
    await first.arrayBuffer()
    const etag = first.headers.get('etag')!
    const byTag = await viaNginx(signMediaUrl(SECRET, BIG), { headers: { 'if-none-match': etag } })
    expect(byTag.status).toBe(304)
    const byDate = await viaNginx(signMediaUrl(SECRET, BIG), { headers: { 'if-modified-since': first.headers.get('last-modified')! } })
    expect(byDate.status).toBe(304)
    const changed = await viaNginx(signMediaUrl(SECRET, BIG), { headers: { 'if-none-match': '"something-else"' } })
    expect(changed.status).toBe(200)
    await changed.arrayBuffer()
  })

  test('refusals stay Vibes’: unsigned, tampered, expired, another file’s signature, a link out of MEDIA_ROOT', async () => {
    const signed = signMediaUrl(SECRET, BIG)
    const expired = signMediaUrl(SECRET, BIG, 'file', Math.floor(Date.now() / 1000) - 3 * 24 * 3600)
    const otherFile = signed.replace('big%20track.mp3', 'chime.wma')
    for (const [url, status] of [
      ['/media/Album/big%20track.mp3', 403],
      [signed.slice(0, -1) + (signed.endsWith('A') ? 'B' : 'A'), 403],
      [expired, 403],
      [otherFile, 403],
      [signMediaUrl(SECRET, 'Album/link out.mp3'), 404],
      [signMediaUrl(SECRET, 'Album/missing.mp3'), 404],
    ] as const) {
      const res = await viaNginx(url)
      const body = await res.text()
      expect({ url, status: res.status }).toEqual({ url, status })
      expect(res.headers.get('x-accel-redirect')).toBeNull()
      expect(body).not.toContain('not in the library')
    }
  })

  test('a name with ?, %, # and accents reaches nginx percent-encoded and is found', async () => {
    const direct = await fetch(server.url + signMediaUrl(SECRET, ODD))
    expect(direct.headers.get('x-accel-redirect')).toBe(`${PREFIX}Album/a%3Fb%25c%23d%20%C3%A9%20100%25.mp3`)
    await direct.arrayBuffer()
    const res = await viaNginx(signMediaUrl(SECRET, ODD))
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('odd name')
  })

  test('a library folder named like the cache location is served by Vibes, never looked up in the cache', async () => {
    const url = signMediaUrl(SECRET, '.transcode-cache/own.mp3')
    const direct = await fetch(server.url + url)
    expect(direct.headers.get('x-accel-redirect')).toBeNull()
    expect(await direct.text()).toBe('a library file, not a converted copy')
    const res = await viaNginx(url)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('a library file, not a converted copy')
  })

  test('the internal locations cannot be asked for directly', async () => {
    for (const url of [`${PREFIX}Album/big%20track.mp3`, `${PREFIX}.transcode-cache/`, `${PREFIX}../vibes.db`]) {
      const res = await viaNginx(url)
      expect({ url, status: res.status }).toEqual({ url, status: 404 })
      await res.arrayBuffer()
    }
  })
})

describe('converted media', () => {
  test('streams while it converts, then the cached copy is offloaded: whole, Range and 304 through nginx', async () => {
    const url = signMediaUrl(SECRET, 'Tones/chime.wma', 'mp3')
    const live = await viaNginx(url)
    expect(live.status).toBe(200)
    expect(live.headers.get('content-type')).toBe('audio/mpeg')
    const streamed = new Uint8Array(await live.arrayBuffer())
    expect(streamed.length).toBeGreaterThan(1000)

    const cacheDir = path.join(server.dataDir, 'transcode-cache')
    for (let i = 0; i < 200 && !(existsSync(cacheDir) && readdirSync(cacheDir).some((n) => n.endsWith('.mp3'))); i++) await Bun.sleep(50)
    const [cached] = readdirSync(cacheDir).filter((n) => n.endsWith('.mp3'))
    expect(cached).toBeDefined()

    const direct = await fetch(server.url + url)
    expect(direct.headers.get('x-accel-redirect')).toBe(`${PREFIX}.transcode-cache/${cached}`)
    expect((await direct.arrayBuffer()).byteLength).toBe(0)

    const copy = new Uint8Array(readFileSync(path.join(cacheDir, cached)))
    const whole = await viaNginx(url)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('audio/mpeg')
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(copy)
    const range = await viaNginx(url, { headers: { range: 'bytes=100-1123' } })
    expect(range.status).toBe(206)
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(copy.slice(100, 1124))
    // A hit marks the copy used without changing what nginx derives its validators from (the
    // mtime, in whole seconds: so the next hit comes a second later).
    await Bun.sleep(1100)
    const again = await viaNginx(url, { headers: { 'if-none-match': whole.headers.get('etag')! } })
    expect(again.status).toBe(304)
  })
})

describe('/rest/stream', () => {
  test('an original file is offloaded, Range included', async () => {
    const admin = await loginAdmin(server.url)
    expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin })).status).toBe(202)
    for (let i = 0; i < 200 && (await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning; i++) await Bun.sleep(50)
    const member = await createMember(server.url)
    const appKey = (await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Offload', currentPassword: member.password } })).body
      .data.key
    const listed = await api(server.url, 'GET', `/library/folders?path=${encodeURIComponent('Tones')}`, { token: member.token })
    const plain = (listed.body.data.tracks as Array<{ id: string; title: string }>).find((t) => t.title === 'Plain')!
    const file = new Uint8Array(readFileSync(path.join(server.mediaRoot, 'Tones/plain.mp3')))
    const stream = `/rest/stream.view?apiKey=${appKey}&c=test&v=1.16.1&id=${encodeURIComponent(plain.id)}`

    const direct = await fetch(server.url + stream)
    expect(direct.headers.get('x-accel-redirect')).toBe(`${PREFIX}Tones/plain.mp3`)
    await direct.arrayBuffer()
    const whole = await viaNginx(stream)
    expect(whole.status).toBe(200)
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(file)
    const range = await viaNginx(stream, { headers: { range: 'bytes=0-99' } })
    expect(range.status).toBe(206)
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(file.slice(0, 100))
    const refused = await viaNginx(stream.replace(appKey, `${appKey}x`))
    expect(refused.headers.get('content-type')).not.toBe('audio/mpeg')
    await refused.arrayBuffer()
  })
})
