// Reads of the library index for members: search, albums, artists, genres, the folder tree.
// Each answer is one or two indexed queries (no table is loaded and filtered in JS): album and
// artist lists and songs walk their sort index from a keyset cursor (page-cursor.ts). Search is
// library/search.ts's, shared with /rest.
// Raw statements through rows() (docs/decisions/086), one text for both engines: at page sizes of
// 500, Drizzle's row mapping would cost more than the queries. bench/library-search.ts times all
// of them at a million tracks.
import { type SQL, sql } from 'drizzle-orm'
import { InvalidError, NotFoundError } from '../errors'
import { type Db, firstRow, rows } from '~/db/engine'
import { artistFiles } from '../library/info-files'
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
  LibraryTrackPage,
} from '~/shared/library'
import type { AlbumSort, LibraryAlbumListInput, LibraryPageInput, LibrarySearchInput, LibraryTrackListInput } from '~/shared/validators/library'
import { LIBRARY_COLUMNS, LIBRARY_SELECT, type LibraryRow, trackOf } from '../catalog/track'
import { decodeCursor, encodeCursor, type KeyPart, type KeyValue } from '../library/page-cursor'
import { SEARCH_INDEXES, searchRows, searchWords } from '../library/search'
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
export const ALBUM_SELECT = `SELECT a.seq, a.sort_name AS "sortName", a.id, a.name, a.artist, a.artist_id AS "artistId", a.year, a.genre, a.song_count AS "songCount", a.duration, a.cover_path AS "coverPath",
  a.added_at AS "addedAt" FROM library_albums a`

export type ArtistRow = { seq: number; id: string; name: string; sortName: string; albumCount: number; songCount: number; coverPath: string | null }
export const ARTIST_SELECT =
  'SELECT r.seq, r.sort_name AS "sortName", r.id, r.name, r.album_count AS "albumCount", r.song_count AS "songCount", r.cover_path AS "coverPath" FROM library_artists r'
/** A SELECT constant above (ALBUM_SELECT, ARTIST_SELECT, LIBRARY_SELECT…) followed by `rest`. */
const from = (select: string, rest: SQL = sql``) => sql`${sql.raw(select)} ${rest}`

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

export async function search(db: Db, secret: string, input: LibrarySearchInput): Promise<LibrarySearchResult> {
  const words = searchWords(input.q)
  if (!words) return { artists: [], albums: [], tracks: [] }
  const artists = await searchRows<ArtistRow>(db, ARTIST_SELECT, 'r', SEARCH_INDEXES.artists, words, input.limit)
  const albums = await searchRows<AlbumRow>(db, ALBUM_SELECT, 'a', SEARCH_INDEXES.albums, words, input.limit)
  const tracks = await searchRows<LibraryRow>(db, LIBRARY_SELECT, 't', SEARCH_INDEXES.tracks, words, input.limit)
  return { artists: artists.map((r) => toArtist(secret, r)), albums: albums.map((r) => toAlbum(secret, r)), tracks: tracks.map((r) => trackOf(secret, r)) }
}

/**
 * One run of a keyset page: rows matching `where` in `order`, which an index walks from the
 * cursor on (so a page deep in the list costs what the first one does).
 */
type Segment = { where: SQL[]; order: string }

/**
 * A page of `limit` rows from the segments in turn (a sort on a nullable column is two or three
 * segments), fetching one row more to know whether a next page exists; its cursor is the key of
 * the page's last row.
 */
async function keysetPage<R>(db: Db, select: SQL, segments: Segment[], limit: number, key: (r: R) => KeyValue[]): Promise<{ rows: R[]; next: string | null }> {
  const page: R[] = []
  for (const s of segments) {
    if (page.length > limit) break
    const where = s.where.length ? sql` WHERE ${sql.join(s.where, sql` AND `)}` : sql``
    page.push(...(await rows<R>(db, sql`${select}${where} ORDER BY ${sql.raw(s.order)} LIMIT ${limit + 1 - page.length}`)))
  }
  const more = page.length > limit
  if (more) page.length = limit
  return { rows: page, next: more ? encodeCursor(key(page[page.length - 1])) : null }
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
    return [{ where: key ? [sql`(a.sort_name, a.id) > (${key[0]}, ${key[1]})`] : [], order: 'a.sort_name, a.id' }]
  }
  if (sort === 'recent') {
    const key = cursorKey(cursor, ['int', 'int'])
    return [{ where: key ? [sql`(a.added_at, a.seq) < (${key[0]}, ${key[1]})`] : [], order: 'a.added_at DESC, a.seq DESC' }]
  }
  const byName = 'a.sort_name, a.seq'
  const yearless: Segment = { where: [sql`a.year IS NULL`], order: byName }
  const key = cursorKey(cursor, ['int?', 'text', 'int'])
  if (!key) return [{ where: [sql`a.year IS NOT NULL`], order: `a.year DESC, ${byName}` }, yearless]
  const [year, name, seq] = key
  if (year === null) return [{ where: [sql`a.year IS NULL`, sql`(a.sort_name, a.seq) > (${name}, ${seq})`], order: byName }]
  return [
    { where: [sql`a.year = ${year}`, sql`(a.sort_name, a.seq) > (${name}, ${seq})`], order: byName },
    { where: [sql`a.year < ${year}`], order: `a.year DESC, ${byName}` },
    yearless,
  ]
}

const ALBUM_KEY: Record<AlbumSort, (r: AlbumRow) => KeyValue[]> = {
  name: (r) => [r.sortName, r.id],
  year: (r) => [r.year, r.sortName, r.seq],
  recent: (r) => [r.addedAt, r.seq],
}

export async function listAlbums(db: Db, secret: string, input: LibraryAlbumListInput): Promise<LibraryAlbumPage> {
  let segments = albumSegments(input.sort, input.cursor)
  if (input.genre !== undefined) segments = segments.map((s) => ({ ...s, where: [sql`a.genre = ${input.genre}`, ...s.where] }))
  const page = await keysetPage(db, from(ALBUM_SELECT), segments, input.limit, ALBUM_KEY[input.sort])
  const where = input.genre !== undefined ? sql` WHERE a.genre = ${input.genre}` : sql``
  const total = (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM library_albums a${where}`))?.n ?? 0
  return { albums: page.rows.map((r) => toAlbum(secret, r)), total, next: page.next }
}

const playOrder = (a: LibraryRow, b: LibraryRow) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path)

/** An album's rows in play order: disc, track number, then file name. */
export async function albumTrackRows(db: Db, albumId: string): Promise<LibraryRow[]> {
  return (await rows<LibraryRow>(db, from(LIBRARY_SELECT, sql`WHERE t.album_id = ${albumId}`))).sort(playOrder)
}

export async function getAlbum(db: Db, secret: string, id: string): Promise<LibraryAlbumDetail> {
  const row = await firstRow<AlbumRow>(db, from(ALBUM_SELECT, sql`WHERE a.id = ${id}`))
  if (!row) throw new NotFoundError('Album not found')
  return { ...toAlbum(secret, row), tracks: (await albumTrackRows(db, id)).map((r) => trackOf(secret, r)) }
}

export async function listArtists(db: Db, secret: string, input: LibraryPageInput): Promise<LibraryArtistPage> {
  const key = cursorKey(input.cursor, ['text', 'text'])
  const segment = { where: key ? [sql`(r.sort_name, r.id) > (${key[0]}, ${key[1]})`] : [], order: 'r.sort_name, r.id' }
  const page = await keysetPage<ArtistRow>(db, from(ARTIST_SELECT), [segment], input.limit, (r) => [r.sortName, r.id])
  const total = (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM library_artists`))?.n ?? 0
  return { artists: page.rows.map((r) => toArtist(secret, r)), total, next: page.next }
}

/** The artist, its albums (those it is the album artist of, then those it only appears on) and its songs. */
export async function getArtist(db: Db, secret: string, id: string): Promise<LibraryArtistDetail> {
  const row = await firstRow<ArtistRow>(db, from(ARTIST_SELECT, sql`WHERE r.id = ${id}`))
  if (!row) throw new NotFoundError('Artist not found')
  // Albums without a year first, on both engines (PostgreSQL sorts NULL last in ascending order).
  const albums = await rows<AlbumRow>(
    db,
    from(
      ALBUM_SELECT,
      sql`WHERE a.artist_id = ${id} OR a.id IN (SELECT DISTINCT album_id FROM library_tracks WHERE artist_id = ${id})
       ORDER BY a.artist_id <> ${id}, a.year IS NOT NULL, a.year, a.sort_name`,
    ),
  )
  // Its own songs, album by album in the order above (the artist index, then a sort of a few hundred).
  const position = new Map(albums.map((a, i) => [a.id, i]))
  const tracks = await rows<LibraryRow>(db, from(LIBRARY_SELECT, sql`WHERE t.artist_id = ${id}`))
  tracks.sort(
    (a, b) =>
      (position.get(a.albumId) ?? albums.length) - (position.get(b.albumId) ?? albums.length) ||
      (a.disc ?? 0) - (b.disc ?? 0) ||
      (a.track ?? 0) - (b.track ?? 0) ||
      naturalCompare(a.path, b.path),
  )
  // Its picture and biography from the files beside its music, as the OpenSubsonic apps get them.
  const files = await artistFiles(db, id)
  const artist = toArtist(secret, { ...row, coverPath: files.imagePath ?? row.coverPath })
  return {
    ...artist,
    ...(files.biography ? { biography: files.biography } : {}),
    albums: albums.map((r) => toAlbum(secret, r)),
    tracks: tracks.map((r) => trackOf(secret, r)),
  }
}

export async function listGenres(db: Db): Promise<{ genres: LibraryGenre[] }> {
  const genres = await rows<LibraryGenre>(
    db,
    sql`SELECT name, song_count AS "songCount", album_count AS "albumCount" FROM library_genres ORDER BY lower(name), name`,
  )
  return { genres }
}

// NOCASE: SQLite's collation, and on PostgreSQL a case-blind ICU collation of that name (its first migration).
const titleOrder = 't.title COLLATE NOCASE, t.seq'
/** Titles after (title, seq): the first term alone lets SQLite seek the title index (with the row value only, it scanned the index from the start: 170 ms deep in a million songs). */
const afterTitle = (title: string, seq: number) => [sql`t.title >= ${title} COLLATE NOCASE`, sql`(t.title COLLATE NOCASE, t.seq) > (${title}, ${seq})`]

/** Songs by title (case-insensitive, the title index) or recently added first. */
function trackSegment(sort: 'title' | 'recent', cursor: string | undefined): Segment {
  if (sort === 'title') {
    const key = cursorKey(cursor, ['text', 'int'])
    return { where: key ? afterTitle(key[0] as string, key[1] as number) : [], order: titleOrder }
  }
  const key = cursorKey(cursor, ['int', 'int'])
  return { where: key ? [sql`(t.added_at, t.seq) < (${key[0]}, ${key[1]})`] : [], order: 't.added_at DESC, t.seq DESC' }
}

/** The member's rating beside each song (ratings' primary key per song). */
const ratedSelect = (userId: string) =>
  sql`SELECT ${sql.raw(LIBRARY_COLUMNS)}, r.rating AS rating FROM library_tracks t LEFT JOIN ratings r ON r.user_id = ${userId} AND r.item_id = t.id`

/**
 * The rating sort: the member's rated songs (a few, read from the ratings index) best first, then
 * by title; then the unrated ones by title (the title index, a primary-key probe per song). The
 * cursor is (rating, title, seq), rating 0 once in the unrated part.
 */
function ratingSegments(cursor: string | undefined): Segment[] {
  const unrated = (after?: [string, number]): Segment => ({
    where: [sql`r.rating IS NULL`, ...(after ? afterTitle(...after) : [])],
    order: titleOrder,
  })
  const key = cursorKey(cursor, ['int', 'text', 'int'])
  if (!key) return [{ where: [sql`r.rating IS NOT NULL`], order: `r.rating DESC, ${titleOrder}` }, unrated()]
  const [rating, title, seq] = key as [number, string, number]
  if (rating === 0) return [unrated([title, seq])]
  return [
    {
      where: [sql`r.rating IS NOT NULL`, sql`(r.rating < ${rating} OR (r.rating = ${rating} AND (t.title COLLATE NOCASE, t.seq) > (${title}, ${seq})))`],
      order: `r.rating DESC, ${titleOrder}`,
    },
    unrated(),
  ]
}

/** A page of songs; the rating sort is the member's own. */
export async function listTracks(db: Db, secret: string, userId: string, input: LibraryTrackListInput): Promise<LibraryTrackPage> {
  const page =
    input.sort === 'rating'
      ? await keysetPage<LibraryRow & { rating: number | null }>(db, ratedSelect(userId), ratingSegments(input.cursor), input.limit, (r) => [
          r.rating ?? 0,
          r.title,
          r.seq,
        ])
      : await keysetPage<LibraryRow>(db, from(LIBRARY_SELECT), [trackSegment(input.sort, input.cursor)], input.limit, (r) =>
          input.sort === 'title' ? [r.title, r.seq] : [r.addedAt, r.seq],
        )
  const total = (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM library_tracks`))?.n ?? 0
  return { tracks: page.rows.map((r) => trackOf(secret, r)), total, next: page.next }
}

/** A folder of the indexed tree: its sub-folders and its own tracks, both in natural order. */
export async function listFolder(db: Db, secret: string, path: string): Promise<LibraryFolderListing> {
  const rel = normalizeRelPath(path)
  const exists = rel !== null && (await firstRow(db, sql`SELECT 1 AS n FROM library_folders WHERE path = ${rel}`)) !== undefined
  // An empty library still has a root to show.
  if (rel === null || (!exists && rel !== '')) throw new NotFoundError(folderNotInLibrary(path))
  const folders = (await rows<{ name: string; path: string }>(db, sql`SELECT name, path FROM library_folders WHERE parent = ${rel}`))
    .sort((a, b) => naturalCompare(a.name, b.name))
    .map((f) => ({ name: f.name, path: `/${f.path}` }))
  const tracks = await rows<LibraryRow>(db, from(LIBRARY_SELECT, sql`WHERE t.folder = ${rel}`))
  tracks.sort((a, b) => naturalCompare(a.path, b.path))
  return { path: `/${rel}`, folders, tracks: tracks.map((r) => trackOf(secret, r)) }
}
