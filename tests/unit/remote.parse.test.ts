// The remote reader's parsers on listings captured from real lighttpd and Caddy servers
// (tests/fixtures/listings/capture.ts), on M3U/PLS/JSON text, and the title rules.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  decodeName,
  detectFormat,
  MAX_REMOTE_TRACKS,
  parseHtmlListing,
  parseJsonTracks,
  parseM3u,
  parsePls,
  parsePlaylist,
  titleFor,
} from '~/server/remote/parse'

const fixture = (name: string) => readFileSync(path.join(import.meta.dir, '../fixtures/listings', name), 'utf8')
const LONG = 'A very long file name that some servers truncate because it is long'
const EXPECTED_TITLES = ['01 Intro', '2 Two', '10 Ten', LONG, 'clip', 'Rock & Roll', 'Ünïcode 100%']

describe('captured directory listings', () => {
  for (const server of ['lighttpd', 'caddy']) {
    test(`${server}: media files only, natural order, absolute URLs, decoded titles`, () => {
      const base = 'http://music.example/shared/'
      const tracks = parseHtmlListing(fixture(`${server}.html`), base)
      expect(tracks.map((t) => t.title)).toEqual(EXPECTED_TITLES)
      const rock = tracks.find((t) => t.title === 'Rock & Roll')!
      expect(rock.url).toBe('http://music.example/shared/Rock%20&%20Roll.mp3'.replace('&', server === 'caddy' ? '&' : '%26'))
      expect(tracks.find((t) => t.title === 'clip')).toMatchObject({ mime: 'video/webm' })
      expect(tracks.find((t) => t.title === 'Ünïcode 100%')).toMatchObject({
        url: 'http://music.example/shared/%C3%9Cn%C3%AFcode%20100%25.ogg',
        mime: 'audio/ogg',
      })
      for (const t of tracks) expect(t).toMatchObject({ artist: '', album: 'Unknown Album', duration: 0 })
    })
  }
})

// Caddy answers a client that accepts JSON (ours does) with a JSON listing in its own (lexical)
// order; nginx does with `autoindex_format json`. Directory listings sort the same way whatever
// their format: naturally, directories left out.
describe('directory listings as JSON', () => {
  const names = ['sub/', '01 Intro.mp3', '10 Ten.mp3', '2 Two.mp3', `${LONG}.mp3`, 'Rock & Roll.mp3', 'clip.webm', 'cover.jpg', 'notes.txt', 'Ünïcode 100%.ogg']
  const caddy = JSON.stringify(
    names.map((name) => ({
      name,
      size: 9,
      url: `./${encodeURIComponent(name.replace(/\/$/, '')).replace(/%26/g, '&')}${name.endsWith('/') ? '/' : ''}`,
      mod_time: '2026-11-23T21:27:29Z',
      mode: name.endsWith('/') ? 2147484141 : 420,
      is_dir: name.endsWith('/'),
      is_symlink: false,
    })),
  )
  const nginx = JSON.stringify(
    names.map((name) => ({
      name: name.replace(/\/$/, ''),
      type: name.endsWith('/') ? 'directory' : 'file',
      mtime: 'Mon, 23 Nov 2026 21:27:29 GMT',
      ...(name.endsWith('/') ? {} : { size: 9 }),
    })),
  )

  for (const [server, body] of [
    ['caddy', caddy],
    ['nginx', nginx],
  ]) {
    test(`${server}: natural order, media only, no directories, absolute URLs`, () => {
      const base = 'http://music.example/shared/'
      const tracks = parsePlaylist(body, base, 'application/json')
      expect(tracks.map((t) => t.title)).toEqual(EXPECTED_TITLES)
      expect(tracks.find((t) => t.title === '2 Two')!.url).toBe('http://music.example/shared/2%20Two.mp3')
      expect(tracks.find((t) => t.title === 'Ünïcode 100%')).toMatchObject({
        url: 'http://music.example/shared/%C3%9Cn%C3%AFcode%20100%25.ogg',
        mime: 'audio/ogg',
      })
      expect(tracks.find((t) => t.title === 'clip')).toMatchObject({ mime: 'video/webm' })
    })
  }

  test('a JSON track list (not a listing) keeps its author’s order', () => {
    const body = JSON.stringify([
      { url: '10.mp3', title: 'Ten' },
      { url: '2.mp3', title: 'Two' },
    ])
    expect(parsePlaylist(body, 'http://h/', 'application/json').map((t) => t.title)).toEqual(['Ten', 'Two'])
  })
})

describe('title rules', () => {
  test("text truncated with '..>' gives way to the file name from the URL", () => {
    expect(titleFor('A very long file nam..>', 'http://h/m/A%20very%20long%20file%20name.mp3')).toBe('A very long file name')
    expect(titleFor('', 'http://h/m/Track%2001.flac')).toBe('Track 01')
    expect(titleFor('Given Title', 'http://h/m/x.mp3')).toBe('Given Title')
    expect(titleFor('song.mp3', 'http://h/m/song.mp3')).toBe('song')
    expect(titleFor('linked song.mp3@', 'http://h/m/linked%20song.mp3')).toBe('linked song')
  })
  test('percent-decoding, double-encoded %25 included', () => {
    expect(decodeName('My%20Song')).toBe('My Song')
    expect(decodeName('My%2520Song')).toBe('My Song')
    expect(decodeName('100%25')).toBe('100%')
    expect(decodeName('bad%E0%A4%A')).toBe('bad%E0%A4%A')
  })
  test('nginx-style truncated link text in HTML', () => {
    const html = '<a href="A%20very%20long%20name%20indeed.mp3">A very long nam..&gt;</a>'
    expect(parseHtmlListing(html, 'http://h/x/')[0].title).toBe('A very long name indeed')
  })
})

describe('folder images', () => {
  test("a listing's cover/folder/front .jpg/.png is every track's art, cover first", () => {
    const html = ['front.png', 'Folder.JPG', '01 A.mp3', 'cover.jpeg', '02 B.ogg', 'back.jpg'].map((n) => `<a href="${n}">${n}</a>`).join('\n')
    const tracks = parseHtmlListing(html, 'https://h/x/')
    expect(tracks.map((t) => [t.title, t.cover])).toEqual([
      ['01 A', 'https://h/x/cover.jpeg'],
      ['02 B', 'https://h/x/cover.jpeg'],
    ])
    expect(parseHtmlListing('<a href="folder.jpg">f</a><a href="a.mp3">a</a>', 'https://h/x/')[0].cover).toBe('https://h/x/folder.jpg')
  })
  test('no cover without a folder image', () => {
    expect(parseHtmlListing('<a href="back.jpg">b</a><a href="a.mp3">a</a>', 'https://h/x/')[0].cover).toBeUndefined()
  })
  test('a plain-http listing (a NAS on the LAN) shows its folder image too', () => {
    expect(parseHtmlListing('<a href="cover.jpg">c</a><a href="a.mp3">a</a>', 'http://h/x/')[0].cover).toBe('http://h/x/cover.jpg')
  })
})

describe('playlists', () => {
  test('M3U: #EXTINF titles and durations, relative and absolute entries, media only, order kept', () => {
    const m3u =
      '#EXTM3U\n#EXTINF:123,Artist - First\nsongs/first.mp3\n#EXTINF:-1,Radio\nhttp://radio.example/live\nnotes.txt\n#EXTINF:5,Cut off..>\nhttps://cdn.example/a/Real%20Name.ogg\nsub/list.m3u8\n/abs/z.mp4\n'
    const tracks = parseM3u(m3u, 'http://h/lists/p.m3u')
    expect(tracks.map((t) => [t.title, t.url, t.duration, t.mime])).toEqual([
      ['Artist - First', 'http://h/lists/songs/first.mp3', 123, 'audio/mpeg'],
      ['Radio', 'http://radio.example/live', 0, 'audio/mpeg'],
      ['Real Name', 'https://cdn.example/a/Real%20Name.ogg', 5, 'audio/ogg'],
      ['z', 'http://h/abs/z.mp4', 0, 'video/mp4'],
    ])
  })
  test('PLS: numbered entries in number order', () => {
    const pls = '[playlist]\nFile2=b.mp3\nTitle2=Second\nFile1=http://x.example/a.flac\nTitle1=First\nLength1=61\nNumberOfEntries=2\n'
    expect(parsePls(pls, 'http://h/p/list.pls').map((t) => [t.title, t.url, t.duration])).toEqual([
      ['First', 'http://x.example/a.flac', 61],
      ['Second', 'http://h/p/b.mp3', 0],
    ])
  })
  test('JSON: arrays of strings or objects, or an object holding the list', () => {
    const body = JSON.stringify({
      success: true,
      data: [
        'one.mp3',
        { src: 'two.m4a', title: 'Two', artist: 'B', album: 'C', duration: 9, year: 2001, genre: 'Jazz' },
        { url: 'x.txt' },
        { url: 'javascript:alert(1)' },
      ],
    })
    expect(parseJsonTracks(body, 'http://h/api/list')).toEqual([
      { url: 'http://h/api/one.mp3', title: 'one', mime: 'audio/mpeg', artist: '', album: 'Unknown Album', duration: 0 },
      { url: 'http://h/api/two.m4a', title: 'Two', mime: 'audio/mp4', artist: 'B', album: 'C', duration: 9, year: 2001, genre: 'Jazz' },
    ])
    expect(parseJsonTracks('not json', 'http://h/')).toEqual([])
  })
  test('format detection by content type, extension and content', () => {
    expect(detectFormat('#EXTM3U\n', 'http://h/x', 'application/octet-stream')).toBe('m3u')
    expect(detectFormat('[playlist]\n', 'http://h/x', 'text/plain')).toBe('pls')
    expect(detectFormat('[]', 'http://h/x', 'text/plain')).toBe('json')
    expect(detectFormat('x', 'http://h/a.m3u8', '')).toBe('m3u')
    expect(detectFormat('<html>', 'http://h/', 'text/html')).toBe('html')
  })
})

describe('hostile answers (linear scanning, bounded output; the timings are in bench/parse-hostile-listings.ts)', () => {
  test('unclosed and nested anchors: every media link counts once; texts never run into the next link', () => {
    const html = '<a href="b.mp3">Bee<a href="a.mp3"><span>Ay</span></a><a href="c.mp3">' + '<a href=b.mp3>'.repeat(50)
    expect(parseHtmlListing(html, 'http://h/').map((t) => [t.title, t.url])).toEqual([
      ['Ay', 'http://h/a.mp3'],
      ['b', 'http://h/b.mp3'],
      ['c', 'http://h/c.mp3'],
    ])
    expect(parseHtmlListing('<a href="x.mp3"><<<<', 'http://h/').map((t) => t.title)).toEqual(['x'])
    expect(parseHtmlListing('<a href="x.mp3"'.repeat(100), 'http://h/')).toEqual([])
  })
  test('an #EXTINF line without a comma is ignored', () => {
    expect(parseM3u(`#EXTINF:${'1'.repeat(10_000)}\nsong.mp3\n`, 'http://h/').map((t) => [t.title, t.duration])).toEqual([['song', 0]])
  })
  test(`at most ${MAX_REMOTE_TRACKS} tracks from any format`, () => {
    const n = MAX_REMOTE_TRACKS + 5
    const names = Array.from({ length: n }, (_, i) => `${i}.mp3`)
    expect(parseHtmlListing(names.map((x) => `<a href="${x}">${x}</a>`).join('\n'), 'http://h/')).toHaveLength(MAX_REMOTE_TRACKS)
    expect(parseM3u(names.join('\n'), 'http://h/')).toHaveLength(MAX_REMOTE_TRACKS)
    expect(parsePls(names.map((x, i) => `File${i + 1}=${x}`).join('\n'), 'http://h/')).toHaveLength(MAX_REMOTE_TRACKS)
    expect(parseJsonTracks(JSON.stringify(names), 'http://h/')).toHaveLength(MAX_REMOTE_TRACKS)
  })
})
