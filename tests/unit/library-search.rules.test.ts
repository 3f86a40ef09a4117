// The one search the web (/api/library/search) and OpenSubsonic's search3 both answer with
// (src/server/library/search.ts), on the real migrated schema: what either relies on is that a
// word finds the words it starts, whatever their case and accents; that a title match ranks above
// an artist, album or genre match; that a match too broad to rank still answers, in index order;
// and that pages follow one another.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { type Db, openDb } from '~/db/client'
import { ftsQuery, LIBRARY_LIMITS, SEARCH_INDEXES, searchPage } from '~/server/library/search'

type Row = { seq: number; title: string }
const SELECT = 'SELECT t.seq, t.title FROM library_tracks t'

let db: Db
let seq = 0
function addTrack(title: string, artist = 'Someone', album = 'Something', genre: string | null = null) {
  seq++
  db.$client
    .query(
      `INSERT INTO library_tracks (seq, id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id, genre,
         duration, mime, size, mtime_ms, embedded_cover, added_at)
       VALUES (?1, ?2, ?3, '', ?4, ?5, 'ar', ?5, 'ar', ?6, 'al', ?7, 60, 'audio/mpeg', 1, 0, 0, ?1)`,
    )
    .run(seq, `t${seq}`, `${seq}.mp3`, title, artist, album, genre)
  return seq
}
const titles = (q: string, limit = 10, offset = 0) => searchPage<Row>(db, SELECT, 't', SEARCH_INDEXES.tracks, ftsQuery(q)!, limit, offset).map((r) => r.title)

beforeAll(() => {
  db = openDb(':memory:', path.resolve('src/db/migrations'))
})
afterAll(() => db.$client.close())

describe('library search', () => {
  test('each word is a prefix of a word, blind to case and accents', () => {
    addTrack('Jóga', 'Björk', 'Homogenic')
    addTrack('Hyperballad', 'Björk', 'Post')
    addTrack('Homeward Bound', 'Simon & Garfunkel', 'Bookends')
    expect(titles('bjork').sort()).toEqual(['Hyperballad', 'Jóga'])
    expect(titles('BJÖRK HOM')).toEqual(['Jóga'])
    expect(titles('joga')).toEqual(['Jóga'])
    expect(titles('hom').sort()).toEqual(['Homeward Bound', 'Jóga'])
    // Inside a word is not the start of one.
    expect(titles('ork')).toEqual([])
  })

  test('a title match ranks above an artist, album or genre match', () => {
    addTrack('Quiet Song', 'Nobody', 'Nothing', 'Lullaby')
    addTrack('Nothing much', 'Nobody', 'Lullaby', 'Pop')
    addTrack('Anything', 'Lullaby Band', 'Nothing', 'Pop')
    addTrack('Lullaby', 'Nobody', 'Nothing', 'Pop')
    expect(titles('lullaby')[0]).toBe('Lullaby')
  })

  test('pages follow one another without repeating a row', () => {
    const all = titles('lullaby', 10)
    expect(all).toHaveLength(4)
    expect([...titles('lullaby', 2, 0), ...titles('lullaby', 2, 2)]).toEqual(all)
    expect(titles('lullaby', 0)).toEqual([])
  })

  test('a match broader than the ranking cap is answered in index order, one match more is ranked', () => {
    const cap = LIBRARY_LIMITS.rankedMatchesAtMost
    // cap - 1 matches with "zebra" in the artist only, then one with it in the title: cap matches
    // are ranked, so the title match comes first even though it was added last.
    const first = addTrack('Plain', 'Zebra Crossing')
    for (let i = 2; i < cap; i++) addTrack(`Plain ${i}`, 'Zebra Crossing')
    const titled = addTrack('Zebra', 'Nobody')
    expect(titles('zebra', 1)).toEqual(['Zebra'])
    // One more match: too broad to rank, so the first rows of the index come first.
    addTrack('Plain again', 'Zebra Crossing')
    const page = searchPage<Row>(db, SELECT, 't', SEARCH_INDEXES.tracks, ftsQuery('zebra')!, 3)
    expect(page.map((r) => r.seq)).toEqual([first, first + 1, first + 2])
    expect(page.some((r) => r.seq === titled)).toBe(false)
  })
})
