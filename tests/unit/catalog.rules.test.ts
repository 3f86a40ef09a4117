// The catalog (src/server/catalog): one library row, its one mapping to a Track, and the one rule
// that makes a track's URL a stable key — in JavaScript (trackKey) and in SQL (TRACK_KEY_SQL, the
// play_events.track_key column), which must give the same answers.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { TRACK_KEY_SQL, trackKey } from '~/server/catalog/track-key'
import { type LibraryRow, libraryTrackKey, playerTrackOf, signedMediaUrl, trackOf } from '~/server/catalog/track'
import { verifyMediaSignature } from '~/server/media/sign'

const db = openDb(path.join(mkdtempSync(path.join(tmpdir(), 'vibes-unit-')), 'vibes.db'), path.resolve(import.meta.dir, '../../src/db/migrations'))
const SECRET = 'catalog-unit-secret-'.repeat(3)

describe('trackKey', () => {
  test('the track key a play is stored under is the rule of the track_key column, which older rows still go through', () => {
    const urls = [
      '/media/jazz/blue%20in%20green.mp3?exp=1&sig=AAAA',
      '/media/jazz/x.wma?t=mp3&exp=1&sig=B',
      '/media/jazz/plain.mp3',
      'https://nas.example/stream.php?id=3',
      'https://cdn.example/a.mp3?X-Amz-sig=1',
      'local:Music/a.flac',
      'sig=?',
    ]
    const sqlKey = db.$client.query<{ key: string }, [string]>(`SELECT ${TRACK_KEY_SQL} AS key FROM (SELECT ? AS track_url)`)
    for (const url of urls) expect(trackKey(url)).toBe(sqlKey.get(url)!.key)
    expect(trackKey(urls[0]!)).toBe('/media/jazz/blue%20in%20green.mp3')
  })

  test('play_events.track_key is TRACK_KEY_SQL as the migrations made it', () => {
    const table = db.$client.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'play_events'").get()!.sql
    expect(table).toContain(`GENERATED ALWAYS AS (${TRACK_KEY_SQL})`)
  })

  test("a library file's key is its signed URL's key, converted or not", () => {
    for (const [file, mime] of [
      ['Jazz/Blue in Green #2.mp3', 'audio/mpeg'],
      ['Old/x.wma', 'audio/x-ms-wma'],
    ]) {
      expect(trackKey(signedMediaUrl(SECRET, file, mime).url)).toBe(libraryTrackKey(file))
    }
    expect(libraryTrackKey('Jazz/Blue in Green #2.mp3')).toBe('/media/Jazz/Blue%20in%20Green%20%232.mp3')
  })
})

const row = (over: Partial<LibraryRow> = {}): LibraryRow => ({
  id: 't1',
  path: 'Miles/Kind of Blue/02 Freddie.mp3',
  folder: 'Miles/Kind of Blue',
  title: 'Freddie Freeloader',
  artist: 'Miles Davis',
  albumArtist: 'Miles Davis',
  artistId: 'ar1',
  album: 'Kind of Blue',
  albumId: 'al1',
  genre: null,
  year: null,
  track: null,
  disc: null,
  duration: 589.5,
  bitrate: null,
  size: 1000,
  mime: 'audio/mpeg',
  coverPath: null,
  seq: 1,
  addedAt: 0,
  rgTrackGain: null,
  rgTrackPeak: null,
  rgAlbumGain: null,
  rgAlbumPeak: null,
  ...over,
})

const signedFor = (url: string, kind: Parameters<typeof verifyMediaSignature>[2]) => {
  const u = new URL(url, 'http://x')
  const rel = decodeURIComponent(u.pathname.slice('/media/'.length))
  return verifyMediaSignature(SECRET, rel, kind, u.searchParams.get('exp'), u.searchParams.get('sig'))
}

describe('trackOf', () => {
  test('a plain row: the index ids, a signed URL of the file, tags absent from the index left out', () => {
    const t = trackOf(SECRET, row())
    expect(t).toEqual({
      id: 't1',
      url: expect.stringMatching(/^\/media\/Miles\/Kind%20of%20Blue\/02%20Freddie\.mp3\?exp=\d+&sig=/),
      mime: 'audio/mpeg',
      title: 'Freddie Freeloader',
      artist: 'Miles Davis',
      artistId: 'ar1',
      album: 'Kind of Blue',
      albumId: 'al1',
      duration: 589.5,
    })
    expect(signedFor(t.url, 'file')).toBe('ok')
  })

  test('tags the index holds: genre, year, numbers, bit rate, a signed cover and the ReplayGain present', () => {
    const t = trackOf(
      SECRET,
      row({ genre: 'Jazz', year: 1959, track: 2, disc: 1, bitrate: 320, coverPath: 'Miles/Kind of Blue/cover.jpg', rgTrackGain: -6.5, rgAlbumPeak: 0.9 }),
    )
    expect(t).toMatchObject({ genre: 'Jazz', year: 1959, track: 2, disc: 1, bitrate: 320, replayGain: { trackGain: -6.5, albumPeak: 0.9 } })
    expect(signedFor(t.cover!, 'cover')).toBe('ok')
  })

  test('a file tagged with an album artist only shows it as its artist', () => {
    expect(trackOf(SECRET, row({ artist: '', albumArtist: 'Bill Evans' })).artist).toBe('Bill Evans')
  })

  test('a format the browser cannot play is offered as its converted stream', () => {
    const t = trackOf(SECRET, row({ path: 'Old/x.wma', mime: 'audio/x-ms-wma' }))
    expect(t.url).toMatch(/^\/media\/Old\/x\.wma\?t=mp3&exp=\d+&sig=/)
    expect(t.mime).toBe('audio/mpeg')
  })

  test('the player track is the same track without the index ids', () => {
    const full = row({ genre: 'Jazz', track: 2, disc: 1, bitrate: 320 })
    const { id: _id, artistId: _a, albumId: _b, track: _t, disc: _d, bitrate: _r, ...rest } = trackOf(SECRET, full)
    expect(playerTrackOf(SECRET, full)).toEqual(rest)
  })
})
