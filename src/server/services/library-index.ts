// Reads of the library index for members: search, albums, artists, genres, the folder tree.
// Each answer is one or two indexed queries (no table is loaded and filtered in JS): album and
// artist lists walk their sort index with LIMIT/OFFSET; search asks each FTS5 index for its best
// `limit` rows by bm25 (title weighs most, then artist, album, genre) and joins those rows only.
// bm25 is computed for every match, which a 2-letter prefix makes hundreds of thousands at a
// million tracks (0.3–0.6 s): a query matching more than RANK_LIMIT rows is answered unranked
// (index order, which stops after `limit`); typing one more letter brings the ranking back.
// Raw statements over bun:sqlite: at page sizes of 500, Drizzle's row mapping would cost more
// than the queries. bench/library-search.ts times all of them at a million tracks.
import { TRPCError } from '@trpc/server'
import type { Db } from '~/db/client'
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
import type { ReplayGain } from '~/shared/player/track'
import type { AlbumSort, LibraryAlbumListInput, LibraryPageInput, LibrarySearchInput, LibraryTrackListInput } from '~/shared/validators/library'
import { ftsQuery } from '../library/search-query'
import { normalizeRelPath } from '../media/library-path'
import { naturalCompare } from '../media/natural'
import { signMediaUrl } from '../media/sign'
import { mediaSource } from '../media/transcode'

type TrackRow = {
  id: string
  path: string
  title: string
  artist: string
  artistId: string
  album: string
  albumId: string
  genre: string | null
  year: number | null
  track: number | null
  disc: number | null
  duration: number
  bitrate: number | null
  mime: string
  coverPath: string | null
  rgTrackGain: number | null
  rgTrackPeak: number | null
  rgAlbumGain: number | null
  rgAlbumPeak: number | null
}
const TRACK_SELECT = `SELECT t.id, t.path, t.title, t.artist, t.artist_id AS artistId, t.album, t.album_id AS albumId, t.genre, t.year,
  t.track_no AS track, t.disc_no AS disc, t.duration, t.bitrate, t.mime, t.cover_path AS coverPath, t.rg_track_gain AS rgTrackGain,
  t.rg_track_peak AS rgTrackPeak, t.rg_album_gain AS rgAlbumGain, t.rg_album_peak AS rgAlbumPeak FROM library_tracks t`

type AlbumRow = {
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
}
const ALBUM_SELECT = `SELECT a.id, a.name, a.artist, a.artist_id AS artistId, a.year, a.genre, a.song_count AS songCount, a.duration, a.cover_path AS coverPath,
  a.added_at AS addedAt FROM library_albums a`

type ArtistRow = { id: string; name: string; albumCount: number; songCount: number; coverPath: string | null }
const ARTIST_SELECT = 'SELECT r.id, r.name, r.album_count AS albumCount, r.song_count AS songCount, r.cover_path AS coverPath FROM library_artists r'

/** Row → API shape, with signed /media URLs for the file and its cover. */
function toTrack(secret: string, r: TrackRow): LibraryTrack {
  const t: LibraryTrack = {
    id: r.id,
    ...mediaSource(secret, r.path, r.mime),
    title: r.title,
    artist: r.artist,
    artistId: r.artistId,
    album: r.album,
    albumId: r.albumId,
    duration: r.duration,
  }
  if (r.genre) t.genre = r.genre
  if (r.year) t.year = r.year
  if (r.track) t.track = r.track
  if (r.disc) t.disc = r.disc
  if (r.bitrate) t.bitrate = r.bitrate
  if (r.coverPath) t.cover = signMediaUrl(secret, r.coverPath, 'cover')
  const replayGain = replayGainOf(r)
  if (replayGain) t.replayGain = replayGain
  return t
}

/** The ReplayGain tags the scan found (absent ones left out; none at all: undefined). */
function replayGainOf(r: TrackRow): ReplayGain | undefined {
  const fields = { trackGain: r.rgTrackGain, trackPeak: r.rgTrackPeak, albumGain: r.rgAlbumGain, albumPeak: r.rgAlbumPeak }
  const present = Object.entries(fields).filter(([, v]) => v !== null)
  return present.length > 0 ? (Object.fromEntries(present) as ReplayGain) : undefined
}

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

const notFound = (message: string) => new TRPCError({ code: 'NOT_FOUND', message })

const RANK_LIMIT = 5000

/** The best `limit` matches of one FTS5 table (alias `x` joined on seq), as a subquery and order. */
function matches(db: Db, fts: string, weights: string, match: string): { from: string; order: string } {
  const broad =
    db.$client.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT ${RANK_LIMIT + 1})`).get(match)!.n >
    RANK_LIMIT
  return broad
    ? { from: `(SELECT rowid, rowid AS score FROM ${fts} WHERE ${fts} MATCH ?1 LIMIT ?2)`, order: 'm.score' }
    : { from: `(SELECT rowid, bm25(${fts}, ${weights}) AS score FROM ${fts} WHERE ${fts} MATCH ?1 ORDER BY score LIMIT ?2)`, order: 'm.score' }
}

export function search(db: Db, secret: string, input: LibrarySearchInput): LibrarySearchResult {
  const match = ftsQuery(input.q)
  if (!match) return { artists: [], albums: [], tracks: [] }
  const c = db.$client
  const ar = matches(db, 'library_artists_fts', '1.0', match)
  const artists = c.query<ArtistRow, [string, number]>(`${ARTIST_SELECT} JOIN ${ar.from} m ON m.rowid = r.seq ORDER BY ${ar.order}`).all(match, input.limit)
  const al = matches(db, 'library_albums_fts', '10.0, 4.0, 1.0', match)
  const albums = c.query<AlbumRow, [string, number]>(`${ALBUM_SELECT} JOIN ${al.from} m ON m.rowid = a.seq ORDER BY ${al.order}`).all(match, input.limit)
  const tr = matches(db, 'library_tracks_fts', '10.0, 4.0, 2.0, 1.0', match)
  const tracks = c.query<TrackRow, [string, number]>(`${TRACK_SELECT} JOIN ${tr.from} m ON m.rowid = t.seq ORDER BY ${tr.order}`).all(match, input.limit)
  return { artists: artists.map((r) => toArtist(secret, r)), albums: albums.map((r) => toAlbum(secret, r)), tracks: tracks.map((r) => toTrack(secret, r)) }
}

const ALBUM_ORDER: Record<AlbumSort, string> = {
  name: 'a.sort_name, a.id',
  year: 'a.year DESC, a.sort_name',
  recent: 'a.added_at DESC, a.seq DESC',
}

export function listAlbums(db: Db, secret: string, input: LibraryAlbumListInput): LibraryAlbumPage {
  const where = input.genre !== undefined ? ' WHERE a.genre = ?1' : ''
  const params = input.genre !== undefined ? [input.genre] : []
  const rows = db.$client
    .query<AlbumRow, (string | number)[]>(
      `${ALBUM_SELECT}${where} ORDER BY ${ALBUM_ORDER[input.sort]} LIMIT ?${params.length + 1} OFFSET ?${params.length + 2}`,
    )
    .all(...params, input.limit, input.offset)
  const total = db.$client.query<{ n: number }, string[]>(`SELECT count(*) AS n FROM library_albums a${where}`).get(...params)!.n
  return { albums: rows.map((r) => toAlbum(secret, r)), total, offset: input.offset }
}

function albumTracks(db: Db, secret: string, albumId: string): LibraryTrack[] {
  const rows = db.$client.query<TrackRow, [string]>(`${TRACK_SELECT} WHERE t.album_id = ?`).all(albumId)
  rows.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))
  return rows.map((r) => toTrack(secret, r))
}

export function getAlbum(db: Db, secret: string, id: string): LibraryAlbumDetail {
  const row = db.$client.query<AlbumRow, [string]>(`${ALBUM_SELECT} WHERE a.id = ?`).get(id)
  if (!row) throw notFound('Album not found')
  return { ...toAlbum(secret, row), tracks: albumTracks(db, secret, id) }
}

export function listArtists(db: Db, secret: string, input: LibraryPageInput): LibraryArtistPage {
  const rows = db.$client.query<ArtistRow, [number, number]>(`${ARTIST_SELECT} ORDER BY r.sort_name, r.id LIMIT ? OFFSET ?`).all(input.limit, input.offset)
  const total = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM library_artists').get()!.n
  return { artists: rows.map((r) => toArtist(secret, r)), total, offset: input.offset }
}

/** The artist and its albums: those it is the album artist of, then those it only appears on. */
export function getArtist(db: Db, secret: string, id: string): LibraryArtistDetail {
  const row = db.$client.query<ArtistRow, [string]>(`${ARTIST_SELECT} WHERE r.id = ?`).get(id)
  if (!row) throw notFound('Artist not found')
  const albums = db.$client
    .query<AlbumRow, [string]>(
      `${ALBUM_SELECT} WHERE a.artist_id = ?1 OR a.id IN (SELECT DISTINCT album_id FROM library_tracks WHERE artist_id = ?1)
       ORDER BY a.artist_id <> ?1, a.year, a.sort_name`,
    )
    .all(id)
  return { ...toArtist(secret, row), albums: albums.map((r) => toAlbum(secret, r)) }
}

export function listGenres(db: Db): { genres: LibraryGenre[] } {
  const genres = db.$client
    .query<LibraryGenre, []>('SELECT name, song_count AS songCount, album_count AS albumCount FROM library_genres ORDER BY lower(name), name')
    .all()
  return { genres }
}

const TRACK_ORDER = { title: 't.title COLLATE NOCASE, t.seq', recent: 't.added_at DESC, t.seq DESC' } as const

export function listTracks(db: Db, secret: string, input: LibraryTrackListInput): LibraryTrackPage {
  const rows = db.$client
    .query<TrackRow, [number, number]>(`${TRACK_SELECT} ORDER BY ${TRACK_ORDER[input.sort]} LIMIT ? OFFSET ?`)
    .all(input.limit, input.offset)
  const total = db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM library_tracks').get()!.n
  return { tracks: rows.map((r) => toTrack(secret, r)), total, offset: input.offset }
}

export const folderNotIndexed = (path: string) => `Folder not found in the music library: ${path}`

/** A folder of the indexed tree: its sub-folders and its own tracks, both in natural order. */
export function listFolder(db: Db, secret: string, path: string): LibraryFolderListing {
  const rel = normalizeRelPath(path)
  const exists = rel !== null && db.$client.query<{ n: number }, [string]>('SELECT 1 AS n FROM library_folders WHERE path = ?').get(rel)
  // An empty library still has a root to show.
  if (rel === null || (!exists && rel !== '')) throw notFound(folderNotIndexed(path))
  const folders = db.$client
    .query<{ name: string; path: string }, [string]>('SELECT name, path FROM library_folders WHERE parent = ?')
    .all(rel)
    .sort((a, b) => naturalCompare(a.name, b.name))
    .map((f) => ({ name: f.name, path: `/${f.path}` }))
  const rows = db.$client.query<TrackRow, [string]>(`${TRACK_SELECT} WHERE t.folder = ?`).all(rel)
  rows.sort((a, b) => naturalCompare(a.path, b.path))
  return { path: `/${rel}`, folders, tracks: rows.map((r) => toTrack(secret, r)) }
}
