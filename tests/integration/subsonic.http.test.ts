// OpenSubsonic /rest against the real built server: a library made with ffmpeg and
// indexed by the scanner, and a real client from npm (`subsonic-api`) authenticated with an app
// key, driving every method a native app needs (docs/rest-api.md). XML answers (the default) are parsed strictly and
// checked for the Subsonic shape; JSON answers through the client. Authentication: plain and
// enc: passwords, wrong credentials (40), token auth (41), apiKey beside u (43), revoked and
// unknown keys (44); another member's playlist (70); stream with Range; scrobbles in the
// analytics; stars as the web player's likes; the play queue shared with the web player;
// getCoverArt's sizes rounded to a few fixed ones, and its bounded queue (behind a gated ffmpeg).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { SubsonicAPI } from 'subsonic-api'
import { CACHE_LIMITS } from '~/server/media/cache-dir'
import { encodeMediaPath, signMediaUrl } from '~/server/media/sign'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ffmpeg, makeTone } from '../helpers/media'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
let other: Awaited<ReturnType<typeof createMember>>
let key: string
let client: SubsonicAPI
const lib = (p: string) => path.join(server.mediaRoot, p)
// Known to the test so it can sign /media URLs as the server does.
const SECRET = 'subsonic-test-secret-0123456789abcdef'

async function scan() {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 200; i++) {
    if (!(await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}

/** A raw /rest call: the XML document's root, the Response and its text. */
async function rest(method: string, params: Record<string, string | string[]>, init: RequestInit = {}) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) url.searchParams.append(k, one)
  const res = await fetch(url, init)
  const text = await res.text()
  return { res, text, xml: res.headers.get('content-type')?.includes('xml') ? parseXml(text) : undefined }
}
const withKey = (params: Record<string, string | string[]> = {}) => ({ apiKey: key, c: 'vibes-test', v: '1.16.1', ...params })
const withPassword = (p: string, params: Record<string, string> = {}) => ({ u: member.username, p, c: 'vibes-test', v: '1.16.1', ...params })
const hex = (s: string) => Buffer.from(s).toString('hex')

/** An image's width×height, read by ffprobe. */
function dimensions(image: Uint8Array): string {
  const file = path.join(tmpdir(), `vibes-cover-${crypto.randomUUID()}.jpg`)
  writeFileSync(file, image)
  const probe = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=s=x:p=0', file])
  return probe.stdout.toString().trim()
}

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
  const dawn = { artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999 }
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { ...dawn, title: 'First Light', seconds: 2, cover: true, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Love.mp3'), { ...dawn, title: 'Love', seconds: 1, metadata: { track: '2' } })
  makeTone(lib('Björk/Homogenic/01 Hunter.mp3'), {
    ...{ artist: 'Björk', album: 'Homogenic', genre: 'Electronic', year: 1997, title: 'Hunter', seconds: 1 },
    metadata: { REPLAYGAIN_TRACK_GAIN: '-6.50 dB', REPLAYGAIN_TRACK_PEAK: '0.891251' },
  })
  // A cover larger than an app's thumbnail, for getCoverArt's size.
  mkdirSync(lib('Björk/Homogenic'), { recursive: true })
  ffmpeg('-f', 'lavfi', '-i', 'color=c=red:s=600x400', '-frames:v', '1', lib('Björk/Homogenic/cover.jpg'))
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
  other = await createMember(server.url)
  await scan()
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Symfonium', currentPassword: member.password } })
  expect(created.status).toBe(201)
  key = created.body.data.key
  client = new SubsonicAPI({ url: server.url, auth: { apiKey: key } })
})
afterAll(async () => {
  await server?.stop()
})

async function songNamed(title: string) {
  const { searchResult3 } = await client.search3({ query: title, artistCount: 0, albumCount: 0 })
  const found = searchResult3.song?.find((s) => s.title === title)
  if (!found) throw new Error(`no song ${title}`)
  return found
}

describe('the envelope', () => {
  test('XML by default: subsonic-response with the namespace, status ok, version 1.16.1, type vibes, openSubsonic', async () => {
    const { res, xml } = await rest('ping.view', withKey())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8')
    expect(xml!.name).toBe('subsonic-response')
    expect(xml!.attributes).toMatchObject({ xmlns: 'http://subsonic.org/restapi', status: 'ok', version: '1.16.1', type: 'vibes', openSubsonic: 'true' })
    expect(xml!.attributes.serverVersion).toMatch(/^\d+\.\d+\.\d+/)
  })

  test('JSON with f=json, through the npm client; /rest/ping answers as /rest/ping.view does', async () => {
    const pong = await client.ping()
    expect(pong).toMatchObject({ status: 'ok', version: '1.16.1', type: 'vibes', openSubsonic: true })
    const bare = await rest('ping', withKey({ f: 'json' }))
    expect(JSON.parse(bare.text)['subsonic-response'].status).toBe('ok')
  })

  test('POST form parameters (the formPost extension) work as the query string does', async () => {
    const poster = new SubsonicAPI({ url: server.url, auth: { apiKey: key }, post: true })
    expect((await poster.getGenres()).genres.genre?.map((g) => g.value)).toEqual(['Electronic', 'Jazz'])
  })

  test('getLicense, getOpenSubsonicExtensions (apiKeyAuthentication) and getMusicFolders', async () => {
    expect((await client.getLicense()).license.valid).toBe(true)
    const { openSubsonicExtensions } = await client.getOpenSubsonicExtensions()
    expect(openSubsonicExtensions).toContainEqual({ name: 'apiKeyAuthentication', versions: [1] })
    const { xml } = await rest('getOpenSubsonicExtensions.view', withKey())
    const ext = childrenOf(xml!, 'openSubsonicExtensions').find((e) => e.attributes.name === 'apiKeyAuthentication')!
    expect(childrenOf(ext, 'versions').map((v) => v.text)).toEqual(['1'])
    expect((await client.getMusicFolders()).musicFolders.musicFolder).toEqual([{ id: 1, name: 'Music' }])
  })

  test('getOpenSubsonicExtensions answers without credentials (the OpenSubsonic spec: it must be public), so an app learns of apiKey before it asks for a login', async () => {
    const anonymous: Record<string, string>[] = [{ f: 'json' }, { f: 'json', u: member.username, p: 'wrong-password' }]
    for (const params of anonymous) {
      const { res, text } = await rest('getOpenSubsonicExtensions.view', params)
      expect(res.status).toBe(200)
      const answer = JSON.parse(text)['subsonic-response']
      expect(answer.status).toBe('ok')
      expect(answer.openSubsonicExtensions).toContainEqual({ name: 'apiKeyAuthentication', versions: [1] })
    }
    // Only that method: every other still asks who calls.
    const ping = JSON.parse((await rest('ping.view', { f: 'json' })).text)['subsonic-response']
    expect(ping.error.code).toBe(10)
  })

  test('an unknown method is a failed answer (70) with HTTP 200, not a page; a known one Vibes lacks is error 0', async () => {
    const { res, xml } = await rest('getNothingAtAll.view', withKey())
    expect(res.status).toBe(200)
    expect(xml!.attributes.status).toBe('failed')
    expect(childOf(xml!, 'error').attributes.code).toBe('70')
    const chat = await rest('getChatMessages.view', withKey())
    expect(chat.res.status).toBe(200)
    expect(childOf(chat.xml!, 'error').attributes.code).toBe('0')
  })
})

describe('authentication', () => {
  test('u + p, plain and enc: hex, is checked against the stored password (also by e-mail)', async () => {
    expect((await rest('ping.view', withPassword(member.password))).xml!.attributes.status).toBe('ok')
    expect((await rest('ping.view', withPassword(`enc:${hex(member.password)}`))).xml!.attributes.status).toBe('ok')
    expect((await rest('ping.view', { ...withPassword(member.password), u: member.email })).xml!.attributes.status).toBe('ok')
  })

  test('a wrong password or an unknown user is error 40', async () => {
    for (const params of [withPassword('not-the-password'), withPassword(`enc:${hex('nope')}`), { ...withPassword(member.password), u: 'nobody-here' }]) {
      const { xml } = await rest('ping.view', params)
      expect(xml!.attributes.status).toBe('failed')
      expect(childOf(xml!, 'error').attributes).toEqual({ code: '40', message: 'Wrong username or password' })
    }
  })

  test('token + salt (what the npm client sends for a password) is error 41: no reversible password is kept', async () => {
    const tokenClient = new SubsonicAPI({ url: server.url, auth: { username: member.username, password: member.password } })
    const answer = await tokenClient.ping()
    expect(answer.status).toBe('failed')
    expect((answer as unknown as { error: { code: number } }).error.code).toBe(41)
  })

  test('apiKey beside u is error 43; an unknown key 44; a revoked key 44', async () => {
    expect(childOf((await rest('ping.view', { ...withKey(), u: member.username })).xml!, 'error').attributes.code).toBe('43')
    expect(childOf((await rest('ping.view', withKey({ apiKey: 'vibes_notakey' }))).xml!, 'error').attributes.code).toBe('44')
    const made = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'DSub', currentPassword: member.password } })
    const revocable = new SubsonicAPI({ url: server.url, auth: { apiKey: made.body.data.key } })
    expect((await revocable.ping()).status).toBe('ok')
    expect((await api(server.url, 'DELETE', `/user/app-keys/${made.body.data.id}`, { token: member.token })).status).toBe(200)
    const after = await revocable.ping()
    expect(after.status).toBe('failed')
    expect((after as unknown as { error: { code: number } }).error.code).toBe(44)
  })

  test('no credentials at all is error 10 (missing parameter)', async () => {
    expect(childOf((await rest('ping.view', {})).xml!, 'error').attributes.code).toBe('10')
  })
})

describe('browsing', () => {
  test('getArtists → getArtist → getAlbum → getSong, with the ids leading from one to the next', async () => {
    const { artists } = await client.getArtists()
    const names = artists.index?.flatMap((i) => (i.artist ?? []).map((a) => [i.name, a.name]))
    expect(names).toEqual([
      ['A', 'Ada'],
      ['B', 'Björk'],
    ])
    const ada = artists.index![0].artist![0]
    const { artist } = await client.getArtist({ id: ada.id })
    expect(artist.album?.map((a) => a.name)).toEqual(['Dawn'])
    const { album } = await client.getAlbum({ id: artist.album![0].id })
    expect(album).toMatchObject({ name: 'Dawn', artist: 'Ada', songCount: 2, year: 1999, genre: 'Jazz' })
    expect(album.song?.map((s) => [s.track, s.title])).toEqual([
      [1, 'First Light'],
      [2, 'Love'],
    ])
    const first = album.song![0]
    expect(first).toMatchObject({
      isDir: false,
      album: 'Dawn',
      artist: 'Ada',
      contentType: 'audio/mpeg',
      suffix: 'mp3',
      path: 'Ada/Dawn/1 First Light.mp3',
      duration: 2,
    })
    expect((await client.getSong({ id: first.id })).song.title).toBe('First Light')
  })

  test('the XML of getAlbum nests <song> elements in <album> with the Child attributes', async () => {
    const { artists } = await client.getArtists()
    const { artist } = await client.getArtist({ id: artists.index![0].artist![0].id })
    const { xml } = await rest('getAlbum.view', withKey({ id: artist.album![0].id }))
    const album = childOf(xml!, 'album')
    expect(album.attributes).toMatchObject({ name: 'Dawn', artist: 'Ada', songCount: '2', year: '1999' })
    const songs = childrenOf(album, 'song')
    expect(songs.map((s) => s.attributes.title)).toEqual(['First Light', 'Love'])
    expect(songs[0].attributes).toMatchObject({ isDir: 'false', suffix: 'mp3', contentType: 'audio/mpeg', type: 'music' })
  })

  test('unknown ids are error 70', async () => {
    for (const [method, params] of [
      ['getAlbum.view', { id: 'nope' }],
      ['getArtist.view', { id: 'nope' }],
      ['getSong.view', { id: 'nope' }],
      ['getMusicDirectory.view', { id: 'dnope' }],
    ] as const) {
      expect(childOf((await rest(method, withKey(params))).xml!, 'error').attributes.code).toBe('70')
    }
    expect(childOf((await rest('getAlbum.view', withKey())).xml!, 'error').attributes.code).toBe('10')
  })

  test('getIndexes and getMusicDirectory walk the folder tree', async () => {
    const { indexes } = await client.getIndexes()
    const top = indexes.index?.flatMap((i) => (i.artist ?? []).map((a) => a.name))
    expect(top).toEqual(['Ada', 'Björk'])
    const { directory: ada } = await client.getMusicDirectory({ id: indexes.index![0].artist![0].id })
    expect(ada.child?.map((c) => [c.isDir, c.title])).toEqual([[true, 'Dawn']])
    const { directory: dawn } = await client.getMusicDirectory({ id: ada.child![0].id })
    expect(dawn.child?.map((c) => c.title)).toEqual(['First Light', 'Love'])
    expect(dawn.parent).toBe(ada.id)
    // A folder's art is advertised only when there is some: Dawn's track has a cover, Ada and Björk themselves none.
    const dawnCover = ada.child![0].coverArt
    expect(dawnCover).toBeString()
    expect((await client.getCoverArt({ id: dawnCover! })).headers.get('content-type')).toStartWith('image/')
    const { directory: root } = await client.getMusicDirectory({ id: '1' })
    expect(root.child?.map((c) => [c.title, c.coverArt])).toEqual([
      ['Ada', undefined],
      ['Björk', undefined],
    ])
  })

  test('getAlbumList2 by name, newest, genre, year and at random; a bad type is an error', async () => {
    const names = async (params: Parameters<SubsonicAPI['getAlbumList2']>[0]) => (await client.getAlbumList2(params)).albumList2.album?.map((a) => a.name)
    expect(await names({ type: 'alphabeticalByName' })).toEqual(['Dawn', 'Homogenic'])
    expect(await names({ type: 'alphabeticalByArtist' })).toEqual(['Dawn', 'Homogenic'])
    expect((await names({ type: 'newest' }))?.sort()).toEqual(['Dawn', 'Homogenic'])
    expect(await names({ type: 'byGenre', genre: 'Electronic' })).toEqual(['Homogenic'])
    expect(await names({ type: 'byYear', fromYear: 1998, toYear: 2000 })).toEqual(['Dawn'])
    expect(await names({ type: 'alphabeticalByName', size: 1, offset: 1 })).toEqual(['Homogenic'])
    expect((await names({ type: 'random', size: 5 }))?.sort()).toEqual(['Dawn', 'Homogenic'])
    expect(childOf((await rest('getAlbumList2.view', withKey({ type: 'best' }))).xml!, 'error').attributes.code).toBe('0')
    expect(childOf((await rest('getAlbumList2.view', withKey())).xml!, 'error').attributes.code).toBe('10')
    expect(childOf((await rest('getAlbumList2.view', withKey({ type: 'newest', size: 'ten' }))).xml!, 'error').attributes.message).toBe(
      'Parameter size must be a whole number',
    )
  })

  test('getRandomSongs, getGenres', async () => {
    expect((await client.getRandomSongs({ size: 2 })).randomSongs.song).toHaveLength(2)
    expect((await client.getRandomSongs({ size: 10, genre: 'Jazz' })).randomSongs.song?.map((s) => s.album)).toEqual(['Dawn', 'Dawn'])
    expect((await client.getGenres()).genres.genre).toEqual([
      { value: 'Electronic', songCount: 1, albumCount: 1 },
      { value: 'Jazz', songCount: 2, albumCount: 1 },
    ])
    const { xml } = await rest('getGenres.view', withKey())
    expect(childrenOf(childOf(xml!, 'genres'), 'genre').map((g) => [g.text, g.attributes.songCount])).toEqual([
      ['Electronic', '1'],
      ['Jazz', '2'],
    ])
  })

  test('search3 ignores case and diacritics, matches prefixes, pages, and an empty query lists all', async () => {
    const { searchResult3: r } = await client.search3({ query: 'bjork' })
    expect(r.artist?.map((a) => a.name)).toEqual(['Björk'])
    expect((await client.search3({ query: 'HUNT' })).searchResult3.song?.map((s) => s.title)).toEqual(['Hunter'])
    const all = (await client.search3({ query: '', songCount: 10 })).searchResult3
    expect(all.song).toHaveLength(3)
    expect(all.album).toHaveLength(2)
    expect((await client.search3({ query: '', songCount: 2, songOffset: 2 })).searchResult3.song).toHaveLength(1)
  })
})

describe('bytes: stream, download, getCoverArt', () => {
  test('stream sends the file, with ranges, as /media does', async () => {
    const love = await songNamed('Love')
    const file = readFileSync(lib('Ada/Dawn/2 Love.mp3'))
    const whole = await client.stream({ id: love.id })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('audio/mpeg')
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(Buffer.from(await whole.arrayBuffer()).equals(new Uint8Array(file))).toBe(true)
    const part = await rest('stream.view', withKey({ id: love.id }), { headers: { range: 'bytes=10-109' } })
    expect(part.res.status).toBe(206)
    expect(part.res.headers.get('content-range')).toBe(`bytes 10-109/${file.length}`)
    const ranged = await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${love.id}`, { headers: { range: 'bytes=10-109' } })
    expect(Buffer.from(await ranged.arrayBuffer()).equals(new Uint8Array(file.subarray(10, 110)))).toBe(true)
    const beyond = await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${love.id}`, { headers: { range: `bytes=${file.length + 10}-` } })
    expect(beyond.status).toBe(416)
    expect((await client.download({ id: love.id })).headers.get('content-length')).toBe(String(file.length))
  })

  test('stream of an unknown id is error 70 in the envelope, not bytes', async () => {
    const { xml } = await rest('stream.view', withKey({ id: 'nope' }))
    expect(childOf(xml!, 'error').attributes.code).toBe('70')
  })

  test('getCoverArt serves an album cover as it is, or scaled to fit size×size (never up); no cover is error 70', async () => {
    const { albumList2 } = await client.getAlbumList2({ type: 'alphabeticalByName' })
    const homogenic = albumList2.album!.find((a) => a.name === 'Homogenic')!
    expect(homogenic.coverArt).toBeString()
    const original = await client.getCoverArt({ id: homogenic.coverArt! })
    expect(original.headers.get('content-type')).toBe('image/jpeg')
    expect(Buffer.from(await original.arrayBuffer()).equals(new Uint8Array(readFileSync(lib('Björk/Homogenic/cover.jpg'))))).toBe(true)
    // A size is rounded up to 64, 128, 256, 512 or 1024.
    for (const [size, expected] of [
      [300, '512x341'],
      [300, '512x341'], // the second time from the cache
      [1000, '600x400'],
    ] as const) {
      const cover = await client.getCoverArt({ id: homogenic.coverArt!, size })
      expect(cover.status).toBe(200)
      expect(cover.headers.get('content-type')).toBe('image/jpeg')
      expect(cover.headers.get('x-content-type-options')).toBe('nosniff')
      expect(dimensions(new Uint8Array(await cover.arrayBuffer()))).toBe(expected)
    }
    const love = await songNamed('Love')
    const none = await rest('getCoverArt.view', withKey({ id: love.id }))
    expect(childOf(none.xml!, 'error').attributes.code).toBe('70')
  })

  test('sizes round up to a few fixed ones: size=100 and size=101 share one scaled copy; above 1024, the original', async () => {
    const { albumList2 } = await client.getAlbumList2({ type: 'alphabeticalByName' })
    const coverArt = albumList2.album!.find((a) => a.name === 'Homogenic')!.coverArt!
    const dir = path.join(server.dataDir, 'cover-cache')
    const before = readdirSync(dir).length
    const hundred = new Uint8Array(await (await client.getCoverArt({ id: coverArt, size: 100 })).arrayBuffer())
    const hundredOne = new Uint8Array(await (await client.getCoverArt({ id: coverArt, size: 101 })).arrayBuffer())
    expect(dimensions(hundred)).toBe('128x85')
    expect(hundredOne).toEqual(hundred)
    expect(readdirSync(dir)).toHaveLength(before + 1)
    const huge = await client.getCoverArt({ id: coverArt, size: 5000 })
    expect(Buffer.from(await huge.arrayBuffer()).equals(new Uint8Array(readFileSync(lib('Björk/Homogenic/cover.jpg'))))).toBe(true)
    expect(readdirSync(dir)).toHaveLength(before + 1)
  })

  test('the scaled covers are kept up to a size cap: the least recently used go first, a copy in use stays', async () => {
    const { albumList2 } = await client.getAlbumList2({ type: 'alphabeticalByName' })
    const coverArt = albumList2.album!.find((a) => a.name === 'Homogenic')!.coverArt!
    const dir = path.join(server.dataDir, 'cover-cache')
    const ageAll = (msAgo: number) => {
      for (const name of readdirSync(dir)) utimesSync(path.join(dir, name), new Date(Date.now() - msAgo), new Date(Date.now() - msAgo))
    }
    expect((await client.getCoverArt({ id: coverArt, size: 300 })).status).toBe(200)
    ageAll(2 * 86_400_000)
    const kept = readdirSync(dir)
    // Left by earlier use, three days old and alone over the cap (sparse: no disk is used).
    const stale = path.join(dir, 'stale-thumbnail.jpg')
    writeFileSync(stale, '')
    truncateSync(stale, CACHE_LIMITS.coverBytes)
    utimesSync(stale, new Date(Date.now() - 3 * 86_400_000), new Date(Date.now() - 3 * 86_400_000))

    // Asked again, a kept copy counts as used now; a new size makes a copy and trims the cache.
    expect((await client.getCoverArt({ id: coverArt, size: 300 })).status).toBe(200)
    // The last use is the atime (the mtime stays when the copy was made: cache-dir.ts).
    const age = (name: string) => Date.now() - statSync(path.join(dir, name)).atimeMs
    const asked = kept.filter((name) => dimensions(new Uint8Array(readFileSync(path.join(dir, name)))) === '512x341')
    expect(asked).toHaveLength(1)
    expect(age(asked[0])).toBeLessThan(60_000)
    const fresh = await client.getCoverArt({ id: coverArt, size: 60 })
    expect(dimensions(new Uint8Array(await fresh.arrayBuffer()))).toBe('64x43')
    expect(existsSync(stale)).toBe(false)
    expect(readdirSync(dir)).toHaveLength(kept.length + 1)
  })
})

describe("the member's things: scrobbles, stars, playlists, play queue", () => {
  test('scrobble writes a play event (source subsonic, the client name) that the admin analytics count', async () => {
    const listening = async () => (await api(server.url, 'GET', '/analytics/listening-overview?days=7', { token: admin })).body.data
    const overview = async () => (await listening()).overview.totalPlays
    const before = await overview()
    const hunter = await songNamed('Hunter')
    expect((await client.scrobble({ id: hunter.id, submission: false })).status).toBe('ok')
    expect((await client.scrobble({ id: hunter.id })).status).toBe('ok')
    expect(await overview()).toBe(before + 1)
    expect((await listening()).sources).toContainEqual(expect.objectContaining({ source: 'subsonic', count: 1 }))
    const [row] = await sqlOn(
      server,
      `SELECT title, source, client, CASE WHEN completed THEN 1 ELSE 0 END AS completed, user_id AS "userId" FROM play_events WHERE source = 'subsonic'`,
    )
    expect(row).toEqual({ title: 'Hunter', source: 'subsonic', client: 'subsonic-api', completed: 1, userId: member.user.id })
  })

  test("a scrobble's device is the User-Agent's, else the app's kind by its name (DSub on an okhttp agent is mobile)", async () => {
    const hunter = await songNamed('Hunter')
    const scrobble = (c: string, agent: string) => rest('scrobble.view', withKey({ id: hunter.id, c, f: 'json' }), { headers: { 'user-agent': agent } })
    expect((await scrobble('DSub', 'okhttp/4.12.0')).res.status).toBe(200)
    expect((await scrobble('Feishin', 'Mozilla/5.0 (X11; Linux x86_64) Feishin/0.12')).res.status).toBe(200)
    const rows = await sqlOn(server, "SELECT client, device_type AS device FROM play_events WHERE client IN ('DSub', 'Feishin') ORDER BY client")
    expect(rows).toEqual([
      { client: 'DSub', device: 'mobile' },
      { client: 'Feishin', device: 'desktop' },
    ])
  })

  test("star and unstar are the web player's likes; getStarred2 lists them", async () => {
    const love = await songNamed('Love')
    expect((await client.star({ id: love.id })).status).toBe('ok')
    const likes = await api(server.url, 'GET', '/playlist/likes', { token: member.token })
    expect(Object.keys(likes.body.data.likes)).toEqual(['Love'])
    const { starred2 } = await client.getStarred2()
    expect(starred2.song?.map((s) => s.title)).toEqual(['Love'])
    expect(starred2.song?.[0].starred).toBeInstanceOf(Date)
    expect((await client.getSong({ id: love.id })).song.starred).toBeInstanceOf(Date)
    await client.unstar({ id: love.id })
    expect((await api(server.url, 'GET', '/playlist/likes', { token: member.token })).body.data.likes).toEqual({})
    expect((await client.getStarred2()).starred2.song ?? []).toEqual([])
  })

  test('a like made by title only (a local file in the web player) stars the library songs of that title, and getStarred2 lists what is starred', async () => {
    const like = (liked: boolean) => api(server.url, 'PUT', '/playlist/likes', { token: member.token, body: { title: 'First Light', liked } })
    expect((await like(true)).status).toBe(200)
    const first = await songNamed('First Light')
    expect((await client.getSong({ id: first.id })).song.starred).toBeInstanceOf(Date)
    expect((await client.getStarred2()).starred2.song?.map((s) => s.title)).toEqual(['First Light'])
    expect((await client.getAlbumList2({ type: 'starred' })).albumList2.album?.map((a) => a.name)).toEqual(['Dawn'])
    // Unstarring it in the app is the same like switched off: gone from both lists and the web player.
    await client.unstar({ id: first.id })
    expect((await api(server.url, 'GET', '/playlist/likes', { token: member.token })).body.data.likes).toEqual({})
    expect((await client.getStarred2()).starred2.song ?? []).toEqual([])
    expect((await client.getAlbumList2({ type: 'starred' })).albumList2.album ?? []).toEqual([])
  })

  test("a member's library folders are their playlists; another member's is error 70", async () => {
    const folder = await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label: 'Ada all', path: '/Ada' } })
    expect(folder.status).toBe(201)
    const { playlists } = await client.getPlaylists()
    expect(playlists.playlist?.map((p) => [p.name, p.songCount])).toEqual([['Ada all', 2]])
    const { playlist } = await client.getPlaylist({ id: folder.body.data.id })
    expect(playlist.entry?.map((e) => e.title)).toEqual(['First Light', 'Love'])
    const theirs = await api(server.url, 'POST', '/user/folders', { token: other.token, body: { label: 'Mine', path: '/Björk' } })
    const { xml } = await rest('getPlaylist.view', withKey({ id: theirs.body.data.id }))
    expect(childOf(xml!, 'error').attributes.code).toBe('70')
    // Asking for another member's list by name is not allowed (50), and names nothing of theirs.
    const listed = await rest('getPlaylists.view', withKey({ username: other.username }))
    expect(childOf(listed.xml!, 'error').attributes.code).toBe('50')
    expect(listed.text).not.toContain('Mine')
  })

  test('savePlayQueue is the queue the web player resumes, and the web player’s queue is what getPlayQueue answers', async () => {
    // Never saved: an empty playQueue (the schema requires one), changed never (1970), by no one.
    expect((await client.getPlayQueue()).playQueue).toMatchObject({ username: member.username, changed: '1970-01-01T00:00:00.000Z', changedBy: '' })
    const first = await songNamed('First Light')
    const hunter = await songNamed('Hunter')
    expect((await client.savePlayQueue({ id: [first.id, hunter.id], current: hunter.id, position: 1500 } as never)).status).toBe('ok')
    const web = (await api(server.url, 'GET', '/playlist/queue', { token: member.token })).body.data
    expect(web.tracks.map((t: { title: string }) => t.title)).toEqual(['First Light', 'Hunter'])
    expect(web.tracks[0].url).toStartWith('/media/')
    expect(web).toMatchObject({ index: 1, positionSec: 1.5, device: 'subsonic-api' })

    await api(server.url, 'PUT', '/playlist/queue', {
      token: member.token,
      body: { tracks: [web.tracks[1], web.tracks[0]], index: 0, positionSec: 42, device: 'Chrome on Linux' },
    })
    const { playQueue } = await client.getPlayQueue()
    expect(playQueue!.entry?.map((e) => e.title)).toEqual(['Hunter', 'First Light'])
    expect(playQueue).toMatchObject({ current: hunter.id, position: 42000, username: member.username, changedBy: 'Chrome on Linux' })
  })
})

describe('ReplayGain in the shared play queue', () => {
  const HUNTER_GAIN = { trackGain: -6.5, trackPeak: 0.891251 }
  const webQueue = async () => (await api(server.url, 'GET', '/playlist/queue', { token: member.token })).body.data

  test('a library track the web player saves comes back with the ReplayGain of the index, whatever a player sent', async () => {
    const url = `/media/${encodeMediaPath('Björk/Homogenic/01 Hunter.mp3')}`
    const put = (tracks: Record<string, unknown>[]) => api(server.url, 'PUT', '/playlist/queue', { token: member.token, body: { tracks, device: 'Laptop' } })
    expect(
      (
        await put([
          { url, replayGain: { trackGain: 12 } },
          { url: 'https://example.com/a.mp3', replayGain: { trackGain: 3 } },
        ])
      ).status,
    ).toBe(200)
    const [hunter, remote] = (await webQueue()).tracks
    expect(hunter).toMatchObject({ title: 'Hunter', replayGain: HUNTER_GAIN })
    expect(remote).not.toHaveProperty('replayGain')
    // Sent back as GET answered it (a signed URL, with its ReplayGain), it reads the same again.
    expect((await put([hunter, remote])).status).toBe(200)
    expect((await webQueue()).tracks[0]).toMatchObject({ title: 'Hunter', replayGain: HUNTER_GAIN })
    const bad = await put([{ url, replayGain: { trackGain: 'loud' } }])
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('Track gain must be a number')
  })

  test('a queue saved by an app (savePlayQueue) resumes in the web player with the ReplayGain too', async () => {
    const hunter = await songNamed('Hunter')
    const love = await songNamed('Love')
    expect((await client.savePlayQueue({ id: [hunter.id, love.id], current: hunter.id } as never)).status).toBe('ok')
    const [first, second] = (await webQueue()).tracks
    expect(first).toMatchObject({ title: 'Hunter', replayGain: HUNTER_GAIN })
    expect(first.url).toStartWith('/media/')
    expect(second.title).toBe('Love')
    expect(second).not.toHaveProperty('replayGain')
    expect((await fetch(server.url + first.url)).status).toBe(200)
  })
})

describe('hostile input', () => {
  const METHOD_NAMES = [
    'ping',
    'getIndexes',
    'getMusicDirectory',
    'getArtist',
    'getAlbum',
    'getSong',
    'getAlbumList2',
    'getRandomSongs',
    'search3',
    'stream',
    'download',
    'getCoverArt',
    'scrobble',
    'star',
    'unstar',
    'getPlaylist',
    'getPlaylists',
    'createPlaylist',
    'updatePlaylist',
    'deletePlaylist',
    'savePlayQueue',
    'getPlayQueue',
    'getAlbumList',
    'search2',
    'getStarred',
    'getSongsByGenre',
    'getTopSongs',
    'getSimilarSongs',
    'getSimilarSongs2',
    'getArtistInfo',
    'getArtistInfo2',
    'getAlbumInfo',
    'getNowPlaying',
    'getUser',
    'getAvatar',
    'getScanStatus',
    'getLyrics',
    'getLyricsBySongId',
    'reportPlayback',
    'getPlayQueueByIndex',
    'savePlayQueueByIndex',
  ]
  const PARAMS = [
    'id',
    'type',
    'size',
    'offset',
    'query',
    'songCount',
    'songOffset',
    'fromYear',
    'toYear',
    'genre',
    'maxBitRate',
    'format',
    'time',
    'submission',
    'current',
    'position',
    'musicFolderId',
    'albumId',
    'artist',
    'count',
    'username',
    'title',
    'mediaId',
    'mediaType',
    'positionMs',
    'state',
    'playbackRate',
    'ignoreScrobble',
    'currentIndex',
    'playlistId',
    'name',
    'comment',
    'public',
    'songId',
    'songIdToAdd',
    'songIndexToRemove',
  ]
  const value = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.integer().map(String),
    fc.constantFrom('', '-1', '1e999', '9'.repeat(40), 'd', 'd..', '%00', '<x>&', '"\'', 'NaN', 'true'),
  )

  test('every method, any parameters: a well-formed answer, never a server fault (seeded, 25 runs each)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHOD_NAMES), fc.array(fc.tuple(fc.constantFrom(...PARAMS), value), { maxLength: 6 }), async (method, pairs) => {
        const url = new URL(`${server.url}/rest/${method}.view`)
        url.searchParams.set('apiKey', key)
        for (const [k, v] of pairs) url.searchParams.append(k, v)
        const res = await fetch(url)
        const text = await res.text()
        expect(res.status).toBeLessThan(500)
        if (res.headers.get('content-type')?.includes('xml')) expect(parseXml(text).name).toBe('subsonic-response')
      }),
      { numRuns: 25 * METHOD_NAMES.length, seed: 20261124 },
    )
  })
})

describe('scrobble rules: plausible times, and the play-event limit the web player has', () => {
  const playsOf = (userId: string) =>
    sqlOn<{ startedAt: number }>(server, 'SELECT started_at AS "startedAt" FROM play_events WHERE user_id = ? ORDER BY started_at', [userId])

  test('a time in 1970, weeks back or an hour ahead is refused in the envelope (HTTP 200, code 0, naming time) and records nothing', async () => {
    const hunter = await songNamed('Hunter')
    const m = await createMember(server.url)
    const made = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'Times', currentPassword: m.password } })
    const now = Date.now()
    for (const time of [0, now - 30 * 86_400_000, now + 3_600_000]) {
      const { res, xml } = await rest('scrobble.view', { apiKey: made.body.data.key, c: 't', v: '1.16.1', id: hunter.id, time: String(time) })
      expect(res.status).toBe(200)
      expect(xml!.attributes.status).toBe('failed')
      const error = childOf(xml!, 'error').attributes
      expect(error.code).toBe('0')
      expect(error.message).toContain('time')
    }
    expect(await playsOf(m.user.id)).toEqual([])
    // A queued scrobble from yesterday is fine, and keeps its time.
    const yesterday = now - 86_400_000
    const ok = await rest('scrobble.view', { apiKey: made.body.data.key, c: 't', v: '1.16.1', id: hunter.id, time: String(yesterday) })
    expect(ok.xml!.attributes.status).toBe('ok')
    expect(await playsOf(m.user.id)).toEqual([{ startedAt: yesterday }])
  })

  test('scrobbles count against the play-event limit (600 a minute), shared with the web player', async () => {
    const limited = await startServer({ ...adminEnv, RATE_LIMIT: 'on' })
    try {
      makeTone(path.join(limited.mediaRoot, 'Solo/One.mp3'), { artist: 'Solo', album: 'One', title: 'Only Song', seconds: 1 })
      const limitedAdmin = await loginAdmin(limited.url)
      expect((await api(limited.url, 'POST', '/admin/library/scan', { token: limitedAdmin, body: {} })).status).toBe(202)
      const m = await createMember(limited.url)
      const auth = { u: m.username, p: m.password, c: 't', v: '1.16.1', f: 'json' }
      let id: string | undefined
      for (let i = 0; i < 200 && !id; i++) {
        const found = await (await fetch(`${limited.url}/rest/search3.view?${new URLSearchParams({ ...auth, query: 'Only Song' })}`)).json()
        id = found['subsonic-response'].searchResult3?.song?.[0]?.id
        if (!id) await Bun.sleep(50)
      }
      expect(id).toBeString()
      // An app back online sends its queued plays in one request (formPost): 600 of them.
      const batch = new URLSearchParams(auth)
      for (let i = 0; i < 600; i++) batch.append('id', id!)
      const sent = await fetch(`${limited.url}/rest/scrobble.view`, { method: 'POST', body: batch })
      expect((await sent.json())['subsonic-response'].status).toBe('ok')
      const more = await fetch(`${limited.url}/rest/scrobble.view?${new URLSearchParams({ ...auth, id: id! })}`)
      expect(more.status).toBe(429)
      expect((await more.json())['subsonic-response'].error).toEqual({ code: 0, message: 'Rate limit exceeded. Please try again later.' })
      const web = await api(limited.url, 'POST', '/playlist/plays', {
        token: m.token,
        body: { trackUrl: '/media/Solo/One.mp3', title: 'Only Song', duration: 1, source: 'direct', networkType: 'wifi' },
      })
      expect(web.status).toBe(429)
    } finally {
      await limited.stop()
    }
  })
})

describe('failed authentication counts toward the login rate limits', () => {
  // Behind a trusted proxy, so each request may say which address it comes from.
  const from = (address: string) => ({ 'x-forwarded-for': address })
  const pingAs = (base: string, u: string, p: string, address: string) =>
    fetch(`${base}/rest/ping.view?u=${encodeURIComponent(u)}&p=${encodeURIComponent(p)}&c=t&v=1.16.1`, { headers: from(address) })
  const errorCode = async (res: Response) => {
    const answer = parseXml(await res.text())
    return answer.attributes.status === 'ok' ? 'ok' : childOf(answer, 'error').attributes.code
  }

  test('ten wrong passwords from ten addresses, knowing only the username, lock out neither her app nor her web login', async () => {
    const limited = await startServer({ RATE_LIMIT: 'on', TRUST_PROXY: 'true' })
    try {
      const alice = await createMember(limited.url)
      // Fifteen guesses (the limit renewed), each from an address of its own.
      for (let i = 1; i <= 15; i++) expect(await errorCode(await pingAs(limited.url, alice.username, `guess-${i}`, `198.51.100.${i}`))).toBe('40')
      const app = await pingAs(limited.url, alice.username, alice.password, '203.0.113.20')
      expect(app.status).toBe(200)
      expect(await errorCode(app)).toBe('ok')
      const web = await api(limited.url, 'POST', '/auth/login', { body: { email: alice.email, password: alice.password }, headers: from('203.0.113.21') })
      expect(web.status).toBe(200)
    } finally {
      await limited.stop()
    }
  })

  test('a brute force from one address is still limited: after ten failures even the right password waits (429) there', async () => {
    const limited = await startServer({ RATE_LIMIT: 'on', TRUST_PROXY: 'true' })
    try {
      const m = await createMember(limited.url)
      for (let i = 0; i < 10; i++) expect(await errorCode(await pingAs(limited.url, m.username, 'wrong-password', '198.51.100.7'))).toBe('40')
      const blocked = await pingAs(limited.url, m.username, m.password, '198.51.100.7')
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(childOf(parseXml(await blocked.text()), 'error').attributes.message).toBe('Rate limit exceeded. Please try again later.')
      // The e-mail as the username is the same account, the same count.
      expect((await pingAs(limited.url, m.email, m.password, '198.51.100.7')).status).toBe(429)
      // Her own app elsewhere still works.
      expect(await errorCode(await pingAs(limited.url, m.username, m.password, '203.0.113.30'))).toBe('ok')
    } finally {
      await limited.stop()
    }
  })

  test('successful password checks do not count: an app may call as often as it likes', async () => {
    const limited = await startServer({ RATE_LIMIT: 'on' })
    try {
      const m = await createMember(limited.url)
      for (let i = 0; i < 15; i++) {
        const res = await fetch(`${limited.url}/rest/ping.view?u=${m.username}&p=${m.password}&f=json`)
        expect((await res.json())['subsonic-response'].status).toBe('ok')
      }
    } finally {
      await limited.stop()
    }
  })
})

describe('stream honours maxBitRate with real MP3 rates (decision 031)', () => {
  const RICH = 'Rich/Loud/Loud 320.mp3'
  let rich: Uint8Array
  let richId: string

  /** The audio bit rate (kbit/s) of MP3 bytes, as ffprobe reads their frame headers. */
  function kbpsOf(bytes: Uint8Array): number {
    const file = path.join(tmpdir(), `vibes-rate-${crypto.randomUUID()}.mp3`)
    writeFileSync(file, bytes)
    const probe = Bun.spawnSync(['ffprobe', '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,bit_rate', '-of', 'csv=p=0', file])
    const [codec, bitRate] = probe.stdout.toString().trim().split(',')
    expect(codec).toBe('mp3')
    return Math.round(Number(bitRate) / 1000)
  }

  beforeAll(async () => {
    mkdirSync(path.dirname(lib(RICH)), { recursive: true })
    ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=3',
      '-ac',
      '2',
      '-ar',
      '44100',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '320k',
      '-metadata',
      'title=Loud',
      lib(RICH),
    )
    rich = new Uint8Array(readFileSync(lib(RICH)))
    expect(kbpsOf(rich)).toBe(320)
    await scan()
    richId = (await songNamed('Loud')).id
  })

  test('maxBitRate=96 of a 320k MP3 answers a 96k MP3; 100 gets the highest rate below it (96) too', async () => {
    for (const maxBitRate of ['96', '100']) {
      const res = await rest('stream.view', withKey({ id: richId, maxBitRate }))
      expect(res.res.status).toBe(200)
      expect(res.res.headers.get('content-type')).toBe('audio/mpeg')
      const bytes = new Uint8Array(await (await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${richId}&maxBitRate=${maxBitRate}`)).arrayBuffer())
      expect(kbpsOf(bytes)).toBe(96)
    }
  })

  test('format=mp3 and maxBitRate combine; another rate is another conversion (its own cached copy)', async () => {
    const at128 = new Uint8Array(await (await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${richId}&format=mp3&maxBitRate=128`)).arrayBuffer())
    expect(kbpsOf(at128)).toBe(128)
    const at64 = new Uint8Array(await (await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${richId}&maxBitRate=64`)).arrayBuffer())
    expect(kbpsOf(at64)).toBe(64)
  })

  test('maxBitRate=0, or at or above the source rate, sends the original bytes (with ranges)', async () => {
    for (const maxBitRate of ['0', '320', '1000']) {
      const res = await fetch(`${server.url}/rest/stream.view?apiKey=${key}&id=${richId}&maxBitRate=${maxBitRate}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('accept-ranges')).toBe('bytes')
      expect(Buffer.from(await res.arrayBuffer()).equals(rich)).toBe(true)
    }
  })

  test('the rate is signed: a /media URL edited to another rate is 403, to a rate outside the set 400', async () => {
    const signed = new URL(signMediaUrl(SECRET, RICH, 'mp3-96'), server.url)
    expect(signed.searchParams.get('t')).toBe('mp3-96')
    const ok = await fetch(signed)
    expect(ok.status).toBe(200)
    expect(kbpsOf(new Uint8Array(await ok.arrayBuffer()))).toBe(96)
    for (const [t, status] of [
      ['mp3-320', 403],
      ['mp3', 403],
      ['mp3-100', 400],
      ['mp3-96k', 400],
    ] as const) {
      const edited = new URL(signed)
      edited.searchParams.set('t', t)
      expect((await fetch(edited)).status).toBe(status)
    }
  })
})

describe('getCoverArt waits in a bounded queue and drops work for callers that left', () => {
  // The real ffmpeg behind a gate the test opens: until then every scaling waits, as on a busy
  // machine, so the queue can be filled and watched without racing the clock. Each run is logged.
  let gated: TestServer
  let gatedKey: string
  let coverArt: string
  const bin = path.join(tmpdir(), `vibes-gated-ffmpeg-${crypto.randomUUID()}`)
  const runs = () => (existsSync(path.join(bin, 'runs.log')) ? readFileSync(path.join(bin, 'runs.log'), 'utf8').trim().split('\n') : [])
  const cover = (size: number, signal?: AbortSignal) =>
    fetch(`${gated.url}/rest/getCoverArt.view?apiKey=${gatedKey}&c=test&v=1.16.1&id=${encodeURIComponent(coverArt)}&size=${size}`, { signal })

  beforeAll(async () => {
    mkdirSync(bin, { recursive: true })
    const real = Bun.which('ffmpeg')!
    writeFileSync(
      path.join(bin, 'ffmpeg'),
      `#!/bin/sh\necho "$*" >> '${bin}/runs.log'\nwhile [ ! -e '${bin}/open' ]; do sleep 0.05; done\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    )
    symlinkSync(Bun.which('ffprobe')!, path.join(bin, 'ffprobe'))
    gated = await startServer({ ...adminEnv, FFMPEG_PATH: path.join(bin, 'ffmpeg') })
    makeTone(path.join(gated.mediaRoot, 'A/B/1 Song.mp3'), { artist: 'A', album: 'B', title: 'Song', seconds: 1 })
    ffmpeg('-f', 'lavfi', '-i', 'color=c=blue:s=600x400', '-frames:v', '1', path.join(gated.mediaRoot, 'A/B/cover.jpg'))
    const token = await loginAdmin(gated.url)
    expect((await api(gated.url, 'POST', '/admin/library/scan', { token, body: {} })).status).toBe(202)
    for (let i = 0; i < 200 && (await api(gated.url, 'GET', '/admin/library/scan', { token })).body.data.scanning; i++) await Bun.sleep(50)
    const owner = await createMember(gated.url)
    gatedKey = (await api(gated.url, 'POST', '/user/app-keys', { token: owner.token, body: { name: 'Grid', currentPassword: owner.password } })).body.data.key
    const albums = await fetch(`${gated.url}/rest/getAlbumList2.view?apiKey=${gatedKey}&c=test&v=1.16.1&f=json&type=newest`)
    coverArt = ((await albums.json()) as any)['subsonic-response'].albumList2.album[0].coverArt
  })
  afterAll(async () => {
    await gated?.stop()
    rmSync(bin, { recursive: true, force: true })
  })

  test('a full queue answers 429 at once; waiting requests whose caller left never run ffmpeg', async () => {
    // Two scalings run (held at the gate).
    const running = [cover(300), cover(300)]
    for (let i = 0; i < 200 && runs().length < 2; i++) await Bun.sleep(25)
    expect(runs()).toHaveLength(2)
    // A grid's worth more: the queue takes 32, the one beyond is told to come back, before the gate opens.
    const left = new AbortController()
    const waiting = Array.from({ length: 33 }, () =>
      cover(300, left.signal).then(
        async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }),
        () => ({ status: 0, retryAfter: null, body: '' }),
      ),
    )
    const noAnswer = Bun.sleep(15_000).then(() => ({ status: -1, retryAfter: null, body: 'no answer while the queue was full' }))
    const first = await Promise.race([...waiting, noAnswer])
    expect(first.status).toBe(429)
    expect(Number(first.retryAfter)).toBeGreaterThan(0)
    expect(first.body).toContain('status="failed"')
    // Everyone still waiting goes away; then the gate opens.
    left.abort()
    await Promise.all(waiting)
    writeFileSync(path.join(bin, 'open'), '')
    for (const res of await Promise.all(running)) expect(res.status).toBe(200)
    // A new size runs next: the queue is first in, first out, so nothing left behind ran before it.
    expect((await cover(60)).status).toBe(200)
    expect(runs()).toHaveLength(3)
    expect(runs()[2]).toContain('min(64,iw)')
  })
})
