// A synthetic library index written straight into a migrated database (rows as the scanner writes
// them, FTS kept by the migration's triggers): `tracks` tracks, ten to an album, `albumsPerArtist`
// albums to an artist, 40 genres, years 1950–2024, a folder per artist and per album, names drawn
// from 4,000 made-up words (a fifth of them accented). Shared by bench/library-search.ts and
// bench/subsonic-at-scale.ts; seeded, so the same index and the same queries on every run.
import type { Database } from 'bun:sqlite'
import { albumId, artistId, trackId } from '../../src/server/library/scan-plan'

let seed = 42
export const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
export const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]

const syllables = ['ka', 'lo', 'mi', 'ren', 'sa', 'tor', 'vel', 'ny', 'dra', 'qu', 'es', 'bja', 'rk', 'ol', 'fin', 'gu', 'hal', 'ze', 'pri', 'mon']
const accents: Record<string, string> = { a: 'á', o: 'ö', e: 'é', u: 'ü' }
export const words = Array.from({ length: 4000 }, (_, i) => {
  let w = ''
  for (let s = 0; s < 2 + (i % 3); s++) w += pick(syllables)
  return i % 5 === 0 ? w.replace(/[aoeu]/, (c) => accents[c]) : w
})
const cap = (w: string) => w[0].toUpperCase() + w.slice(1)
const phrase = (n: number) => Array.from({ length: n }, () => cap(pick(words))).join(' ')
export const genres = Array.from({ length: 40 }, () => cap(pick(words)))

/** Writes the index (into an empty, migrated database), then library_genres and ANALYZE. */
export function seedLibraryIndex(c: Database, opts: { tracks: number; albumsPerArtist: number; progress?: (tracks: number) => void }) {
  const albums = opts.tracks / 10
  // Unique names: two made-up words and a number ("Kalo Renmi 123").
  const artists = Array.from({ length: Math.ceil(albums / opts.albumsPerArtist) }, (_, i) => `${phrase(2)} ${i}`)
  const insertTrack = c.prepare(`INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id, genre,
    track_no, disc_no, year, duration, bitrate, format, mime, size, mtime_ms, embedded_cover, cover_path, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 320, 'MPEG', 'audio/mpeg', 5000000, 0, 0, ?, ?)`)
  const insertAlbum = c.prepare(`INSERT INTO library_albums (id, name, sort_name, artist, artist_id, year, genre, song_count, duration, cover_path, added_at)
    VALUES (?, ?, lower(?), ?, ?, ?, ?, 10, 2400, ?, ?)`)
  const insertArtist = c.prepare('INSERT INTO library_artists (id, name, sort_name, album_count, song_count, cover_path) VALUES (?, ?, lower(?), ?, ?, NULL)')
  const insertFolder = c.prepare('INSERT OR IGNORE INTO library_folders (path, parent, name, cover_path) VALUES (?, ?, ?, NULL)')
  insertFolder.run('', null, '')
  const write = c.transaction((from: number, to: number) => {
    for (let a = from; a < to; a++) {
      const artist = artists[Math.floor(a / opts.albumsPerArtist)]
      const album = phrase(1 + (a % 3))
      const folder = `${artist}/${album} (${a})`
      // One id per generated album, even when an artist's random album names repeat.
      const aId = albumId(artist, `${album}\0${a}`, folder)
      const year = 1950 + (a % 75)
      const genre = genres[a % genres.length]
      const cover = `${folder}/cover.jpg`
      if (a % opts.albumsPerArtist === 0) {
        insertArtist.run(artistId(artist), artist, artist, opts.albumsPerArtist, opts.albumsPerArtist * 10)
        insertFolder.run(artist, '', artist)
      }
      insertFolder.run(folder, artist, `${album} (${a})`)
      insertAlbum.run(aId, album, album, artist, artistId(artist), year, genre, cover, a * 1000)
      for (let t = 1; t <= 10; t++) {
        const title = phrase(1 + ((a + t) % 4))
        const p = `${folder}/${t} ${title}.mp3`
        insertTrack.run(trackId(p), p, folder, title, artist, artistId(artist), artist, artistId(artist), album, aId, genre, t, year, 240, cover, a * 1000)
      }
    }
  })
  for (let a = 0; a < albums; a += 1000) {
    write(a, Math.min(albums, a + 1000))
    opts.progress?.(a * 10)
  }
  c.exec('INSERT INTO library_genres (name, song_count, album_count) SELECT genre, count(*), count(DISTINCT album_id) FROM library_tracks GROUP BY genre')
  c.exec('ANALYZE')
}
