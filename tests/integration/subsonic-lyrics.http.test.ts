// Lyrics over /rest and for the web player's panel (GET /api/library/lyrics; decision 067), against the real built server and files the scanner indexed:
// a sidecar .lrc (several stamps on a line, an offset, a language tag), real ID3 USLT and SYLT
// frames, the TXXX frame ffmpeg writes for `-metadata lyrics=` in an MP3, Vorbis LYRICS in a FLAC,
// and no lyrics at all. A sidecar linked to a file outside MEDIA_ROOT and an oversized one are
// not read. Each through the npm client (JSON) and raw XML; bad input is an error envelope.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type StructuredLyrics, SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone, makeToneWithLyrics } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let server: TestServer
let key: string
let memberToken: string
let client: SubsonicAPI
const lib = (p: string) => path.join(server.mediaRoot, p)

const LRC = `[ti:Synced]
[ar:Ada]
[la:eng]
[offset:+250]
[00:01.00]First line
[00:02.50][00:04.00]Chorus <00:02.80>twice
[00:03.25]Between

`

async function rest(method: string, params: Record<string, string>) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ apiKey: key, c: 'vibes-test', v: '1.16.1', ...params })) url.searchParams.set(k, v)
  const res = await fetch(url)
  const text = await res.text()
  return {
    status: res.status,
    text,
    xml: params.f === 'json' ? undefined : parseXml(text),
    json: params.f === 'json' ? JSON.parse(text)['subsonic-response'] : undefined,
  }
}

/** The sets of a getLyricsBySongId answer (the client types lyricsList as an array; the spec and its JSON make it an object). */
async function lyricsOf(id: string): Promise<StructuredLyrics[]> {
  const { lyricsList } = await client.getLyricsBySongId({ id })
  return (lyricsList as unknown as { structuredLyrics?: StructuredLyrics[] }).structuredLyrics ?? []
}

async function idOf(title: string) {
  const found = (await client.search3({ query: title, artistCount: 0, albumCount: 0 })).searchResult3.song?.find((s) => s.title === title)
  if (!found) throw new Error(`no song ${title}`)
  return found.id
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  const ada = { artist: 'Ada', album: 'Words', seconds: 1 }
  makeTone(lib('Ada/Words/Synced.mp3'), { ...ada, title: 'Synced' })
  writeFileSync(lib('Ada/Words/Synced.lrc'), LRC)
  makeToneWithLyrics(lib('Ada/Words/Framed.mp3'), {
    title: 'Framed',
    artist: 'Ada',
    uslt: { lang: 'deu', text: 'Erste Zeile\nZweite Zeile' },
    sylt: {
      lang: 'eng',
      lines: [
        [1500, 'Later'],
        [500, 'Sooner'],
      ],
    },
  })
  makeTone(lib('Ada/Words/Ffmpeg.mp3'), { ...ada, title: 'Ffmpeg', metadata: { lyrics: '[00:00.50]From ffmpeg\n[00:01.20]Second' } })
  makeTone(lib('Ada/Words/Vorbis.flac'), { ...ada, title: 'Vorbis', metadata: { lyrics: 'Plain one\n\nPlain two' } })
  makeTone(lib('Ada/Words/Silent.mp3'), { ...ada, title: 'Silent' })
  // A sidecar that is a link to a file outside MEDIA_ROOT, and one far too large to be lyrics.
  const outside = path.join(mkdtempSync(path.join(tmpdir(), 'vibes-outside-')), 'secret.lrc')
  writeFileSync(outside, '[00:01.00]secret from outside\n')
  makeTone(lib('Ada/Words/Escape.mp3'), { ...ada, title: 'Escape' })
  symlinkSync(outside, lib('Ada/Words/Escape.lrc'))
  makeTone(lib('Ada/Words/Huge.mp3'), { ...ada, title: 'Huge' })
  writeFileSync(lib('Ada/Words/Huge.lrc'), `[00:01.00]${'la '.repeat(100_000)}\n`)

  const adminToken = await loginAdmin(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
  for (let i = 0; i < 200 && (await api(server.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data.scanning; i++) await Bun.sleep(50)
  const member = await createMember(server.url)
  memberToken = member.token
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Symfonium', currentPassword: member.password } })
  key = created.body.data.key
  client = new SubsonicAPI({ url: server.url, auth: { apiKey: key } })
})
afterAll(async () => {
  await server?.stop()
})

describe('getLyricsBySongId (songLyrics)', () => {
  test('getOpenSubsonicExtensions advertises songLyrics versions 1 and 2', async () => {
    const { openSubsonicExtensions } = await client.getOpenSubsonicExtensions()
    expect(openSubsonicExtensions).toContainEqual({ name: 'songLyrics', versions: [1, 2] })
  })

  test('enhanced=true (version 2): each set is kind main, and a line with word stamps has a cueLine of timed words', async () => {
    const id = await idOf('Synced')
    const { json } = await rest('getLyricsBySongId', { id, f: 'json', enhanced: 'true' })
    const chorus = (index: number, start: number, ends: boolean) => ({
      index,
      start,
      ...(ends ? { end: start + 750 } : {}),
      value: 'Chorus twice',
      cue: [
        { start, ...(ends ? { end: start + 300 } : {}), byteStart: 0, byteEnd: 6, value: 'Chorus ' },
        { start: start + 300, ...(ends ? { end: start + 750 } : {}), byteStart: 7, byteEnd: 11, value: 'twice' },
      ],
    })
    expect(json.lyricsList.structuredLyrics).toEqual([
      {
        kind: 'main',
        displayArtist: 'Ada',
        displayTitle: 'Synced',
        lang: 'eng',
        offset: 250,
        synced: true,
        line: [
          { start: 1000, value: 'First line' },
          { start: 2500, value: 'Chorus twice' },
          { start: 3250, value: 'Between' },
          { start: 4000, value: 'Chorus twice' },
        ],
        // The second chorus is the last line: when its last word ends is unknown, so no word has an end.
        cueLine: [chorus(1, 2500, true), chorus(3, 4000, false)],
      },
    ])
    // Unsynced lyrics and synced ones without word stamps: kind, and no cueLine.
    const framed = (await rest('getLyricsBySongId', { id: await idOf('Framed'), f: 'json', enhanced: 'true' })).json.lyricsList.structuredLyrics
    expect(framed).toHaveLength(2)
    for (const set of framed) {
      expect(set.kind).toBe('main')
      expect(set.cueLine).toBeUndefined()
    }
  })

  test('enhanced in XML: a cueLine element with its text as an attribute and a cue element per word', async () => {
    const { xml } = await rest('getLyricsBySongId.view', { id: await idOf('Synced'), enhanced: 'true' })
    const [set] = childrenOf(childOf(xml!, 'lyricsList'), 'structuredLyrics')
    expect(set.attributes.kind).toBe('main')
    const cueLines = childrenOf(set, 'cueLine')
    expect(cueLines.map((c) => c.attributes)).toEqual([
      { index: '1', start: '2500', end: '3250', value: 'Chorus twice' },
      { index: '3', start: '4000', value: 'Chorus twice' },
    ])
    expect(childrenOf(cueLines[0], 'cue').map((c) => [c.attributes, c.text])).toEqual([
      [{ start: '2500', end: '2800', byteStart: '0', byteEnd: '6' }, 'Chorus '],
      [{ start: '2800', end: '3250', byteStart: '7', byteEnd: '11' }, 'twice'],
    ])
  })

  test('without enhanced, or enhanced=false, the answer is version 1’s; a malformed enhanced is an error naming it', async () => {
    const id = await idOf('Synced')
    const plain = (await rest('getLyricsBySongId', { id, f: 'json' })).json.lyricsList
    expect((await rest('getLyricsBySongId', { id, f: 'json', enhanced: 'false' })).json.lyricsList).toEqual(plain)
    expect(plain.structuredLyrics[0].kind).toBeUndefined()
    expect(plain.structuredLyrics[0].cueLine).toBeUndefined()
    const bad = (await rest('getLyricsBySongId', { id, f: 'json', enhanced: 'yes' })).json
    expect(bad.status).toBe('failed')
    expect(bad.error.message).toContain('enhanced')
  })

  test('a sidecar .lrc: synced lines in time order, a line with two stamps at both times, its offset and language; word stamps out of the text', async () => {
    expect(await lyricsOf(await idOf('Synced'))).toEqual([
      {
        displayArtist: 'Ada',
        displayTitle: 'Synced',
        lang: 'eng',
        offset: 250,
        synced: true,
        line: [
          { start: 1000, value: 'First line' },
          { start: 2500, value: 'Chorus twice' },
          { start: 3250, value: 'Between' },
          { start: 4000, value: 'Chorus twice' },
        ],
      },
    ])
  })

  test('the same in XML: one structuredLyrics element, each line its start and text', async () => {
    const { status, xml } = await rest('getLyricsBySongId.view', { id: await idOf('Synced') })
    expect(status).toBe(200)
    expect(xml!.attributes.status).toBe('ok')
    const [set] = childrenOf(childOf(xml!, 'lyricsList'), 'structuredLyrics')
    expect(set.attributes).toMatchObject({ lang: 'eng', offset: '250', synced: 'true', displayTitle: 'Synced' })
    expect(childrenOf(set, 'line').map((l) => [l.attributes.start, l.text])).toEqual([
      ['1000', 'First line'],
      ['2500', 'Chorus twice'],
      ['3250', 'Between'],
      ['4000', 'Chorus twice'],
    ])
  })

  test('real ID3 frames: USLT as unsynced lines in its language, SYLT as synced lines ordered by time', async () => {
    const sets = await lyricsOf(await idOf('Framed'))
    expect(sets).toHaveLength(2)
    expect(sets).toContainEqual(expect.objectContaining({ lang: 'deu', synced: false, offset: 0, line: [{ value: 'Erste Zeile' }, { value: 'Zweite Zeile' }] }))
    expect(sets).toContainEqual(
      expect.objectContaining({
        lang: 'eng',
        synced: true,
        line: [
          { start: 500, value: 'Sooner' },
          { start: 1500, value: 'Later' },
        ],
      }),
    )
  })

  test('lyrics ffmpeg wrote into an MP3 (a TXXX frame) and a FLAC (Vorbis LYRICS); an unknown language is xxx', async () => {
    const mp3 = await lyricsOf(await idOf('Ffmpeg'))
    expect(mp3).toEqual([
      expect.objectContaining({
        lang: 'xxx',
        synced: true,
        line: [
          { start: 500, value: 'From ffmpeg' },
          { start: 1200, value: 'Second' },
        ],
      }),
    ])
    const flac = await lyricsOf(await idOf('Vorbis'))
    expect(flac).toEqual([expect.objectContaining({ lang: 'xxx', synced: false, line: [{ value: 'Plain one' }, { value: '' }, { value: 'Plain two' }] })])
  })

  test('a song without lyrics has an empty list (JSON and XML)', async () => {
    const id = await idOf('Silent')
    const json = await rest('getLyricsBySongId', { id, f: 'json' })
    expect(json.json).toMatchObject({ status: 'ok', lyricsList: { structuredLyrics: [] } })
    const xml = await rest('getLyricsBySongId', { id })
    expect(childrenOf(childOf(xml.xml!, 'lyricsList'), 'structuredLyrics')).toEqual([])
  })

  test('a sidecar linked to a file outside MEDIA_ROOT and an oversized one are not read', async () => {
    for (const title of ['Escape', 'Huge']) {
      expect(await lyricsOf(await idOf(title))).toEqual([])
    }
  })

  test('a missing id is error 10, an unknown one error 70, both HTTP 200 in XML and JSON', async () => {
    const missing = await rest('getLyricsBySongId.view', {})
    expect(missing.status).toBe(200)
    expect(childOf(missing.xml!, 'error').attributes).toEqual({ code: '10', message: 'Required parameter is missing: id' })
    const unknown = await rest('getLyricsBySongId', { id: 'nope', f: 'json' })
    expect(unknown.status).toBe(200)
    expect(unknown.json).toMatchObject({ status: 'failed', error: { code: 70, message: 'Song not found' } })
  })
})

describe('getLyrics (artist and title)', () => {
  test('the first set of the matching song as plain text, any case, synced lines without their times', async () => {
    const { lyrics } = await client.getLyrics({ artist: 'ada', title: 'SYNCED' })
    expect(lyrics).toEqual({ artist: 'Ada', title: 'Synced', value: 'First line\nChorus twice\nBetween\nChorus twice' })
    const { xml } = await rest('getLyrics.view', { artist: 'Ada', title: 'Vorbis' })
    expect(childOf(xml!, 'lyrics').attributes).toEqual({ artist: 'Ada', title: 'Vorbis' })
    expect(childOf(xml!, 'lyrics').text).toBe('Plain one\n\nPlain two')
  })

  test('no such song, or one without lyrics, is an empty lyrics element; a missing title is error 10', async () => {
    expect((await client.getLyrics({ artist: 'Nobody', title: 'Synced' })).lyrics).toEqual({ value: '' })
    expect((await client.getLyrics({ artist: 'Ada', title: 'Silent' })).lyrics).toEqual({ value: '' })
    const { xml } = await rest('getLyrics.view', { artist: 'Nobody', title: 'Synced' })
    expect(childOf(xml!, 'lyrics')).toMatchObject({ attributes: {}, text: '', children: [] })
    const missing = await rest('getLyrics', { artist: 'Ada', f: 'json' })
    expect(missing.status).toBe(200)
    expect(missing.json).toMatchObject({ status: 'failed', error: { code: 10, message: 'Required parameter is missing: title' } })
  })
})

describe("the web player's lyrics (GET /api/library/lyrics, library.lyrics)", () => {
  const lyricsAt = (url: string, token: string | undefined = memberToken) => api(server.url, 'GET', `/library/lyrics?url=${encodeURIComponent(url)}`, { token })

  test('a library track by the signed URL the player holds: the same sets as getLyricsBySongId', async () => {
    const track = (await api(server.url, 'GET', '/library/search?q=Synced', { token: memberToken })).body.data.tracks[0]
    expect(track.url).toStartWith('/media/')
    const answer = await lyricsAt(track.url)
    expect(answer.status).toBe(200)
    expect(answer.body.data.lyrics).toEqual([
      {
        lang: 'eng',
        synced: true,
        offset: 250,
        lines: [
          { start: 1000, value: 'First line' },
          { start: 2500, value: 'Chorus twice' },
          { start: 3250, value: 'Between' },
          { start: 4000, value: 'Chorus twice' },
        ],
      },
    ])
  })

  test('a remote stream, a path outside the index or a dot-dot path has none; no url is a 400 naming it; a visitor gets 401', async () => {
    for (const url of ['https://example.com/song.mp3', '/media/Ada/Words/Nothing.mp3', '/media/Ada/Words/../../etc/passwd', '/media/%2e%2e/secret.lrc']) {
      const answer = await lyricsAt(url)
      expect(answer.status).toBe(200)
      expect(answer.body.data.lyrics).toEqual([])
    }
    const missing = await api(server.url, 'GET', '/library/lyrics', { token: memberToken })
    expect(missing.status).toBe(400)
    expect(JSON.stringify(missing.body)).toContain('url is required')
    expect((await api(server.url, 'GET', `/library/lyrics?url=${encodeURIComponent('/media/Ada/Words/Synced.mp3')}`)).status).toBe(401)
  })
})
