// Which chart entries the server library holds, so a member can play them (the Listen button).
// A chart names songs by title and artist only, so an entry matches a library track whose title
// and artist are the same words, case and accents aside ("Bjork - Joga" is "Björk - Jóga").
// One FTS5 query per chart (on PostgreSQL one tsquery over library_search_document): the unicode61 index (remove_diacritics 2) already folds case and
// accents, so each entry becomes a pair of column phrases, OR-ed together; the rows found are then
// checked word for word here, since a phrase also matches inside a longer title. Of several
// copies of a song, the first by library path plays.
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

/** For each entry (by its index in `entries`), the library track with its title and artist, if any. */
export async function libraryMatches(db: Db, secret: string, entries: ReadonlyArray<{ title: string; artist: string }>): Promise<Map<number, LibraryTrack>> {
  const wanted = new Map<string, number[]>()
  /** Each distinct entry's title words and artist words. */
  const queries: Array<{ title: string[]; artist: string[] }> = []
  entries.forEach((e, i) => {
    const title = matchWords(e.title)
    if (title.length === 0) return
    const key = keyOf(e.title, e.artist)
    if (!wanted.has(key)) {
      queries.push({ title, artist: matchWords(e.artist) })
      wanted.set(key, [])
    }
    wanted.get(key)?.push(i)
  })
  const found = new Map<number, LibraryTrack>()
  if (queries.length === 0) return found
  for (const row of await candidates(db, queries)) {
    const indexes = wanted.get(keyOf(row.title, row.artist))
    if (!indexes || found.has(indexes[0])) continue
    const track = trackOf(secret, row)
    for (const i of indexes) found.set(i, track)
  }
  return found
}

/** The tracks that may be one of the entries, by library path; checked word for word by the caller. */
function candidates(db: Db, queries: Array<{ title: string[]; artist: string[] }>): Promise<LibraryRow[]> {
  if (isPostgres(db)) {
    // PostgreSQL: every word of the entry as a prefix anywhere in the track's words, the entries
    // OR-ed into one tsquery over the GIN index of library_search_document (migrations-pg 0002).
    const any = sql.join(
      queries.map((q) => sql`library_search_query(${[...q.title, ...q.artist].join(' ')})`),
      sql` || `,
    )
    return rows<LibraryRow>(
      db,
      sql`SELECT ${sql.raw(LIBRARY_COLUMNS)} FROM library_tracks t WHERE library_search_document(t.title, t.artist, t.album, t.genre) @@ (${any})
        ORDER BY t.path COLLATE "C" LIMIT ${MAX_CANDIDATES}`,
    )
  }
  // SQLite: words are letters and digits only, so quoting them as one phrase cannot make FTS5 syntax.
  const clauses = queries.map(({ title, artist }) =>
    artist.length > 0 ? `(title : "${title.join(' ')}" AND artist : "${artist.join(' ')}")` : `(title : "${title.join(' ')}")`,
  )
  return Promise.resolve(
    db.$client
      .query<LibraryRow, [string, number]>(
        `SELECT ${LIBRARY_COLUMNS} FROM library_tracks_fts f JOIN library_tracks t ON t.seq = f.rowid WHERE library_tracks_fts MATCH ?1 ORDER BY t.path LIMIT ?2`,
      )
      .all(clauses.join(' OR '), MAX_CANDIDATES),
  )
}
