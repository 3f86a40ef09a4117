// Conversion of formats the browser cannot play, against the built server and the real ffmpeg:
// a .wma and an .mkv (MPEG-4 Part 2 video + MP3) are listed with the MIME type of what is sent,
// their URL streams decodable output at once (ffprobe reads it), a fetch after the cache is
// filled answers ranges, web-ready video is remuxed and 1080 lines come down to 720, a listener
// who goes away frees the conversion slot, a name full of shell metacharacters is converted as a plain file name,
// a second conversion from the same client meanwhile gets 429, and a server whose FFMPEG_PATH
// points nowhere lists the files as needing ffmpeg and answers their URL 503. Hostile files: an
// HLS playlist saved under a media name is never followed to the file it names. Fair slots: a
// member's slow readers leave room for other members, a reader that stops reading loses its slot,
// and ffmpeg runs on one thread at a lower priority.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ffmpeg, makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
const work = mkdtempSync(path.join(tmpdir(), 'vibes-transcode-'))
const SHELL_NAME = 'a;touch x.wma'

/** An .mkv of a test pattern and a tone, with the given codec arguments and title. */
function makeMkv(file: string, title: string, codecs: string[], size = '320x240') {
  mkdirSync(path.dirname(file), { recursive: true })
  const lavfi = ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=3`, '-f', 'lavfi', '-i', 'sine=frequency=330:duration=3']
  ffmpeg(...lavfi, ...codecs, '-metadata', `title=${title}`, file)
}

function buildLibrary(root: string) {
  makeTone(path.join(root, 'Old/Windows/01 Chime.wma'), { title: 'Chime', artist: 'Redmond', album: 'Windows', seconds: 600 })
  makeTone(path.join(root, `Old/Windows/${SHELL_NAME}`), { title: 'Semicolon', artist: 'Redmond', album: 'Windows', seconds: 2 })
  makeTone(path.join(root, 'Old/Windows/03 Skipped.wma'), { title: 'Skipped', artist: 'Redmond', album: 'Windows', seconds: 600 })
  makeTone(path.join(root, 'Old/Windows/04 Next.wma'), { title: 'Next', artist: 'Redmond', album: 'Windows', seconds: 1 })
  makeTone(path.join(root, 'Old/Windows/02 Plain.mp3'), { title: 'Plain', artist: 'Redmond', album: 'Windows', seconds: 1 })
  // MPEG-4 Part 2 video and MP3 audio: the video does not play in a browser's <video>.
  makeMkv(path.join(root, 'Films/pattern.mkv'), 'Test Pattern', ['-c:v', 'mpeg4', '-c:a', 'libmp3lame'])
  // H.264 (baseline, which our own conversion never makes) and AAC: only the container is wrong.
  makeMkv(path.join(root, 'Films/big.mkv'), 'Big', ['-c:v', 'mpeg4', '-c:a', 'libmp3lame'], '1920x1080')
  makeMkv(path.join(root, 'Films/ready.mkv'), 'Ready', ['-c:v', 'libx264', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-c:a', 'aac'])
}

/** Codec names and duration of a converted file, read by ffprobe. */
function probe(bytes: Uint8Array) {
  const file = path.join(work, `probe-${crypto.randomUUID()}`)
  Bun.write(file, bytes)
  const r = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_type,codec_name,height,profile:format=duration', '-of', 'json', file], {
    stdout: 'pipe',
  })
  rmSync(file)
  const out = JSON.parse(r.stdout.toString()) as {
    streams: Array<{ codec_type: string; codec_name: string; height?: number; profile?: string }>
    format: { duration: string }
  }
  return { streams: out.streams, duration: Number(out.format.duration) }
}

async function scan(base: string, token: string) {
  expect((await api(base, 'POST', '/admin/library/scan', { token })).status).toBe(202)
  for (let i = 0; i < 200; i++) {
    if (!(await api(base, 'GET', '/admin/library/scan', { token })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}

type Listed = { title: string; url: string; mime: string; unavailable?: string }
async function songs(base: string, token: string): Promise<Map<string, Listed>> {
  const res = await api(base, 'GET', '/library/search?q=redmond', { token })
  const film = await api(base, 'GET', `/library/folders?path=${encodeURIComponent('Films')}`, { token })
  return new Map([...res.body.data.tracks, ...film.body.data.tracks].map((t: Listed) => [t.title, t]))
}

/** Waits until the server has renamed its cached copies into place (no .part left). */
async function cacheSettled(dataDir: string, files: number) {
  const dir = path.join(dataDir, 'transcode-cache')
  for (let i = 0; i < 200; i++) {
    const names = existsSync(dir) ? readdirSync(dir) : []
    if (names.filter((n) => !n.endsWith('.part')).length >= files && !names.some((n) => n.endsWith('.part'))) return
    await Bun.sleep(50)
  }
  throw new Error('the converted copy never reached the cache')
}

beforeAll(async () => {
  // Two slots, one per client: the same on every machine, whatever its cores.
  server = await startServer({ ...adminEnv, TRANSCODE_SLOTS: '2' })
  buildLibrary(server.mediaRoot)
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
  await scan(server.url, admin)
})
afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('with ffmpeg', () => {
  test('converted formats are listed with the MIME type of what is sent and a signed profile URL', async () => {
    const listed = await songs(server.url, member.token)
    expect(listed.get('Chime')).toMatchObject({ mime: 'audio/mpeg' })
    expect(listed.get('Chime')!.url).toMatch(/^\/media\/Old\/Windows\/01%20Chime\.wma\?t=mp3&exp=\d+&sig=[\w-]+$/)
    expect(listed.get('Chime')!.unavailable).toBeUndefined()
    expect(listed.get('Test Pattern')).toMatchObject({ mime: 'video/mp4' })
    expect(listed.get('Test Pattern')!.url).toMatch(/\.mkv\?t=mp4&/)
    // Files the browser plays stay as they are.
    expect(listed.get('Plain')!.url).toMatch(/\.mp3\?exp=/)
    expect(listed.get('Plain')!.mime).toBe('audio/mpeg')
  })

  test('folder playlists offer the same converted stream', async () => {
    const id = (await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Old', path: '/Old' } })).body.data.id
    const tracks = (await api(server.url, 'GET', `/user/folders/${id}/playlist`, { token: member.token })).body.data as Listed[]
    const chime = tracks.find((t) => t.title === 'Chime')!
    expect(chime.mime).toBe('audio/mpeg')
    expect(chime.url).toMatch(/\.wma\?t=mp3&/)
  })

  test('the profile is part of the signature: the original URL cannot be edited into a conversion', async () => {
    const chime = (await songs(server.url, member.token)).get('Chime')!
    const edited = chime.url.replace('t=mp3', 't=mp4')
    expect((await fetch(server.url + edited)).status).toBe(403)
    const dropped = chime.url.replace('t=mp3&', '')
    expect((await fetch(server.url + dropped)).status).toBe(403)
  })

  test('.wma: streams decodable MP3 at once, a second conversion meanwhile is 429, then the cached copy answers ranges', async () => {
    const listed = await songs(server.url, member.token)
    const chime = listed.get('Chime')!
    const first = await fetch(server.url + chime.url, { headers: { range: 'bytes=0-' } })
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('audio/mpeg')
    expect(first.headers.get('content-length')).toBeNull()
    expect(first.headers.get('accept-ranges')).toBe('none')
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')

    // While that conversion runs (its body is not read yet: past a 4 MB read-ahead ffmpeg waits), the same client
    // asking for another one is told to come back.
    const busy = await fetch(server.url + listed.get('Semicolon')!.url)
    expect(busy.status).toBe(429)
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0)

    const bytes = new Uint8Array(await first.arrayBuffer())
    const probed = probe(bytes)
    expect(probed.streams.map((s) => s.codec_name)).toEqual(['mp3'])
    expect(probed.duration).toBeGreaterThan(599)
    expect(probed.duration).toBeLessThan(601)

    await cacheSettled(server.dataDir, 1)
    const ranged = await fetch(server.url + chime.url, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`)
    expect(ranged.headers.get('content-type')).toBe('audio/mpeg')
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(bytes.slice(1000, 2000))
    const whole = await fetch(server.url + chime.url)
    expect(whole.headers.get('content-length')).toBe(String(bytes.length))
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    await whole.arrayBuffer()
  })

  test('a listener who goes away ends the conversion: the slot is free at once and no partial copy stays', async () => {
    const listed = await songs(server.url, member.token)
    const abort = new AbortController()
    const skipped = await fetch(server.url + listed.get('Skipped')!.url, { signal: abort.signal })
    expect(skipped.status).toBe(200)
    await skipped.body!.getReader().read()
    abort.abort()
    // The next track converts as soon as the server has seen the abort.
    let next = 429
    for (let i = 0; i < 40 && next === 429; i++) {
      await Bun.sleep(50)
      const res = await fetch(server.url + listed.get('Next')!.url)
      next = res.status
      await res.arrayBuffer()
    }
    expect(next).toBe(200)
    let parts: string[] = []
    for (let i = 0; i < 40; i++) {
      parts = readdirSync(path.join(server.dataDir, 'transcode-cache')).filter((n) => n.endsWith('.part'))
      if (!parts.length) break
      await Bun.sleep(50)
    }
    expect(parts).toEqual([])
  })

  test('a changed file is converted again, never answered from the old copy', async () => {
    const next = (await songs(server.url, member.token)).get('Next')!
    const before = probe(new Uint8Array(await (await fetch(server.url + next.url)).arrayBuffer()))
    expect(before.duration).toBeLessThan(1.5)
    await cacheSettled(server.dataDir, 2)
    makeTone(path.join(server.mediaRoot, 'Old/Windows/04 Next.wma'), { title: 'Next', artist: 'Redmond', album: 'Windows', seconds: 4 })
    const after = probe(new Uint8Array(await (await fetch(server.url + next.url)).arrayBuffer()))
    expect(after.duration).toBeGreaterThan(3.5)
  })

  test('.mkv with MPEG-4 video and MP3: video converted to H.264 at its own size, the MP3 kept, in MP4', async () => {
    const film = (await songs(server.url, member.token)).get('Test Pattern')!
    const res = await fetch(server.url + film.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('video/mp4')
    const probed = probe(new Uint8Array(await res.arrayBuffer()))
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:mp3', 'video:h264'])
    expect(probed.streams.find((s) => s.codec_type === 'video')!.height).toBe(240)
    expect(probed.duration).toBeGreaterThan(2.5)
  })

  test('a 1080-line video is converted at most 720 lines high', async () => {
    const big = (await songs(server.url, member.token)).get('Big')!
    const probed = probe(new Uint8Array(await (await fetch(server.url + big.url)).arrayBuffer()))
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 720 })
  })

  test('.mkv with H.264 and AAC: remuxed into MP4, the streams copied as they are', async () => {
    const ready = (await songs(server.url, member.token)).get('Ready')!
    expect(ready).toMatchObject({ mime: 'video/mp4' })
    const res = await fetch(server.url + ready.url)
    const probed = probe(new Uint8Array(await res.arrayBuffer()))
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264'])
    expect(probed.streams.find((s) => s.codec_type === 'video')!.profile).toBe('Constrained Baseline')
  })

  test('a file named with shell metacharacters is converted as a plain file name, and nothing runs', async () => {
    const semicolon = (await songs(server.url, member.token)).get('Semicolon')!
    expect(semicolon.url).toContain(encodeURIComponent(SHELL_NAME))
    const res = await fetch(server.url + semicolon.url)
    expect(res.status).toBe(200)
    expect(probe(new Uint8Array(await res.arrayBuffer())).streams.map((s) => s.codec_name)).toEqual(['mp3'])
    expect(existsSync(path.join(server.mediaRoot, 'Old/Windows/x.wma'))).toBe(false)
    expect(existsSync(path.resolve('x.wma'))).toBe(false)
  })
})

describe('a library file is only ever read as the format its name says', () => {
  // An HLS playlist saved under a media name: left to guess the format, ffmpeg and ffprobe read it
  // as a playlist and follow its file:// entry to a file outside MEDIA_ROOT.
  const outside = path.join(work, 'outside.mp3')
  let appKey: string
  const hlsNaming = (target: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:7,\nfile://${target}\n#EXT-X-ENDLIST\n`
  beforeAll(async () => {
    makeTone(outside, { seconds: 7, frequency: 1000 })
    mkdirSync(path.join(server.mediaRoot, 'Crafted'), { recursive: true })
    for (const name of ['secret.wma', 'secret.mkv', 'secret.flac', 'secret.aac'])
      writeFileSync(path.join(server.mediaRoot, 'Crafted', name), hlsNaming(outside))
    await scan(server.url, admin)
    appKey = (await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Hostile', currentPassword: member.password } })).body.data
      .key
  })

  async function crafted() {
    const listed = await api(server.url, 'GET', `/library/folders?path=${encodeURIComponent('Crafted')}`, { token: member.token })
    return new Map(
      (listed.body.data.tracks as Array<Listed & { id: string; duration: number; path: string }>).map((t) => [t.url.split('?')[0].split('/').pop()!, t]),
    )
  }

  test('the converted /media URL of a playlist named .wma or .mkv does not stream the file it names', async () => {
    const tracks = await crafted()
    for (const name of ['secret.wma', 'secret.mkv']) {
      const res = await fetch(server.url + tracks.get(name)!.url)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect({ name, status: res.status }).toEqual({ name, status: 415 })
      expect(bytes.length).toBeLessThan(1000)
    }
  })

  test('/rest/stream of it, converted or as MP3, does not stream the file it names', async () => {
    const tracks = await crafted()
    for (const [name, format] of [
      ['secret.wma', ''],
      ['secret.flac', 'mp3'],
    ]) {
      const id = tracks.get(name)!.id
      const res = await fetch(
        `${server.url}/rest/stream.view?apiKey=${appKey}&c=test&v=1.16.1&id=${encodeURIComponent(id)}${format ? `&format=${format}` : ''}`,
      )
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect({ name, status: res.status }).toEqual({ name, status: 415 })
      expect(bytes.length).toBeLessThan(1000)
    }
  })

  test("the scanner's duration probe does not read the file it names", async () => {
    expect((await crafted()).get('secret.aac')!.duration).toBe(0)
  })
})

describe('conversion slots are shared fairly', () => {
  // Three slots in all (TRANSCODE_SLOTS, so the test does not depend on the machine's cores): a
  // member may hold two. The film is remuxed (H.264 and AAC are copied) and is far larger than
  // what the server reads ahead plus the sockets' buffers, so a reader that does not keep up
  // holds its ffmpeg until the server gives up on it.
  let fair: TestServer
  const keys: Record<'a' | 'b', string> = { a: '', b: '' }
  const ids: Record<string, string> = {}
  const readers: Array<{ kill: () => void }> = []
  const streamUrl = (who: 'a' | 'b', title: string) => `${fair.url}/rest/stream.view?apiKey=${keys[who]}&c=test&v=1.16.1&id=${encodeURIComponent(ids[title])}`

  beforeAll(async () => {
    fair = await startServer({ ...adminEnv, TRANSCODE_SLOTS: '3' })
    // Lossless H.264 of noise: about 30 MB for 10 s, made in a few seconds.
    mkdirSync(path.join(fair.mediaRoot, 'Films'), { recursive: true })
    ffmpeg(
      ...['-f', 'lavfi', '-i', 'nullsrc=s=320x240:r=25,geq=random(1)*255:128:128', '-f', 'lavfi', '-i', 'sine=duration=10', '-t', '10'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-metadata', 'title=Noise', '-shortest'],
      path.join(fair.mediaRoot, 'Films/noise.mkv'),
    )
    makeTone(path.join(fair.mediaRoot, 'Old/tone.wma'), { title: 'Tone', artist: 'Redmond', seconds: 2 })
    makeTone(path.join(fair.mediaRoot, 'Old/chord.wma'), { title: 'Chord', artist: 'Redmond', seconds: 2 })
    const token = await loginAdmin(fair.url)
    await scan(fair.url, token)
    for (const who of ['a', 'b'] as const) {
      const member = await createMember(fair.url)
      keys[who] = (
        await api(fair.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Player', currentPassword: member.password } })
      ).body.data.key
    }
    for (const title of ['Noise', 'Tone', 'Chord']) {
      const found = await fetch(`${fair.url}/rest/search3.view?apiKey=${keys.a}&c=test&v=1.16.1&f=json&query=${title}`)
      ids[title] = ((await found.json()) as any)['subsonic-response'].searchResult3.song[0].id
    }
  })
  afterAll(async () => {
    for (const reader of readers) reader.kill()
    await fair?.stop()
  })

  /** curl reading the answer at 2 KB/s; resolves with the status once the headers are in. */
  async function slowReader(url: string): Promise<number> {
    const headers = path.join(work, `headers-${crypto.randomUUID()}`)
    const curl = Bun.spawn(['curl', '-s', '--limit-rate', '2K', '-D', headers, '-o', '/dev/null', url], { stdout: 'ignore', stderr: 'ignore' })
    readers.push(curl)
    for (let i = 0; i < 400; i++) {
      const head = existsSync(headers) ? readFileSync(headers, 'latin1') : ''
      if (head.includes('\r\n\r\n')) return Number(head.split(' ')[1])
      await Bun.sleep(25)
    }
    throw new Error('no answer')
  }

  /**
   * A GET that takes the status line and headers, then stops reading: a listener paused for good.
   * `rest()` reads on to the end and says whether the chunked answer was complete (its last chunk).
   */
  function stalledReader(url: string): Promise<{ status: number; rest: () => Promise<{ complete: boolean }> }> {
    const u = new URL(url)
    return new Promise((resolve, reject) => {
      const socket = connect(Number(u.port), u.hostname)
      readers.push({ kill: () => socket.destroy() })
      let head = ''
      socket.on('error', reject)
      socket.on('data', (chunk) => {
        head += chunk.toString('latin1')
        if (!head.includes('\r\n\r\n')) return
        socket.pause()
        socket.removeAllListeners('data')
        socket.removeAllListeners('error')
        const rest = () =>
          new Promise<{ complete: boolean }>((done) => {
            let tail = ''
            socket.on('data', (more) => {
              tail = (tail + more.toString('latin1')).slice(-16)
            })
            socket.on('error', () => {})
            socket.on('close', () => done({ complete: tail.endsWith('\r\n0\r\n\r\n') }))
            socket.resume()
          })
        resolve({ status: Number(head.split(' ')[1]), rest })
      })
      socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`)
    })
  }

  /** The server's ffmpeg children: nice value and arguments (Linux /proc). */
  function ffmpegChildren() {
    const children: Array<{ nice: number; args: string[] }> = []
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        if (Number(fields[1]) === fair.pid && path.basename(args[0]) === 'ffmpeg') children.push({ nice: Number(fields[16]), args })
      } catch {}
    }
    return children
  }

  test("a stalled reader's conversion is ended and its slot freed", async () => {
    // The member's two slots go to readers that take the headers and then read nothing.
    const stalled = [await stalledReader(streamUrl('a', 'Noise')), await stalledReader(streamUrl('a', 'Noise'))]
    expect(stalled.map((reader) => reader.status)).toEqual([200, 200])
    let status = 0
    for (let i = 0; i < 120 && status !== 200; i++) {
      await Bun.sleep(500)
      const res = await fetch(streamUrl('a', 'Tone'))
      status = res.status
      await res.arrayBuffer()
    }
    expect(status).toBe(200)
    // Both stalled conversions end (each is watched on its own clock)…
    for (let i = 0; i < 40 && ffmpegChildren().length > 0; i++) await Bun.sleep(250)
    expect(ffmpegChildren()).toEqual([])
    // …with their answers cut off, not finished: the slots came back because the server gave up on them.
    for (const reader of stalled) expect(await reader.rest()).toEqual({ complete: false })
  })

  test('two slow readers from one member do not lock out another member; ffmpeg runs on one thread at a lower priority', async () => {
    expect(await slowReader(streamUrl('a', 'Noise'))).toBe(200)
    expect(await slowReader(streamUrl('a', 'Noise'))).toBe(200)
    const third = await fetch(streamUrl('a', 'Chord'))
    expect(third.status).toBe(429)
    await third.arrayBuffer()

    // Not in the cache: it takes a slot of its own.
    const other = await fetch(streamUrl('b', 'Chord'))
    expect(other.status).toBe(200)
    expect(probe(new Uint8Array(await other.arrayBuffer())).streams.map((s) => s.codec_name)).toEqual(['mp3'])

    const running = ffmpegChildren()
    expect(running.length).toBeGreaterThanOrEqual(2)
    for (const child of running) {
      expect(child.nice).toBe(10)
      expect(child.args.join(' ')).toContain('-threads 1')
    }
  })
})

describe('without ffmpeg', () => {
  let bare: TestServer
  let token: string
  beforeAll(async () => {
    bare = await startServer({ ...adminEnv, FFMPEG_PATH: '/nonexistent/ffmpeg' })
    buildLibrary(bare.mediaRoot)
    await scan(bare.url, await loginAdmin(bare.url))
    token = (await createMember(bare.url)).token
  })
  afterAll(async () => {
    await bare?.stop()
  })

  test('formats that need it are listed as needing ffmpeg, and their URL says so with a 503', async () => {
    const listed = await songs(bare.url, token)
    expect(listed.get('Chime')!.unavailable).toBe('needs ffmpeg')
    expect(listed.get('Test Pattern')!.unavailable).toBe('needs ffmpeg')
    expect(listed.get('Plain')!.unavailable).toBeUndefined()
    const res = await fetch(bare.url + listed.get('Chime')!.url)
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('needs ffmpeg')
    // The files the browser plays itself still play.
    expect((await fetch(bare.url + listed.get('Plain')!.url)).status).toBe(200)
  })
})
