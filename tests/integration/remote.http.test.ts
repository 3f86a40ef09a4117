// Remote folders against real listing servers on loopback (nginx autoindex, Apache
// mod_autoindex, Python http.server, Caddy file_server browse), M3U/PLS/JSON playlists, and
// every address-policy refusal.
// The listing servers bind 127.0.0.2, the one host REMOTE_ALLOW_HOSTS lets through; every other
// loopback spelling must be refused before any connection is made.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ffmpeg, makeTone, makeToneWithPicture } from '../helpers/media'
import { openUp, startApache, startCaddy, startNginx, startPython, type ListingServer } from '../helpers/listing-servers'
import { startServer, type TestServer } from '../helpers/server'

const HOST = '127.0.0.2'
const FILES = [
  '01 Intro.mp3',
  '10 Ten.mp3',
  '2 Two.mp3',
  'Rock & Roll.mp3',
  'A very long file name that listings truncate because it is so long.mp3',
  'Ünïcode 100%.ogg',
  'clip.webm',
]
// The folder's own files in natural order, then those of its sub-folder (music/sub/nested.mp3).
const TITLES = [
  '01 Intro',
  '2 Two',
  '10 Ten',
  'A very long file name that listings truncate because it is so long',
  'clip',
  'Rock & Roll',
  'Ünïcode 100%',
  'nested',
]

// The smallest valid PNG (1×1), embedded as a front cover.
const PNG_PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
)

/** An MP3 whose only tags are ID3v1 ones: no ID3v2 tag, and 128 bytes at the end ('TAG', then fixed-width fields). */
function ffmpegId3v1(file: string, title: string, artist: string) {
  mkdirSync(path.dirname(file), { recursive: true })
  ffmpeg('-f', 'lavfi', '-i', 'sine=duration=20', '-map_metadata', '-1', '-id3v2_version', '0', '-write_xing', '0', file)
  const tag = new Uint8Array(128)
  let at = 0
  for (const [text, width] of [
    ['TAG', 3],
    [title, 30],
    [artist, 30],
    ['', 30],
    ['1999', 4],
    ['', 30],
  ] as const) {
    tag.set(new TextEncoder().encode(text).subarray(0, width), at)
    at += width
  }
  tag[127] = 255 // no genre
  appendFileSync(file, tag)
}

let app: TestServer
let served: string
let nginx: ListingServer
let python: ListingServer
let apache: ListingServer
let caddy: ListingServer
let token: string
let silent: { port: number; stop: (closeActive?: boolean) => void }
let huge: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  served = mkdtempSync(path.join(tmpdir(), 'vibes-served-'))
  openUp(served)
  mkdirSync(path.join(served, 'music/sub'), { recursive: true })
  mkdirSync(path.join(served, 'lists'))
  for (const f of FILES) writeFileSync(path.join(served, 'music', f), `bytes of ${f}`)
  for (const f of ['cover.jpg', 'notes.txt']) writeFileSync(path.join(served, 'music', f), 'x')
  writeFileSync(path.join(served, 'music/sub/nested.mp3'), 'bytes of nested.mp3')
  // Real tagged files, as a member's NAS holds them; and an album folder that holds only subfolders.
  makeTone(path.join(served, 'tagged/01 Opening.mp3'), { title: 'Opening', artist: 'The Band', album: 'First Light', year: 2001, seconds: 20 })
  makeTone(path.join(served, 'tagged/02 Second.ogg'), { title: 'Second Song', artist: 'The Band', album: 'First Light', seconds: 20 })
  makeTone(path.join(served, 'tagged/03 Third.mp3'), { seconds: 20 })
  ffmpegId3v1(path.join(served, 'tagged/04 Old Tags.mp3'), 'Old Tags Title', 'Old Artist')
  makeToneWithPicture(path.join(served, 'tagged/05 Pictured.mp3'), 'image/png', PNG_PIXEL, { title: 'Pictured', seconds: 2 })
  makeTone(path.join(served, 'albums/Alpha/a1.mp3'), { title: 'Alpha One', artist: 'A', seconds: 2 })
  makeTone(path.join(served, 'albums/Beta/Disc 1/b1.ogg'), { title: 'Beta One', artist: 'B', seconds: 2 })
  makeTone(path.join(served, 'albums/Beta/b0.mp3'), { title: 'Beta Zero', artist: 'B', seconds: 2 })

  app = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: HOST })
  // nginx also plays the redirecting server: to the app's own port, a 5-hop chain, an endless chain.
  const redirects = [
    `location = /go-local { return 302 http://127.0.0.1:${app.port}/api/refusal-canary; }`,
    `location = /go-localhost { return 301 http://localhost:${app.port}/api/refusal-canary; }`,
    `location = /go-v6 { return 307 http://[::1]:${app.port}/api/refusal-canary; }`,
    `location = /go-decimal { return 308 http://2130706433:${app.port}/api/refusal-canary; }`,
    `location = /go-private { return 302 http://192.168.0.1/api/refusal-canary; }`,
    'location = /go-file { return 302 file:///etc/passwd; }',
    ...[5, 4, 3, 2].map((n) => `location = /r${n} { return 302 /r${n - 1}; }`),
    'location = /r1 { return 302 /music/; }',
    'location ~ ^/hop/(\\d+)$ { return 302 /hop/1$1; }',
    // The same tree listed as JSON, as `autoindex_format json` does.
    `location /json/ { alias ${served}/; autoindex on; autoindex_format json; }`,
  ].join('\n')
  ;[nginx, python, apache, caddy] = await Promise.all([
    startNginx(served, HOST, redirects),
    startPython(served, HOST),
    startApache(served, HOST),
    startCaddy(served, HOST),
  ])
  token = (await createMember(app.url)).token

  const base = nginx.url
  writeFileSync(
    path.join(served, 'lists/playlist.m3u'),
    `#EXTM3U\n#EXTINF:185,Intro Theme\n../music/01%20Intro.mp3\n#EXTINF:-1,Truncated name..>\n${base}/music/Rock%20%26%20Roll.mp3\n../music/notes.txt\n/music/clip.webm\n`,
  )
  writeFileSync(
    path.join(served, 'lists/radio.pls'),
    `[playlist]\nFile1=../music/2%20Two.mp3\nTitle1=Second\nLength1=42\nFile2=${base}/music/10%20Ten.mp3\nNumberOfEntries=2\nVersion=2\n`,
  )
  writeFileSync(
    path.join(served, 'lists/tracks.json'),
    JSON.stringify({
      tracks: [{ url: '../music/01%20Intro.mp3', title: 'Intro', artist: 'Ada', duration: 3 }, '../music/cover.jpg', `${base}/music/clip.webm`],
    }),
  )

  // Misbehaving servers: one that never answers, one that sends 6 MB.
  silent = Bun.listen({ hostname: HOST, port: 0, socket: { data() {} } })
  huge = Bun.serve({
    hostname: HOST,
    port: 0,
    fetch(req) {
      const big = 'x'.repeat(6 * 1024 * 1024)
      if (new URL(req.url).pathname === '/declared') return new Response(big, { headers: { 'content-type': 'text/html' } })
      return new Response(
        new ReadableStream({
          start(c) {
            for (let i = 0; i < 6; i++) c.enqueue(new TextEncoder().encode(big.slice(0, 1024 * 1024)))
            c.close()
          },
        }),
        { headers: { 'content-type': 'text/html' } },
      )
    },
  })
})

afterAll(async () => {
  silent?.stop(true)
  huge?.stop(true)
  await Promise.all([nginx?.stop(), python?.stop(), apache?.stop(), caddy?.stop()])
  await app?.stop()
  rmSync(served, { recursive: true, force: true })
})

const load = (url: string) => api(app.url, 'GET', `/playlist?url=${encodeURIComponent(url)}`, { token })

describe('directory listings from real servers', () => {
  // Caddy answers our reader (which accepts JSON) with a JSON listing in lexical order, as does
  // nginx with autoindex_format json; every kind of listing comes back in the same natural order.
  const roots = () => ({ nginx: nginx.url, apache: apache.url, python: python.url, caddy: caddy.url, 'nginx (JSON)': `${nginx.url}/json` })
  for (const name of ['nginx', 'apache', 'python', 'caddy', 'nginx (JSON)'] as const) {
    test(`${name}: media only, natural order, absolute working URLs, titles from file names`, async () => {
      const root = roots()[name]
      const res = await load(`${root}/music/`)
      expect(res.status).toBe(200)
      const tracks = res.body.data
      expect(tracks.map((t: { title: string }) => t.title)).toEqual(TITLES)
      for (const t of tracks) expect(t.url.startsWith(`${root}/music/`)).toBe(true)
      expect(tracks.find((t: { title: string }) => t.title === 'clip').mime).toBe('video/webm')
      expect(tracks.find((t: { title: string }) => t.title.startsWith('Ü')).mime).toBe('audio/ogg')
      // Every URL fetches the file it names.
      for (const t of tracks) expect(await (await fetch(t.url)).text()).toBe(`bytes of ${decodeURIComponent(new URL(t.url).pathname.split('/').pop()!)}`)
    })
  }

  test('a listing URL without its trailing slash follows the redirect and resolves against it', async () => {
    const res = await load(`${python.url}/music`)
    expect(res.body.data.map((t: { title: string }) => t.title)).toEqual(TITLES)
    expect(res.body.data[0].url).toBe(`${python.url}/music/01%20Intro.mp3`)
  })

  test('five redirects are followed; the sixth is refused', async () => {
    expect((await load(`${nginx.url}/r5`)).body.data).toHaveLength(TITLES.length)
    expect(await load(`${nginx.url}/hop/1`)).toMatchObject({ status: 400, body: { error: 'Too many redirects (more than 5)' } })
  })

  test('a remote folder in the folder list plays through folders.playlist', async () => {
    const folder = (await api(app.url, 'POST', '/user/folders', { token, body: { label: 'Web', path: `${apache.url}/music/` } })).body.data
    const res = await api(app.url, 'GET', `/user/folders/${folder.id}/playlist`, { token })
    expect(res.body.data.map((t: { title: string }) => t.title)).toEqual(TITLES)
  })
})

describe("remote files' own tags, lengths and covers, and subfolders", () => {
  type T = { title: string; artist: string; album: string; duration: number; cover?: string; year?: number }
  const byFile = (tracks: T[] & { url: string }[]) => Object.fromEntries(tracks.map((t: any) => [decodeURIComponent(t.url.split('/').pop()), t]))

  for (const name of ['nginx', 'apache', 'python', 'caddy'] as const) {
    test(`${name}: titles, artists, albums and lengths come from the files' tags (ID3v2, Vorbis comments, ID3v1)`, async () => {
      const root = { nginx: nginx.url, apache: apache.url, python: python.url, caddy: caddy.url }[name]
      const res = await load(`${root}/tagged/`)
      expect(res.status).toBe(200)
      const t = byFile(res.body.data)
      expect(t['01 Opening.mp3']).toMatchObject({ title: 'Opening', artist: 'The Band', album: 'First Light', year: 2001 })
      expect(t['02 Second.ogg']).toMatchObject({ title: 'Second Song', artist: 'The Band', album: 'First Light' })
      // An untagged file keeps its file name; an ID3v1 tag sits in the file's last 128 bytes.
      expect(t['03 Third.mp3']).toMatchObject({ title: '03 Third', artist: '' })
      expect(t['04 Old Tags.mp3']).toMatchObject({ title: 'Old Tags Title', artist: 'Old Artist' })
      // Lengths: an MP3's from its head, an Ogg's from its last page.
      for (const f of ['01 Opening.mp3', '02 Second.ogg', '03 Third.mp3', '04 Old Tags.mp3']) expect(Math.round(t[f].duration)).toBe(20)
      // An embedded picture is the track's cover, as an image the page can show.
      expect(t['05 Pictured.mp3'].cover).toStartWith('data:image/png;base64,')
    })
  }

  test('a folder of subfolders lists the tracks inside them, folder by folder in natural order', async () => {
    for (const root of [nginx.url, apache.url, python.url, caddy.url]) {
      const res = await load(`${root}/albums/`)
      expect({ root, titles: res.body.data.map((t: T) => t.title) }).toEqual({ root, titles: ['Alpha One', 'Beta Zero', 'Beta One'] })
    }
  })

  test('the tags reach folders.playlist, so the player and what it records (Top Tracks) name the track', async () => {
    const folder = (await api(app.url, 'POST', '/user/folders', { token, body: { label: 'Tagged', path: `${nginx.url}/tagged/` } })).body.data
    const res = await api(app.url, 'GET', `/user/folders/${folder.id}/playlist`, { token })
    const [first] = res.body.data
    expect(first).toMatchObject({ title: 'Opening', artist: 'The Band' })
    // The play event the player sends for the track it was given.
    const play = { trackUrl: first.url, title: first.title, artist: first.artist, album: first.album, duration: first.duration, source: 'playlist' }
    expect((await api(app.url, 'POST', '/playlist/plays', { token, body: play })).status).toBe(201)
    const top = await api(app.url, 'GET', '/admin/stats/top-tracks?days=7&limit=10&clearCache=true', { token: await loginAdmin(app.url) })
    expect(top.body.data).toContainEqual({ trackUrl: first.url, title: 'Opening', artist: 'The Band', count: 1 })
  })
})

describe('playlists', () => {
  test('M3U: #EXTINF titles and durations, the ..> rule, relative and absolute entries, media only', async () => {
    const res = await load(`${nginx.url}/lists/playlist.m3u`)
    expect(res.body.data.map((t: any) => [t.title, t.url, t.duration])).toEqual([
      ['Intro Theme', `${nginx.url}/music/01%20Intro.mp3`, 185],
      ['Rock & Roll', `${nginx.url}/music/Rock%20%26%20Roll.mp3`, 0],
      ['clip', `${nginx.url}/music/clip.webm`, 0],
    ])
  })
  test('PLS and JSON track lists', async () => {
    const pls = await load(`${python.url}/lists/radio.pls`)
    expect(pls.body.data.map((t: any) => [t.title, t.url, t.duration])).toEqual([
      ['Second', `${python.url}/music/2%20Two.mp3`, 42],
      ['10 Ten', `${nginx.url}/music/10%20Ten.mp3`, 0],
    ])
    const json = await load(`${nginx.url}/lists/tracks.json`)
    expect(json.body.data).toEqual([
      { url: `${nginx.url}/music/01%20Intro.mp3`, title: 'Intro', mime: 'audio/mpeg', artist: 'Ada', album: 'Unknown Album', duration: 3 },
      { url: `${nginx.url}/music/clip.webm`, title: 'clip', mime: 'video/webm', artist: '', album: 'Unknown Album', duration: 0 },
    ])
  })
})

describe('address policy (each refusal is a 400, and nothing is contacted)', () => {
  test('loopback in every spelling, the app itself included', async () => {
    const p = app.port
    const cases: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${p}/api/refusal-canary`, /^Remote URL refused: 127\.0\.0\.1 is a loopback address$/],
      [`http://localhost:${p}/api/refusal-canary`, /^Remote URL refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/],
      [`http://[::1]:${p}/api/refusal-canary`, /^Remote URL refused: ::1 is a loopback address$/],
      [`http://2130706433:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://017700000001:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://127.1:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${p}/api/refusal-canary`, /::ffff:7f00:1 is a loopback address/],
      [`http://[64:ff9b::127.0.0.1]:${p}/api/refusal-canary`, /is a loopback address/],
      [`http://[2002:7f00:1::1]:${p}/api/refusal-canary`, /is a loopback address/],
      [`http://0.0.0.0:${p}/api/refusal-canary`, /0\.0\.0\.0 is a unspecified address/],
      [`http://127.0.0.3:${p}/api/refusal-canary`, /127\.0\.0\.3 is a loopback address/],
      [`http://0x7f000001:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://0177.0.0.1:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://[0:0:0:0:0:0:0:1]:${p}/api/refusal-canary`, /^Remote URL refused: ::1 is a loopback address$/],
      [`http://[::127.0.0.1]:${p}/api/refusal-canary`, /::7f00:1 is a loopback address/],
      [`http://localhost.:${p}/api/refusal-canary`, /^Remote URL refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/],
      [`http://LocalHost:${p}/api/refusal-canary`, /localhost resolves to .* a loopback address/],
      // Userinfo does not change the host that is checked.
      [`http://${HOST}@127.0.0.1:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
      [`http://${HOST}:80@127.0.0.1:${p}/api/refusal-canary`, /127\.0\.0\.1 is a loopback address/],
    ]
    for (const [url, message] of cases) {
      const res = await load(url)
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
    }
  })

  test('private, link-local and unique-local ranges are refused without connecting', async () => {
    for (const [url, message] of [
      ['http://10.0.0.1/music/', /10\.0\.0\.1 is a private address \(set REMOTE_ALLOW_PRIVATE or REMOTE_ALLOW_HOSTS to allow it\)/],
      ['http://192.168.1.20/', /private address/],
      ['http://169.254.169.254/latest/meta-data/', /link-local address/],
      ['http://[fd00::1]/', /unique-local address/],
      ['http://224.0.0.1/', /multicast address/],
    ] as const) {
      const res = await load(url)
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
    }
  })

  test('a redirect to a refused host is refused', async () => {
    expect((await load(`${nginx.url}/go-local`)).body.error).toMatch(/127\.0\.0\.1 is a loopback address/)
    expect((await load(`${nginx.url}/go-localhost`)).body.error).toMatch(/localhost resolves to .* a loopback address/)
    expect((await load(`${nginx.url}/go-v6`)).body.error).toBe('Remote URL refused: ::1 is a loopback address')
    expect((await load(`${nginx.url}/go-decimal`)).body.error).toBe('Remote URL refused: 127.0.0.1 is a loopback address')
    expect((await load(`${nginx.url}/go-private`)).body.error).toMatch(/^Remote URL refused: 192\.168\.0\.1 is a private address/)
    expect(await load(`${nginx.url}/go-file`)).toMatchObject({ status: 400, body: { error: 'Only http:// and https:// URLs can be loaded (got file)' } })
  })

  test('the refused targets were never contacted', () => {
    expect(app.logs.some((l) => l.includes('refusal-canary'))).toBe(false)
  })

  test('only http and https; bad URLs get the field messages; members only', async () => {
    const zoneIds = [`http://[fe80::1%25lo]:${app.port}/`, `http://[::1%25lo]:${app.port}/`, `http://[fe80::1%eth0]/`]
    const schemes = [
      'ftp://127.0.0.2/music/',
      'file:///etc/passwd',
      'gopher://127.0.0.1:70/_x',
      'data:text/html,<a href=a.mp3>a</a>',
      'javascript:alert(1)',
      'http//nope',
      'http:/\\127.0.0.1/',
    ]
    for (const url of [...schemes, ...zoneIds]) {
      expect(await load(url)).toMatchObject({ status: 400, body: { error: 'Please enter a valid URL starting with http:// or https://' } })
    }
    expect(await api(app.url, 'GET', '/playlist', { token })).toMatchObject({ status: 400, body: { error: 'Please enter a URL' } })
    expect((await api(app.url, 'GET', `/playlist?url=${encodeURIComponent(nginx.url)}`)).status).toBe(401)
    expect((await load('http://does-not-exist.invalid/')).body.error).toBe('Could not resolve the host name does-not-exist.invalid')
  })

  test('listings over 5 MB are refused, declared or streamed', async () => {
    const base = `http://${HOST}:${huge.port}`
    expect((await api(app.url, 'GET', '/playlist?url=' + encodeURIComponent(`${base}/declared`), { token })).body.error).toBe(
      'The remote listing is larger than 5 MB',
    )
    // The allow list names the host, not the port: the misbehaving servers share 127.0.0.2.
    expect((await load(`${base}/streamed`)).body.error).toBe('The remote listing is larger than 5 MB')
  })

  test('a server that never answers times out after 10 s', async () => {
    const started = Date.now()
    const res = await load(`http://${HOST}:${silent.port}/`)
    expect(res).toMatchObject({ status: 400, body: { error: 'The remote server did not answer within 10 seconds' } })
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_500)
  }, 20_000)
})
