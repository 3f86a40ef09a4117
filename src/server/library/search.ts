// How the library is searched, for the web (services/library-index.ts) and /rest
// (subsonic/library.ts) alike, and the library's limits in one table.
//
// A query is a list of word prefixes: only runs of letters, digits and marks survive, each one
// quoted and given a `*` ("Björk hom" → `"Björk"* "hom"*`: every word must match the start of a
// word; the FTS5 tokenizer folds case and accents, so "bjork" finds "Björk"). Quotes, operators
// (AND/OR/NOT/NEAR are quoted words then), column filters, parentheses and `^` never reach FTS5 as
// syntax, so no input turns into a syntax error (a 5xx) or a different query.
//
// Each FTS5 index gives its best rows by bm25 (title weighs most, then artist, album, genre) and
// only those rows are joined. bm25 is computed for every match, which a 2-letter prefix makes
// hundreds of thousands at a million tracks (0.3–0.6 s): a query matching more than
// `rankedMatchesAtMost` rows is answered unranked, in index order, which stops after the page;
// typing one more letter brings the ranking back. Decision 027 has the measured costs.
// On PostgreSQL the same words go to library_search_query over the GIN indexes of
// library_search_document (migrations-pg 0002), which fold case and accents alike (searchRows).
import { sql } from 'drizzle-orm'
import { type Db, isPostgres, rows } from '~/db/engine'
import { PLAYLIST_LIMITS } from '~/shared/validators/playlists'

export const LIBRARY_LIMITS = {
  /** Words of a search that are looked for; later words are ignored. */
  wordsPerSearch: 8,
  /** Characters of a searched word that count; the rest of a longer word is ignored. */
  charactersPerSearchWord: 64,
  /** A search matching more rows than this in one index is answered in index order, unranked. */
  rankedMatchesAtMost: 5000,
  /** A folder played as a playlist (library or remote, web or /rest) stops at this many tracks. */
  tracksPerFolderPlaylist: 20_000,
  /** A member's own playlists (their entries, how many, name and comment lengths): the form checks them too, so they live in the shared validators. */
  ...PLAYLIST_LIMITS,
} as const

/** The words of `input` that are looked for (at most wordsPerSearch, each cut to charactersPerSearchWord), or null when it holds none. */
export function searchWords(input: string): string[] | null {
  const words = input.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu)
  if (!words) return null
  return words.slice(0, LIBRARY_LIMITS.wordsPerSearch).map((w) => w.slice(0, LIBRARY_LIMITS.charactersPerSearchWord))
}

/** The FTS5 MATCH expression for `input`, or null when it holds no word to look for. */
export function ftsQuery(input: string): string | null {
  return ftsMatch(searchWords(input))
}

const ftsMatch = (words: string[] | null) => words?.map((w) => `"${w}"*`).join(' ') ?? null

/**
 * A search index: its FTS5 table and the bm25 weight of each of its columns (SQLite); on
 * PostgreSQL the columns of its library_search_document GIN index, most weighty first.
 */
export type SearchIndex = { fts: string; weights: string; table: string; columns: readonly string[] }
export const SEARCH_INDEXES = {
  artists: { fts: 'library_artists_fts', weights: '1.0', table: 'library_artists', columns: ['name'] },
  albums: { fts: 'library_albums_fts', weights: '10.0, 4.0, 1.0', table: 'library_albums', columns: ['name', 'artist', 'genre'] },
  tracks: { fts: 'library_tracks_fts', weights: '10.0, 4.0, 2.0, 1.0', table: 'library_tracks', columns: ['title', 'artist', 'album', 'genre'] },
} as const satisfies Record<string, SearchIndex>

/**
 * One page of the rows of `select` (alias `alias`) that `words` find in `index`, best first, on
 * either engine. SQLite: searchPage (FTS5, bm25). PostgreSQL: the GIN index over
 * library_search_document (migrations-pg 0002: the same case- and accent-blind word prefixes);
 * ranked by the first column that holds every word (a title match before an album match), then
 * in index order, and unranked when the match is too broad, as on SQLite.
 */
export async function searchRows<T>(db: Db, select: string, alias: string, index: SearchIndex, words: string[], limit: number, offset = 0): Promise<T[]> {
  // SQLite:
  if (!isPostgres(db)) return searchPage<T>(db, select, alias, index, ftsMatch(words)!, limit, offset)
  // PostgreSQL:
  if (limit === 0) return []
  const typed = words.join(' ')
  const column = (name: string) => sql.raw(`${alias}.${name}`)
  const document = sql`library_search_document(${sql.join(index.columns.map(column), sql`, `)})`
  const found = sql`${document} @@ library_search_query(${typed})`
  const cap = LIBRARY_LIMITS.rankedMatchesAtMost
  const [{ n }] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${sql.raw(`${index.table} ${alias}`)} WHERE ${found} LIMIT ${cap + 1}) m`,
  )
  const rank =
    n > cap || index.columns.length === 1
      ? sql``
      : sql`CASE ${sql.join(
          index.columns.map((name, i) => sql`WHEN library_search_document(${column(name)}) @@ library_search_query(${typed}) THEN ${sql.raw(String(i))}`),
          sql` `,
        )} ELSE ${sql.raw(String(index.columns.length))} END, `
  return rows<T>(db, sql`${sql.raw(select)} WHERE ${found} ORDER BY ${rank}${column('seq')} LIMIT ${limit} OFFSET ${offset}`)
}

/**
 * SQLite: one page of the rows of `select` (alias `alias`, joined on its `seq`) that `match` finds
 * in `index`, best first: by bm25, or in index order when the match is too broad to rank.
 */
export function searchPage<T>(db: Db, select: string, alias: string, index: SearchIndex, match: string, limit: number, offset = 0): T[] {
  if (limit === 0) return []
  const { fts, weights } = index
  const cap = LIBRARY_LIMITS.rankedMatchesAtMost
  const broad =
    db.$client.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT ${cap + 1})`).get(match)!.n > cap
  const score = broad ? 'rowid' : `bm25(${fts}, ${weights})`
  return db.$client
    .query<T, [string, number, number]>(
      `${select} JOIN (SELECT rowid, ${score} AS score FROM ${fts} WHERE ${fts} MATCH ?1 ORDER BY score LIMIT ?2 OFFSET ?3) m ON m.rowid = ${alias}.seq ORDER BY m.score`,
    )
    .all(match, limit, offset)
}
