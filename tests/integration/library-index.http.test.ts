// The library index against the built server: a library made with ffmpeg in the test (nested
// and unicode folders, "Björk", a cover.jpg beside the files, embedded art, an untagged file),
// scanned through the admin API; then counts, tags, durations and covers; add, change and
// remove files and rescan; a full rescan; search (case, diacritics, prefixes, ranking); the
// browse API; who may call what; and hostile search input that must never be a 5xx.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { ffmpeg, makeImage, makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
const lib = (p: string) => path.join(server.mediaRoot, p)

function buildLibrary() {
  const homogenic = { artist: 'Björk', album: 'Homogenic', genre: 'Electronic', year: 1997 }
  makeTone(lib('Björk/Homogenic/01 Hunter.mp3'), {
    ...homogenic,
    title: 'Hunter',
    seconds: 3,
    metadata: {
      track: '1',
      album_artist: 'Björk',
      REPLAYGAIN_TRACK_GAIN: '-6.50 dB',
      REPLAYGAIN_TRACK_PEAK: '0.891251',
      REPLAYGAIN_ALBUM_GAIN: '-7.25 dB',
      REPLAYGAIN_ALBUM_PEAK: '0.988553',
    },
  })
  makeTone(lib('Björk/Homogenic/02 Joga.mp3'), { ...homogenic, title: 'Jóga', seconds: 2, metadata: { track: '2', album_artist: 'Björk' } })
  makeImage(lib('Björk/Homogenic/cover.jpg'))
  makeImage(lib('Björk/Homogenic/back.png'), 'blue')
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { title: 'First Light', artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999, cover: true, seconds: 1 })
  makeTone(lib('Ada/Dawn/2 Love.mp3'), { title: 'Love', artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999, seconds: 1 })
  makeTone(lib('Various/Mix/love song.mp3'), { title: 'Something', artist: 'Bo', album: 'Love Songs', genre: 'Pop', year: 2005, seconds: 1 })
  makeTone(lib('untagged/noise.wav'), { seconds: 1 })
  makeTone(lib('deep/ünïcode földer/ß track.ogg'), { title: 'Hoppípolla', artist: 'Sigur Rós', album: 'Takk', seconds: 1 })
}

const asMember = (p: string) => api(server.url, 'GET', p, { token: member.token })

/** Asks for a scan and waits until the scanner is idle again. */
async function scan(body?: unknown) {
  const started = await api(server.url, 'POST', '/admin/library/scan', { token: admin, body })
  expect(started.status).toBe(202)
  // Up to 25 s: a scan calling ffprobe takes seconds on a loaded machine.
  for (const deadline = Date.now() + 25_000; Date.now() < deadline; ) {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    if (!status.body.data.scanning) return status.body.data
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}

const search = async (q: string) => (await asMember(`/library/search?q=${encodeURIComponent(q)}`)).body.data
const albumNamed = async (name: string) => (await asMember('/library/albums?limit=500')).body.data.albums.find((a: { name: string }) => a.name === name)

beforeAll(async () => {
  server = await startServer(adminEnv)
  buildLibrary()
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
  await scan()
})
afterAll(async () => {
  await server?.stop()
})

describe('scan', () => {
  test('status: counts of the indexed library and when it was last scanned', async () => {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    expect(status.status).toBe(200)
    expect(Object.keys(status.body.data).sort()).toEqual(['albums', 'artists', 'lastScanAt', 'scanned', 'scanning', 'total', 'tracks'])
    expect(status.body.data).toMatchObject({ scanning: false, tracks: 7, albums: 5 })
    // Björk, Ada, Bo, Sigur Rós and the untagged file's Unknown Artist.
    expect(status.body.data.artists).toBe(5)
    expect(Date.now() - Date.parse(status.body.data.lastScanAt)).toBeLessThan(60_000)
  })

  test('tags, track order, durations, MIME, playable URLs and the folder cover', async () => {
    const album = (await asMember(`/library/albums/${(await albumNamed('Homogenic')).id}`)).body.data
    expect(album).toMatchObject({ name: 'Homogenic', artist: 'Björk', year: 1997, genre: 'Electronic', songCount: 2 })
    expect(album.tracks.map((t: { title: string }) => t.title)).toEqual(['Hunter', 'Jóga'])
    const [hunter] = album.tracks
    expect(hunter).toMatchObject({
      title: 'Hunter',
      artist: 'Björk',
      album: 'Homogenic',
      genre: 'Electronic',
      year: 1997,
      track: 1,
      mime: 'audio/mpeg',
      albumId: album.id,
    })
    expect(hunter.duration).toBeGreaterThan(2.8)
    expect(hunter.duration).toBeLessThan(3.3)
    expect(album.duration).toBeCloseTo(hunter.duration + album.tracks[1].duration, 2)
    expect(hunter.id).toMatch(/^[0-9a-f]{16}$/)
    // ReplayGain from the file's tags, for the player's volume; an untagged file has none.
    expect(hunter.replayGain).toEqual({ trackGain: -6.5, trackPeak: 0.891251, albumGain: -7.25, albumPeak: 0.988553 })
    expect(album.tracks[1].replayGain).toBeUndefined()
    // What the API does not show yet (OpenSubsonic will): bitrate, container, size.
    const [row] = await sqlOn(server, 'SELECT bitrate, format, rg_track_gain AS gain, size, album_artist AS "albumArtist" FROM library_tracks WHERE id = ?', [
      hunter.id,
    ])
    expect(row).toEqual({
      bitrate: expect.any(Number),
      format: 'MPEG',
      gain: -6.5,
      size: statSync(lib('Björk/Homogenic/01 Hunter.mp3')).size,
      albumArtist: 'Björk',
    })

    // The signed URL plays without a header, and the cover is the folder's cover.jpg as a JPEG.
    const audio = await fetch(`${server.url}${hunter.url}`)
    expect(audio.status).toBe(200)
    expect(audio.headers.get('content-type')).toBe('audio/mpeg')
    expect((await audio.arrayBuffer()).byteLength).toBe(statSync(lib('Björk/Homogenic/01 Hunter.mp3')).size)
    expect(album.cover).toBe(hunter.cover)
    const cover = await fetch(`${server.url}${album.cover}`)
    expect(cover.status).toBe(200)
    expect(cover.headers.get('content-type')).toBe('image/jpeg')
  })

  test('embedded art is the cover of a track without an image beside it; untagged files get file-name defaults', async () => {
    const dawn = (await asMember(`/library/albums/${(await albumNamed('Dawn')).id}`)).body.data
    const first = dawn.tracks.find((t: { title: string }) => t.title === 'First Light')
    expect(first.cover).toContain('First%20Light.mp3?cover=1')
    expect((await fetch(`${server.url}${first.cover}`)).headers.get('content-type')).toBe('image/png')
    expect(dawn.cover).toBe(first.cover)
    expect(dawn.tracks.find((t: { title: string }) => t.title === 'Love').cover).toBeUndefined()

    const untagged = (await asMember('/library/folders?path=/untagged')).body.data.tracks
    expect(untagged).toHaveLength(1)
    expect(untagged[0]).toMatchObject({ title: 'noise', artist: '', album: 'Unknown Album', mime: 'audio/wav' })
    expect(untagged[0].duration).toBeCloseTo(1, 1)
  })

  test('an Ogg file longer than a few pages gets its duration: an Ogg stream states its length only on its last page', async () => {
    const ogg = lib('ogg/Long Tone.ogg')
    makeTone(ogg, { title: 'Long Ogg Tone', seconds: 20 })
    try {
      await scan()
      const [track] = (await search('long ogg tone')).tracks
      expect(track.mime).toBe('audio/ogg')
      expect(track.duration).toBeCloseTo(20, 1)
      // An index made before ogg durations were read holds 0 s for the unchanged file: the next
      // incremental scan reads it again, so an upgrade needs no full rescan.
      await sqlOn(server, 'UPDATE library_tracks SET duration = 0 WHERE id = ?', [track.id])
      expect((await search('long ogg tone')).tracks[0].duration).toBe(0)
      await scan()
      expect((await search('long ogg tone')).tracks[0].duration).toBeCloseTo(20, 1)
    } finally {
      rmSync(path.dirname(ogg), { recursive: true, force: true })
      await scan()
    }
  })

  test('an AVI, which the tag reader does not read, gets its duration from its header', async () => {
    const avi = lib('avi/Clip.avi')
    mkdirSync(path.dirname(avi), { recursive: true })
    ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=3:size=160x120:rate=25', '-f', 'lavfi', '-i', 'sine=duration=3', '-c:v', 'mpeg4', '-c:a', 'mp2', avi)
    try {
      await scan()
      const [clip] = (await asMember('/library/folders?path=/avi')).body.data.tracks
      expect(clip.mime).toBe('video/mp4')
      expect(clip.duration).toBeCloseTo(3, 1)
    } finally {
      rmSync(path.dirname(avi), { recursive: true, force: true })
      await scan()
    }
  })

  test('.mov and ADTS .aac, whose length the tag reader does not give, get it from ffprobe', async () => {
    const mov = lib('probe/Clip.mov')
    const aac = lib('probe/Tone.aac')
    mkdirSync(path.dirname(mov), { recursive: true })
    ffmpeg('-f', 'lavfi', '-i', 'testsrc=duration=4:size=160x120:rate=25', '-f', 'lavfi', '-i', 'sine=duration=4', '-shortest', mov)
    ffmpeg('-f', 'lavfi', '-i', 'sine=duration=6', aac)
    try {
      await scan()
      const tracks = (await asMember('/library/folders?path=/probe')).body.data.tracks
      expect(tracks.map((t: { title: string }) => t.title)).toEqual(['Clip', 'Tone'])
      expect(tracks[0].duration).toBeCloseTo(4, 1)
      // ADTS has no length field: ffprobe estimates it from the bit rate.
      expect(Math.abs(tracks[1].duration - 6)).toBeLessThan(0.5)
    } finally {
      rmSync(path.dirname(mov), { recursive: true, force: true })
      await scan()
    }
  }, 60_000)

  test('control characters in tags (a hostile or broken file) never reach titles and names', async () => {
    const file = lib('ctrl/x.mp3')
    makeTone(file, { title: 'Bad\u0001Title\u001f', artist: 'Art\u000bist', album: 'Ctrl\u007fAlbum', seconds: 1 })
    try {
      await scan()
      const [track] = (await asMember('/library/folders?path=/ctrl')).body.data.tracks
      expect([track.title, track.artist, track.album]).toEqual(['Bad Title', 'Art ist', 'Ctrl Album'])
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true })
      await scan()
    }
  })
})

describe('browse', () => {
  test('folders: the tree in natural order, unicode names, each folder its own tracks', async () => {
    const root = (await asMember('/library/folders')).body.data
    expect(root).toEqual({ path: '/', folders: ['Ada', 'Björk', 'deep', 'untagged', 'Various'].map((n) => ({ name: n, path: `/${n}` })), tracks: [] })
    const deep = (await asMember('/library/folders?path=/deep')).body.data
    expect(deep.folders).toEqual([{ name: 'ünïcode földer', path: '/deep/ünïcode földer' }])
    const inner = (await asMember(`/library/folders?path=${encodeURIComponent('/deep/ünïcode földer/')}`)).body.data
    expect(inner.path).toBe('/deep/ünïcode földer')
    expect(inner.tracks.map((t: { title: string; artist: string }) => [t.title, t.artist])).toEqual([['Hoppípolla', 'Sigur Rós']])
    expect((await fetch(`${server.url}${inner.tracks[0].url}`)).status).toBe(200)
    const missing = await asMember('/library/folders?path=/nope')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe('Folder not found in the music library: /nope')
    expect((await asMember('/library/folders?path=/../etc')).status).toBe(404)
  })

  test('albums: sorted by name, year or recently added, paged with a total; by genre', async () => {
    const byName = (await asMember('/library/albums')).body.data
    expect(byName.total).toBe(5)
    expect(byName.albums.map((a: { name: string }) => a.name)).toEqual(['Dawn', 'Homogenic', 'Love Songs', 'Takk', 'Unknown Album'])
    const first = (await asMember('/library/albums?limit=2')).body.data
    expect(first.total).toBe(5)
    expect(first.albums.map((a: { name: string }) => a.name)).toEqual(['Dawn', 'Homogenic'])
    const page = (await asMember(`/library/albums?limit=2&cursor=${first.next}`)).body.data
    expect(page.albums.map((a: { name: string }) => a.name)).toEqual(['Love Songs', 'Takk'])
    const byYear = (await asMember('/library/albums?sort=year')).body.data.albums.map((a: { name: string }) => a.name)
    expect(byYear.slice(0, 3)).toEqual(['Love Songs', 'Dawn', 'Homogenic'])
    expect((await asMember('/library/albums?sort=recent')).body.data.albums).toHaveLength(5)
    const jazz = (await asMember('/library/albums?genre=Jazz')).body.data
    expect(jazz.albums.map((a: { name: string }) => a.name)).toEqual(['Dawn'])
    const bad = await asMember('/library/albums?sort=size')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('sort must be one of name, year, recent')
    expect((await asMember('/library/albums?limit=0')).body.error).toContain('limit must be at least 1')
    expect((await asMember('/library/albums/0000000000000000')).status).toBe(404)
  })

  test('artists and an artist page with its albums; genres with counts; songs', async () => {
    const artists = (await asMember('/library/artists')).body.data
    expect(artists.artists.map((a: { name: string }) => a.name)).toEqual(['Ada', 'Björk', 'Bo', 'Sigur Rós', 'Unknown Artist'])
    const bjork = artists.artists.find((a: { name: string }) => a.name === 'Björk')
    expect(bjork).toMatchObject({ albumCount: 1, songCount: 2 })
    expect(bjork.cover).toContain('cover.jpg?cover=1')
    const page = (await asMember(`/library/artists/${bjork.id}`)).body.data
    expect(page.albums.map((a: { name: string }) => a.name)).toEqual(['Homogenic'])
    expect((await asMember('/library/artists/nope')).status).toBe(404)

    const genres = (await asMember('/library/genres')).body.data.genres
    expect(genres).toEqual([
      { name: 'Electronic', songCount: 2, albumCount: 1 },
      { name: 'Jazz', songCount: 2, albumCount: 1 },
      { name: 'Pop', songCount: 1, albumCount: 1 },
    ])
    const songs = (await asMember('/library/songs?limit=3')).body.data
    expect(songs.total).toBe(7)
    expect(songs.tracks.map((t: { title: string }) => t.title)).toEqual(['First Light', 'Hoppípolla', 'Hunter'])
  })
})

/** Every page of a list from the first on, following `next` (at most 20 pages). */
async function walk(listPath: string, field: string) {
  const pages: string[][] = []
  let cursor: string | null = null
  do {
    const res = await asMember(`${listPath}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status).toBe(200)
    pages.push(res.body.data[field].map((x: { name?: string; title?: string }) => x.name ?? x.title))
    cursor = res.body.data.next
  } while (cursor && pages.length < 20)
  return pages
}

describe('keyset paging', () => {
  test('walking pages by cursor gives each list in order, every row once, and the last page has no next', async () => {
    for (const sort of ['name', 'year', 'recent']) {
      const whole = (await asMember(`/library/albums?sort=${sort}&limit=500`)).body.data.albums.map((a: { name: string }) => a.name)
      const pages = await walk(`/library/albums?sort=${sort}&limit=2`, 'albums')
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1])
      expect(pages.flat()).toEqual(whole)
    }
    // Newest first, then the albums without a year (Takk, the untagged file's) by name, one a page.
    expect((await walk('/library/albums?sort=year&limit=1', 'albums')).flat()).toEqual(['Love Songs', 'Dawn', 'Homogenic', 'Takk', 'Unknown Album'])
    expect((await walk('/library/artists?limit=2', 'artists')).flat()).toEqual(['Ada', 'Björk', 'Bo', 'Sigur Rós', 'Unknown Artist'])
    const titles = (await asMember('/library/songs?limit=500')).body.data.tracks.map((t: { title: string }) => t.title)
    expect(titles).toHaveLength(7)
    expect((await walk('/library/songs?sort=title&limit=3', 'tracks')).flat()).toEqual(titles)
    expect((await walk('/library/songs?sort=recent&limit=3', 'tracks')).flat().sort()).toEqual([...titles].sort())
    expect((await asMember('/library/albums?genre=Jazz&limit=1')).body.data).toMatchObject({ total: 1, next: null })
  })

  test('a cursor that is not one the list made is a 400 naming cursor', async () => {
    const nameCursor = (await asMember('/library/albums?limit=1')).body.data.next
    for (const bad of ['x', '!!', 'W10', Buffer.from('[1,2,3,4]').toString('base64url'), Buffer.from("' OR 1=1 --").toString('base64url')]) {
      const res = await asMember(`/library/albums?cursor=${encodeURIComponent(bad)}`)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('cursor is not valid for this list')
    }
    // The name sort's cursor (two texts) is not a "recently added" one (two numbers).
    expect((await asMember(`/library/albums?sort=recent&cursor=${nameCursor}`)).status).toBe(400)
    expect((await asMember(`/library/songs?cursor=${nameCursor}`)).status).toBe(400)
    expect((await asMember('/library/albums?offset=5')).status).toBe(400)
  })
})

describe('search', () => {
  test('ignores case and diacritics, matches word prefixes', async () => {
    for (const q of ['bjork', 'BJÖRK', 'Björk', 'bjö']) {
      const r = await search(q)
      expect(r.artists.map((a: { name: string }) => a.name)).toEqual(['Björk'])
      expect(r.albums.map((a: { name: string }) => a.name)).toEqual(['Homogenic'])
      expect(r.tracks.map((t: { title: string }) => t.title).sort()).toEqual(['Hunter', 'Jóga'])
    }
    expect((await search('joga')).tracks.map((t: { title: string }) => t.title)).toEqual(['Jóga'])
    expect((await search('hom')).albums.map((a: { name: string }) => a.name)).toEqual(['Homogenic'])
    expect((await search('sigur ros hopp')).tracks.map((t: { title: string }) => t.title)).toEqual(['Hoppípolla'])
    expect((await search('electro')).tracks).toHaveLength(2)
    // Every word must match: no track is by Björk and called First Light.
    expect((await search('bjork first')).tracks).toEqual([])
  })

  test('ranked: a title match comes before an album match', async () => {
    const r = await search('love')
    expect(r.tracks.map((t: { title: string }) => t.title)).toEqual(['Love', 'Something'])
    expect(r.albums.map((a: { name: string }) => a.name)).toEqual(['Love Songs'])
    expect(r.tracks[0].url).toMatch(/^\/media\/Ada\/Dawn\/2%20Love\.mp3\?exp=\d+&sig=/)
  })

  test('hostile input is a 200 or a 400 naming q, never a 5xx', async () => {
    const hostile = [
      '"',
      '""',
      '*',
      'a*',
      '"bjork',
      'title:bjork',
      'NEAR(a b)',
      'a OR b',
      'NOT x',
      '(',
      ')',
      '^a',
      '-x',
      'a AND',
      "'; DROP TABLE library_tracks; --",
      '%',
      '\\',
      '{a}',
      '💿',
      '\u0301',
      'x'.repeat(200),
      ' ',
    ]
    for (const q of hostile) {
      const r = await asMember(`/library/search?q=${encodeURIComponent(q)}`)
      expect(r.status === 200 || r.status === 400).toBe(true)
      if (r.status === 200) expect(Object.keys(r.body.data).sort()).toEqual(['albums', 'artists', 'tracks'])
      else expect(r.body.error).toContain('q ')
    }
    expect((await asMember('/library/search?q=bjork%22)')).body.data.artists.map((a: { name: string }) => a.name)).toEqual(['Björk'])
    expect((await asMember(`/library/search?q=${'x'.repeat(201)}`)).status).toBe(400)
    expect((await asMember('/library/search')).body.error).toBe('q is required')
    expect((await asMember('/library/search?q=a&limit=101')).body.error).toContain('limit must be at most 100')
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    expect(status.body.data.tracks).toBe(7)
  })
})

describe('who may call', () => {
  test('library paths need a member (401); the scanner needs an admin (401 / 403)', async () => {
    for (const p of [
      '/library/search?q=a',
      '/library/albums',
      '/library/albums/x',
      '/library/artists',
      '/library/artists/x',
      '/library/genres',
      '/library/songs',
      '/library/folders?path=/',
    ]) {
      const r = await api(server.url, 'GET', p)
      expect(r.status).toBe(401)
      expect(r.body.success).toBe(false)
    }
    expect((await api(server.url, 'GET', '/admin/library/scan')).status).toBe(401)
    expect((await api(server.url, 'POST', '/admin/library/scan')).status).toBe(401)
    expect((await api(server.url, 'GET', '/admin/library/scan', { token: member.token })).status).toBe(403)
    expect((await api(server.url, 'POST', '/admin/library/scan', { token: member.token, body: { full: true } })).status).toBe(403)
    expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: { full: 'yes' } })).body.error).toBe('full must be true or false')
  })
})

// Last: these change the library the tests above read.
describe('rescans', () => {
  test('added, changed and removed files are reflected after a scan; ids stay', async () => {
    const before = (await asMember(`/library/albums/${(await albumNamed('Homogenic')).id}`)).body.data
    const joga = before.tracks.find((t: { title: string }) => t.title === 'Jóga')
    makeTone(lib('Björk/Homogenic/03 Bachelorette.mp3'), {
      title: 'Bachelorette',
      artist: 'Björk',
      album: 'Homogenic',
      genre: 'Electronic',
      year: 1997,
      seconds: 2,
      metadata: { track: '3', album_artist: 'Björk' },
    })
    makeTone(lib('Björk/Homogenic/01 Hunter.mp3'), {
      title: 'Hunter (Live)',
      artist: 'Björk',
      album: 'Homogenic',
      genre: 'Electronic',
      year: 1997,
      seconds: 4,
      metadata: { track: '1', album_artist: 'Björk' },
    })
    rmSync(lib('Ada/Dawn/2 Love.mp3'))
    rmSync(lib('Various'), { recursive: true })
    const status = await scan()
    expect(status).toMatchObject({ tracks: 6, albums: 4, artists: 4 })

    const after = (await asMember(`/library/albums/${before.id}`)).body.data
    expect(after.tracks.map((t: { title: string }) => t.title)).toEqual(['Hunter (Live)', 'Jóga', 'Bachelorette'])
    expect(after.tracks[0].duration).toBeGreaterThan(3.8)
    expect(after.songCount).toBe(3)
    expect(after.tracks[1].id).toBe(joga.id)
    expect((await search('love')).tracks).toEqual([])
    expect((await search('bachelor')).tracks.map((t: { title: string }) => t.title)).toEqual(['Bachelorette'])
    expect((await albumNamed('Dawn')).songCount).toBe(1)
    expect((await asMember('/library/genres')).body.data.genres.map((g: { name: string }) => g.name)).toEqual(['Electronic', 'Jazz'])
    expect((await asMember('/library/folders')).body.data.folders.map((f: { name: string }) => f.name)).toEqual(['Ada', 'Björk', 'deep', 'untagged'])
  })

  test('a new cover image beside old files is picked up; a full scan re-reads files whose size and mtime did not change', async () => {
    makeImage(lib('Ada/Dawn/folder.png'), 'green')
    rmSync(lib('Björk/Homogenic/cover.jpg'))
    // Same size and mtime, other tags: only a full scan can see it.
    const file = lib('deep/ünïcode földer/ß track.ogg')
    const st = statSync(file)
    makeTone(file, { title: 'Hoppípollb', artist: 'Sigur Rós', album: 'Takk', seconds: 1 })
    expect(statSync(file).size).toBe(st.size)
    utimesSync(file, st.atime, st.mtime)

    await scan()
    const dawn = await albumNamed('Dawn')
    expect(dawn.cover).toContain('folder.png?cover=1')
    const homogenic = (await asMember(`/library/albums/${(await albumNamed('Homogenic')).id}`)).body.data
    expect(homogenic.cover).toBeUndefined()
    expect(homogenic.tracks[0].cover).toBeUndefined()
    expect((await search('hoppipolla')).tracks).toHaveLength(1)

    await scan({ full: true })
    expect((await search('hoppipolla')).tracks).toHaveLength(0)
    expect((await search('hoppipollb')).tracks).toHaveLength(1)
    expect((await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.tracks).toBe(6)
  })
})

describe('a library larger than one write batch', () => {
  test('every file of the start-up scan is indexed, and a rescan reads none of them again', async () => {
    const mediaRoot = mkdtempSync(path.join(tmpdir(), 'vibes-media-'))
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-data-'))
    makeTone(path.join(mediaRoot, 'source.mp3'), { title: 'Tone', artist: 'Many', album: 'Copies', seconds: 1 })
    // 1,200 library paths (hard links): several write batches, read 4 at a time.
    for (let d = 0; d < 12; d++) {
      mkdirSync(path.join(mediaRoot, `disc ${d}`))
      for (let i = 0; i < 100; i++) linkSync(path.join(mediaRoot, 'source.mp3'), path.join(mediaRoot, `disc ${d}`, `${i} track.mp3`))
    }
    const big = await startServer(adminEnv, { dataDir, mediaRoot })
    try {
      const scans = () => big.logs.filter((l) => l.includes('"library scan done"')).map((l) => JSON.parse(l).scan)
      for (let i = 0; i < 600 && scans().length === 0; i++) await Bun.sleep(50)
      expect(scans()[0]).toMatchObject({ files: 1201, read: 1201 })
      const token = await loginAdmin(big.url)
      expect((await api(big.url, 'GET', '/admin/library/scan', { token })).body.data.tracks).toBe(1201)
      expect((await api(big.url, 'POST', '/admin/library/scan', { token })).status).toBe(202)
      for (let i = 0; i < 600 && scans().length === 1; i++) await Bun.sleep(50)
      expect(scans()[1]).toMatchObject({ files: 1201, read: 0, removed: 0 })
    } finally {
      await big.stop()
      rmSync(mediaRoot, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
