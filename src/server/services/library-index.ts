// Reads of the library index for members: search, albums, artists, genres, the folder tree.
// Each answer is one or two indexed queries (no table is loaded and filtered in JS): album and
// artist lists and songs walk their sort index from a keyset cursor (page-cursor.ts). Search is
// library/search.ts's, shared with /rest.
// Raw statements over bun:sqlite: at page sizes of 500, Drizzle's row mapping would cost more
// than the queries. bench/library-search.ts times all of them at a million tracks.
import { InvalidError, NotFoundError } from '../errors'
import type { Db } from '~/db/client'
import { artistFilesOf } from '../library/info-files'
import type {
  LibraryAlbum,
  LibraryAlbumDetail,
  LibraryAlbumPage,
  LibraryArtist,
  LibraryArtistDetail,
  LibraryArtistPage,
  LibraryFolderListing,
  LibraryGenre,
  LibrarySearchResult,
  LibraryTrack,
  LibraryTrackPage,
} from '~/shared/library'
import type { AlbumSort, LibraryAlbumListInput, LibraryPageInput, LibrarySearchInput, LibraryTrackListInput } from '~/shared/validators/library'
import { LIBRARY_COLUMNS, LIBRARY_SELECT, type LibraryRow, trackOf } from '../catalog/track'
import { decodeCursor, encodeCursor, type KeyPart, type KeyValue } from '../library/page-cursor'
import { ftsQuery, SEARCH_INDEXES, searchPage } from '../library/search'
import { normalizeRelPath } from '../media/library-path'
import { naturalCompare } from '../media/natural'
import { signMediaUrl } from '../media/sign'
import { folderNotInLibrary } from './library'

export type AlbumRow = {
  id: string
  name: string
  artist: string
  artistId: string
  year: number | null
  genre: string | null
  songCount: number
  duration: number
  coverPath: string | null
  addedAt: number
  seq: number
  sortName: string
}
// Aliases quoted: PostgreSQL folds bare names to lower case.
export const ALBUM_SELECT = `SELECT a.seq, a.sort_name AS "sortName", a.id, a.name, a.artist, a.artist_id AS "artistId", a.year, a.genre, a.song_count AS "songCount", a.duration, a.cover_path AS "coverPath",
  a.added_at AS "addedAt" FROM library_albums a`

export type ArtistRow = { seq: number; id: string; name: string; sortName: string; albumCount: number; songCount: number; coverPath: string | null }
export const ARTIST_SELECT =
  'SELECT r.seq, r.sort_name AS "sortName", r.id, r.name, r.album_count AS "albumCount", r.song_count AS "songCount", r.cover_path AS "coverPath" FROM library_artists r'

function toAlbum(secret: string, r: AlbumRow): LibraryAlbum {
  const a: LibraryAlbum = {
    id: r.id,
    name: r.name,
    artist: r.artist,
    artistId: r.artistId,
    songCount: r.songCount,
    duration: Math.round(r.duration * 1000) / 1000,
    addedAt: new Date(r.addedAt).toISOString(),
  }
  if (r.year) a.year = r.year
  if (r.genre) a.genre = r.genre
  if (r.coverPath) a.cover = signMediaUrl(secret, r.coverPath, 'cover')
  return a
}

function toArtist(secret: string, r: ArtistRow): LibraryArtist {
  const a: LibraryArtist = { id: r.id, name: r.name, albumCount: r.albumCount, songCount: r.songCount }
  if (r.coverPath) a.cover = signMediaUrl(secret, r.coverPath, 'cover')
  return a
}

export function search(db: Db, secret: string, input: LibrarySearchInput): LibrarySearchResult {
  const match = ftsQuery(input.q)
  if (!match) return { artists: [], albums: [], tracks: [] }
  const artists = searchPage<ArtistRow>(db, ARTIST_SELECT, 'r', SEARCH_INDEXES.artists, match, input.limit)
  const albums = searchPage<AlbumRow>(db, ALBUM_SELECT, 'a', SEARCH_INDEXES.albums, match, input.limit)
  const tracks = searchPage<LibraryRow>(db, LIBRARY_SELECT, 't', SEARCH_INDEXES.tracks, match, input.limit)
  return { artists: artists.map((r) => toArtist(secret, r)), albums: albums.map((r) => toAlbum(secret, r)), tracks: tracks.map((r) => trackOf(secret, r)) }
}

/**
 * One run of a keyset page: rows matching `where` in `order`, which an index walks from the
 * cursor on (so a page deep in the list costs what the first one does).
 */
type Segment = { where: string[]; params: KeyValue[]; order: string }

/**
 * A page of `limit` rows from the segments in turn (a sort on a nullable column is two or three
 * segments), fetching one row more to know whether a next page exists; its cursor is the key of
 * the page's last row.
 */
function keysetPage<R>(db: Db, select: string, segments: Segment[], limit: number, key: (r: R) => KeyValue[]): { rows: R[]; next: string | null } {
  const rows: R[] = []
  for (const s of segments) {
    if (rows.length > limit) break
    const where = s.where.length ? ` WHERE ${s.where.join(' AND ')}` : ''
    rows.push(...db.$client.query<R, KeyValue[]>(`${select}${where} ORDER BY ${s.order} LIMIT ${limit + 1 - rows.length}`).all(...s.params))
  }
  const more = rows.length > limit
  if (more) rows.length = limit
  return { rows, next: more ? encodeCursor(key(rows[rows.length - 1])) : null }
}

const badCursor = () => new InvalidError('cursor is not valid for this list', 'cursor')

/** The cursor's key in `shape`, undefined for the first page; a cursor of another list is a 400. */
function cursorKey(cursor: string | undefined, shape: KeyPart[]): KeyValue[] | undefined {
  if (cursor === undefined) return undefined
  const key = decodeCursor(cursor, shape)
  if (!key) throw badCursor()
  return key
}

/**
 * The segments of each album sort after a key. Name and recently added are one row-value range
 * over their index; year (newest first, albums without one last) is the rest of the cursor's
 * year, then older years, then the yearless albums.
 */
function albumSegments(sort: AlbumSort, cursor: string | undefined): Segment[] {
  if (sort === 'name') {
    const key = cursorKey(cursor, ['text', 'text'])
    return [{ where: key ? ['(a.sort_name, a.id) > (?, ?)'] : [], params: key ?? [], order: 'a.sort_name, a.id' }]
  }
  if (sort === 'recent') {
    const key = cursorKey(cursor, ['int', 'int'])
    return [{ where: key ? ['(a.added_at, a.seq) < (?, ?)'] : [], params: key ?? [], order: 'a.added_at DESC, a.seq DESC' }]
  }
  const byName = 'a.sort_name, a.seq'
  const yearless: Segment = { where: ['a.year IS NULL'], params: [], order: byName }
  const key = cursorKey(cursor, ['int?', 'text', 'int'])
  if (!key) return [{ where: ['a.year IS NOT NULL'], params: [], order: `a.year DESC, ${byName}` }, yearless]
  const [year, name, seq] = key
  if (year === null) return [{ where: ['a.year IS NULL', '(a.sort_name, a.seq) > (?, ?)'], params: [name, seq], order: byName }]
  return [
    { where: ['a.year = ?', '(a.sort_name, a.seq) > (?, ?)'], params: [year, name, seq], order: byName },
    { where: ['a.year < ?'], params: [year], order: `a.year DESC, ${byName}` },
    yearless,
  ]
}

const ALBUM_KEY: Record<AlbumSort, (r: AlbumRow) => KeyValue[]> = {
  name: (r) => [r.sortName, r.id],
  year: (r) => [r.year, r.sortName, r.seq],
  recent: (r) => [r.addedAt, r.seq],
}

export function listAlbums(db: Db, secret: string, input: LibraryAlbumListInput): LibraryAlbumPage {
  let segments = albumSegments(input.sort, input.cursor)
  if (input.genre !== undefined) segments = segments.map((s) => ({ ...s, where: ['a.genre = ?', ...s.where], params: [input.genre!, ...s.params] }))
  const page = keysetPage(db, ALBUM_SELECT, segments, input.limit, ALBUM_KEY[input.sort])
  const where = input.genre !== undefined ? ' WHERE a.genre = ?1' : ''
  const params = input.genre !== undefined ? [input.genre] : []
  const total = db.$client.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM library_albums a${where}`).get(...params)!.n
  return { albums: page.rows.map((r) => toAlbum(secret, r)), total, next: page.next }
}

/** An album's rows in play order: disc, track number, then file name. */
export function albumRows(db: Db, albumId: string): LibraryRow[] {
  const rows = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.album_id = ?`).all(albumId)
  return rows.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))
}

function albumTracks(db: Db, secret: string, albumId: string): LibraryTrack[] {
  return albumRows(db, albumId).map((r) => trackOf(secret, r))
}

export function getAlbum(db: Db, secret: string, id: string): LibraryAlbumDetail {
  const row = db.$client.query<AlbumRow, [string]>(`${ALBUM_SELECT} WHERE a.id = ?`).get(id)
  if (!row) throw new NotFoundError('Album not found')
  return { ...toAlbum(secret, row), tracks: albumTracks(db, secret, id) }
}

export function listArtists(db: Db, secret: string, input: LibraryPageInput): LibraryArtistPage {
  const key = cursorKey(input.cursor, ['text', 'text'])
  const segment = { where: key ? ['(r.sort_name, r.id) > (?, ?)'] : [], params: key ?? [], order: 'r.sort_name, r.id' }
  const page = keysetPage<ArtistRow>(db, ARTIST_SELECT, [segment], input.limit, (r) => [r.sortName, r.id])
  const total = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM library_artists').get()!.n
  return { artists: page.rows.map((r) => toArtist(secret, r)), total, next: page.next }
}

/** The artist, its albums (those it is the album artist of, then those it only appears on) and its songs. */
export function getArtist(db: Db, secret: string, id: string): LibraryArtistDetail {
  const row = db.$client.query<ArtistRow, [string]>(`${ARTIST_SELECT} WHERE r.id = ?`).get(id)
  if (!row) throw new NotFoundError('Artist not found')
  const albums = db.$client
    .query<AlbumRow, [string]>(
      `${ALBUM_SELECT} WHERE a.artist_id = ?1 OR a.id IN (SELECT DISTINCT album_id FROM library_tracks WHERE artist_id = ?1)
       ORDER BY a.artist_id <> ?1, a.year, a.sort_name`,
    )
    .all(id)
  // Its own songs, album by album in the order above (the artist index, then a sort of a few hundred).
  const position = new Map(albums.map((a, i) => [a.id, i]))
  const tracks = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.artist_id = ?`).all(id)
  tracks.sort(
    (a, b) =>
      (position.get(a.albumId) ?? albums.length) - (position.get(b.albumId) ?? albums.length) ||
      (a.disc ?? 0) - (b.disc ?? 0) ||
      (a.track ?? 0) - (b.track ?? 0) ||
      naturalCompare(a.path, b.path),
  )
  // Its picture and biography from the files beside its music, as the OpenSubsonic apps get them.
  const files = artistFilesOf(db, id)
  const artist = toArtist(secret, { ...row, coverPath: files.imagePath ?? row.coverPath })
  return {
    ...artist,
    ...(files.biography ? { biography: files.biography } : {}),
    albums: albums.map((r) => toAlbum(secret, r)),
    tracks: tracks.map((r) => trackOf(secret, r)),
  }
}

export function listGenres(db: Db): { genres: LibraryGenre[] } {
  const genres = db.$client
    .query<LibraryGenre, []>('SELECT name, song_count AS songCount, album_count AS albumCount FROM library_genres ORDER BY lower(name), name')
    .all()
  return { genres }
}

const titleOrder = 't.title COLLATE NOCASE, t.seq'
/** Titles after (title, seq): the first term alone lets SQLite seek the title index (with the row value only, it scanned the index from the start: 170 ms deep in a million songs). */
const afterTitle = (title: string, seq: string) => [`t.title >= ${title} COLLATE NOCASE`, `(t.title COLLATE NOCASE, t.seq) > (${title}, ${seq})`]

/** Songs by title (case-insensitive, the title index) or recently added first. */
function trackSegment(sort: 'title' | 'recent', cursor: string | undefined): Segment {
  if (sort === 'title') {
    const key = cursorKey(cursor, ['text', 'int'])
    return { where: key ? afterTitle('?1', '?2') : [], params: key ?? [], order: titleOrder }
  }
  const key = cursorKey(cursor, ['int', 'int'])
  return { where: key ? ['(t.added_at, t.seq) < (?, ?)'] : [], params: key ?? [], order: 't.added_at DESC, t.seq DESC' }
}

/** The member's rating beside each song: ?1 is the member (ratings' primary key per song). */
const RATED_SELECT = `SELECT ${LIBRARY_COLUMNS}, r.rating AS rating FROM library_tracks t LEFT JOIN ratings r ON r.user_id = ?1 AND r.item_id = t.id`

/**
 * The rating sort: the member's rated songs (a few, read from the ratings index) best first, then
 * by title; then the unrated ones by title (the title index, a primary-key probe per song). The
 * cursor is (rating, title, seq), rating 0 once in the unrated part.
 */
function ratingSegments(userId: string, cursor: string | undefined): Segment[] {
  const unrated = (after?: [string, number]): Segment => ({
    where: ['r.rating IS NULL', ...(after ? afterTitle('?2', '?3') : [])],
    params: after ? [userId, ...after] : [userId],
    order: titleOrder,
  })
  const key = cursorKey(cursor, ['int', 'text', 'int'])
  if (!key) return [{ where: ['r.rating IS NOT NULL'], params: [userId], order: `r.rating DESC, ${titleOrder}` }, unrated()]
  const [rating, title, seq] = key as [number, string, number]
  if (rating === 0) return [unrated([title, seq])]
  return [
    {
      where: ['r.rating IS NOT NULL', '(r.rating < ?2 OR (r.rating = ?2 AND (t.title COLLATE NOCASE, t.seq) > (?3, ?4)))'],
      params: [userId, rating, title, seq],
      order: `r.rating DESC, ${titleOrder}`,
    },
    unrated(),
  ]
}

/** A page of songs; the rating sort is the member's own. */
export function listTracks(db: Db, secret: string, userId: string, input: LibraryTrackListInput): LibraryTrackPage {
  const page =
    input.sort === 'rating'
      ? keysetPage<LibraryRow & { rating: number | null }>(db, RATED_SELECT, ratingSegments(userId, input.cursor), input.limit, (r) => [
          r.rating ?? 0,
          r.title,
          r.seq,
        ])
      : keysetPage<LibraryRow>(db, LIBRARY_SELECT, [trackSegment(input.sort, input.cursor)], input.limit, (r) =>
          input.sort === 'title' ? [r.title, r.seq] : [r.addedAt, r.seq],
        )
  const total = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM library_tracks').get()!.n
  return { tracks: page.rows.map((r) => trackOf(secret, r)), total, next: page.next }
}

/** A folder of the indexed tree: its sub-folders and its own tracks, both in natural order. */
export function listFolder(db: Db, secret: string, path: string): LibraryFolderListing {
  const rel = normalizeRelPath(path)
  const exists = rel !== null && db.$client.query<{ n: number }, [string]>('SELECT 1 AS n FROM library_folders WHERE path = ?').get(rel)
  // An empty library still has a root to show.
  if (rel === null || (!exists && rel !== '')) throw new NotFoundError(folderNotInLibrary(path))
  const folders = db.$client
    .query<{ name: string; path: string }, [string]>('SELECT name, path FROM library_folders WHERE parent = ?')
    .all(rel)
    .sort((a, b) => naturalCompare(a.name, b.name))
    .map((f) => ({ name: f.name, path: `/${f.path}` }))
  const rows = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.folder = ?`).all(rel)
  rows.sort((a, b) => naturalCompare(a.path, b.path))
  return { path: `/${rel}`, folders, tracks: rows.map((r) => trackOf(secret, r)) }
}
