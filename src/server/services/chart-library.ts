// Which chart entries the server library holds, so a member can play them (the Listen button).
// A chart names songs by title and artist only, so an entry matches a library track whose title
// and artist are the same words, case and accents aside ("Bjork - Joga" is "Björk - Jóga").
// One FTS5 query per chart: the unicode61 index (remove_diacritics 2) already folds case and
// accents, so each entry becomes a pair of column phrases, OR-ed together; the rows found are then
// checked word for word here, since a phrase also matches inside a longer title. On PostgreSQL the
// same query runs on the library_search_document index (src/db/migrations-pg/0002), which folds
// case and accents the same way: each entry's words all required. Of several copies of a song, the
// first by library path plays.
import { sql } from 'drizzle-orm'
import { type Db, isPostgres, rows } from '~/db/engine'
import type { LibraryTrack } from '~/shared/library'
import { LIBRARY_COLUMNS, type LibraryRow, trackOf } from '../catalog/track'

/** The candidates one chart query may bring back (a 100-song chart of common titles fits). */
const MAX_CANDIDATES = 2000

/** The words of a title or artist, case and accents folded: the key two names must share. */
export function matchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

const keyOf = (title: string, artist: string) => `${matchWords(title).join(' ')}\u0001${matchWords(artist).join(' ')}`

const COLUMNS = sql.raw(LIBRARY_COLUMNS)

type Wanted = { title: string[]; artist: string[] }

/** The library tracks that may be these entries, first by path: the candidates checked word for word. */
function candidates(db: Db, wanted: Wanted[]): Promise<LibraryRow[]> {
  // Words are letters and digits only, so quoting them cannot make FTS5 or tsquery syntax.
  if (isPostgres(db)) {
    // PostgreSQL: every word of the entry's title and artist, on the search index; paths in byte order as SQLite's.
    const query = wanted.map((w) => `(${[...w.title, ...w.artist].map((word) => `'${word}'`).join(' & ')})`).join(' | ')
    return rows<LibraryRow>(
      db,
      sql`SELECT ${COLUMNS} FROM library_tracks t WHERE library_search_document(t.title, t.artist, t.album, t.genre) @@ to_tsquery('simple', ${query})
        ORDER BY t.path COLLATE "C" LIMIT ${MAX_CANDIDATES}`,
    )
  }
  // SQLite: one FTS5 query of column phrases.
  const match = wanted
    .map((w) => (w.artist.length > 0 ? `(title : "${w.title.join(' ')}" AND artist : "${w.artist.join(' ')}")` : `(title : "${w.title.join(' ')}")`))
    .join(' OR ')
  return rows<LibraryRow>(
    db,
    sql`SELECT ${COLUMNS} FROM library_tracks_fts f JOIN library_tracks t ON t.seq = f.rowid WHERE library_tracks_fts MATCH ${match} ORDER BY t.path LIMIT ${MAX_CANDIDATES}`,
  )
}

/** For each entry (by its index in `entries`), the library track with its title and artist, if any. */
export async function libraryMatches(db: Db, secret: string, entries: ReadonlyArray<{ title: string; artist: string }>): Promise<Map<number, LibraryTrack>> {
  const words: Wanted[] = []
  const wanted = new Map<string, number[]>()
  entries.forEach((e, i) => {
    const title = matchWords(e.title)
    if (title.length === 0) return
    const key = keyOf(e.title, e.artist)
    if (!wanted.has(key)) {
      words.push({ title, artist: matchWords(e.artist) })
      wanted.set(key, [])
    }
    wanted.get(key)?.push(i)
  })
  const found = new Map<number, LibraryTrack>()
  if (words.length === 0) return found
  for (const row of await candidates(db, words)) {
    const indexes = wanted.get(keyOf(row.title, row.artist))
    if (!indexes || found.has(indexes[0])) continue
    const track = trackOf(secret, row)
    for (const i of indexes) found.set(i, track)
  }
  return found
}
