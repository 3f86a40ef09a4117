// The library index (library_tracks / albums / artists / genres / folders, written by the scanner)
// read in OpenSubsonic's shapes: Child for songs and folders, AlbumID3, ArtistID3. Ids are the
// index's own stable ids for songs, albums and artists; a folder's id is `d` + its path in
// base64url, and the root is `1`, the id of the one music folder (so no app sees two roots), so
// getMusicDirectory needs no extra table. Every
// read is an indexed query with LIMIT (bench/subsonic.ts times them at a million tracks); raw
// statements, as in services/library-index.ts, because row mapping would cost more than SQL.
// Each statement is written once for SQLite and PostgreSQL (docs/decisions/086); the search goes
// through library/search.ts's searchRows (FTS5 on SQLite, library_search_document on PostgreSQL).
import { type SQL, sql } from 'drizzle-orm'
import { type Db, firstRow, rows } from '~/db/engine'
import { listOf } from '~/db/json-list'
import { artistFiles } from '../library/info-files'
import { displayArtist, LIBRARY_SELECT, type LibraryRow } from '../catalog/track'
import { extensionOf } from '~/shared/player/mime'
import { LIBRARY_LIMITS, SEARCH_INDEXES, searchRows, searchWords } from '../library/search'
import { naturalCompare } from '../media/natural'
import { mediaPathOf } from '../media/request-rules'
import { TRANSCODE_PROFILES, transcodeProfileFor } from '../media/transcode-profile'
import { ALBUM_SELECT, ARTIST_SELECT, type AlbumRow, type ArtistRow } from '../services/library-index'
import { likedAt, type Starred, starredOf, starredSongs } from '../services/liked-songs'
import { ratingsOf } from '../services/ratings'
import type { Payload } from './response'

export { starredSongs }

/** What the calling member has marked, read once per request: likes (`starred`) and ratings by id. */
export type Marks = Starred & { ratings: Map<string, number> }
export async function marksOf(db: Db, userId: string): Promise<Marks> {
  const [starred, ratings] = await Promise.all([starredOf(db, userId), ratingsOf(db, userId)])
  return { ...starred, ratings }
}

export const ROOT_FOLDER_ID = 1
export const IGNORED_ARTICLES = 'The El La Los Las Le Les'

export const folderId = (path: string) => (path === '' ? String(ROOT_FOLDER_ID) : `d${Buffer.from(path).toString('base64url')}`)
export function folderPathOf(id: string): string | null {
  if (id === String(ROOT_FOLDER_ID)) return ''
  if (!id.startsWith('d')) return null
  const path = Buffer.from(id.slice(1), 'base64url').toString()
  return folderId(path) === id ? path : null
}

const iso = (ms: number) => new Date(ms).toISOString()

export function song(r: LibraryRow, starred: Marks): Payload {
  const profile = transcodeProfileFor(r.path)
  const liked = likedAt(starred, r)
  return {
    id: r.id,
    parent: folderId(r.folder),
    isDir: false,
    title: r.title,
    album: r.album,
    artist: displayArtist(r),
    track: r.track ?? undefined,
    year: r.year ?? undefined,
    genre: r.genre ?? undefined,
    coverArt: r.coverPath ? r.id : undefined,
    size: r.size,
    contentType: r.mime,
    suffix: extensionOf(r.path),
    transcodedContentType: profile ? TRANSCODE_PROFILES[profile].mime : undefined,
    transcodedSuffix: profile ? TRANSCODE_PROFILES[profile].ext : undefined,
    duration: Math.round(r.duration),
    bitRate: r.bitrate ?? undefined,
    path: r.path,
    isVideo: r.mime.startsWith('video/'),
    discNumber: r.disc ?? undefined,
    created: iso(r.addedAt),
    albumId: r.albumId,
    artistId: r.artistId,
    type: r.mime.startsWith('video/') ? 'video' : 'music',
    mediaType: 'song',
    starred: liked ? iso(liked) : undefined,
    userRating: starred.ratings.get(r.id),
  }
}

/** AlbumID3; `ratings` (the member's) adds userRating. */
export function album(r: AlbumRow, ratings?: Map<string, number>): Payload {
  return {
    id: r.id,
    name: r.name,
    artist: r.artist,
    artistId: r.artistId,
    coverArt: r.coverPath ? r.id : undefined,
    songCount: r.songCount,
    duration: Math.round(r.duration),
    created: iso(r.addedAt),
    year: r.year ?? undefined,
    genre: r.genre ?? undefined,
    userRating: ratings?.get(r.id),
  }
}

const artist = (r: ArtistRow, ratings?: Map<string, number>): Payload => ({
  id: r.id,
  name: r.name,
  coverArt: r.coverPath ? r.id : undefined,
  albumCount: r.albumCount,
  userRating: ratings?.get(r.id),
})

// The shared SELECTs (no WHERE yet) as SQL fragments.
const SONGS = sql.raw(LIBRARY_SELECT)
const ALBUMS = sql.raw(ALBUM_SELECT)
const ARTISTS = sql.raw(ARTIST_SELECT)

const sortSongs = (rows: LibraryRow[]) =>
  rows.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))

export async function songById(db: Db, id: string): Promise<LibraryRow | null> {
  return (await firstRow<LibraryRow>(db, sql`${SONGS} WHERE t.id = ${id}`)) ?? null
}

export async function songsByIds(db: Db, ids: string[]): Promise<LibraryRow[]> {
  if (ids.length === 0) return []
  const found = await rows<LibraryRow>(db, sql`${SONGS} WHERE t.id IN (${listOf(db, ids)})`)
  const byId = new Map(found.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export async function songsByPaths(db: Db, paths: string[]): Promise<Map<string, LibraryRow>> {
  if (paths.length === 0) return new Map()
  const found = await rows<LibraryRow>(db, sql`${SONGS} WHERE t.path IN (${listOf(db, paths)})`)
  return new Map(found.map((r) => [r.path, r]))
}

/** The library path of a /media/ URL (signed or not), or null for any other URL. */
export const pathOfMediaUrl = (url: string) => (url.startsWith('/media/') ? mediaPathOf(new URL(url, 'http://x').pathname) : null)

export async function albumWithSongs(db: Db, id: string, starred: Marks): Promise<Payload | null> {
  const row = await firstRow<AlbumRow>(db, sql`${ALBUMS} WHERE a.id = ${id}`)
  if (!row) return null
  const songs = sortSongs(await rows<LibraryRow>(db, sql`${SONGS} WHERE t.album_id = ${id}`))
  return { ...album(row, starred.ratings), song: songs.map((s) => song(s, starred)) }
}

export async function artistWithAlbums(db: Db, id: string, ratings: Map<string, number>): Promise<Payload | null> {
  const row = await firstRow<ArtistRow>(db, sql`${ARTISTS} WHERE r.id = ${id}`)
  if (!row) return null
  const albums = await rows<AlbumRow>(
    db,
    sql`${ALBUMS} WHERE a.artist_id = ${id} OR a.id IN (SELECT DISTINCT album_id FROM library_tracks WHERE artist_id = ${id})
       ORDER BY a.artist_id <> ${id}, a.year, a.sort_name`,
  )
  return { ...artist(row, ratings), album: albums.map((a) => album(a, ratings)) }
}

/** The first letter an index groups a name under ('#' for anything but A–Z), articles ignored. */
function indexLetter(name: string): string {
  const stripped = name.replace(/^(the|el|la|los|las|le|les)\s+/i, '')
  // An ASCII first character is its own letter (marks after it do not move it): decomposing and
  // stripping the whole name, 5,000 times for a level of the index, is only for the others.
  const first = stripped.charCodeAt(0)
  if (first < 0x80) return (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a) ? String.fromCharCode(first & ~0x20) : '#'
  const letter = stripped.normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase()
  return /[A-Z]/.test(letter) ? letter : '#'
}

function grouped<T extends { name: string }>(items: T[], entry: (item: T) => Payload): Payload[] {
  const groups = new Map<string, Payload[]>()
  for (const item of items) {
    const key = indexLetter(item.name)
    const list = groups.get(key) ?? []
    list.push(entry(item))
    groups.set(key, list)
  }
  return [...groups.keys()].sort().map((name) => ({ name, artist: groups.get(name) ?? [] }))
}

export async function artistIndex(db: Db): Promise<Payload> {
  const artists = await rows<ArtistRow>(db, sql`${ARTISTS} ORDER BY r.sort_name, r.id`)
  return { ignoredArticles: IGNORED_ARTICLES, index: grouped(artists, (r) => artist(r)) }
}

/** getIndexes: the root folder's sub-folders by letter, and the files directly in it. */
export async function folderIndex(db: Db, starred: Marks): Promise<Payload> {
  const folders = await rows<{ name: string; path: string }>(db, sql`SELECT name, path FROM library_folders WHERE parent = ''`)
  folders.sort((a, b) => naturalCompare(a.name, b.name))
  const files = await rows<LibraryRow>(db, sql`${SONGS} WHERE t.folder = ''`)
  files.sort((a, b) => naturalCompare(a.path, b.path))
  const lastModified = (await firstRow<{ at: number | null }>(db, sql`SELECT max(finished_at) AS at FROM library_scans`))?.at ?? 0
  return {
    lastModified,
    ignoredArticles: IGNORED_ARTICLES,
    index: grouped(folders, (f) => ({ id: folderId(f.path), name: f.name })),
    child: files.map((s) => song(s, starred)),
  }
}

export async function directory(db: Db, path: string, starred: Marks): Promise<Payload | null> {
  const folder = await firstRow<{ name: string; parent: string | null }>(db, sql`SELECT name, parent FROM library_folders WHERE path = ${path}`)
  if (!folder && path !== '') return null
  // A folder's art is its own image or a cover in one of its tracks (coverPathOf): advertised only
  // when there is one. The sub-folders come from library_folders_parent_idx alone and each
  // track-cover test is one seek in library_tracks_folder_cover_idx (tracks with a cover only): the
  // root of a large library lists thousands of folders.
  // hasCover: 1 or 0 on SQLite, true or false on PostgreSQL.
  const subfolders = await rows<{ name: string; path: string; hasCover: number | boolean }>(
    db,
    sql`SELECT name, path, cover_path IS NOT NULL OR EXISTS (SELECT 1 FROM library_tracks t WHERE t.folder = f.path AND t.cover_path IS NOT NULL) AS "hasCover"
         FROM library_folders f WHERE parent = ${path}`,
  )
  subfolders.sort((a, b) => naturalCompare(a.name, b.name))
  const files = await rows<LibraryRow>(db, sql`${SONGS} WHERE t.folder = ${path}`)
  files.sort((a, b) => naturalCompare(a.path, b.path))
  const parentId = path === '' ? undefined : folderId(path)
  return {
    id: folderId(path),
    // A top-level folder (an artist's, mostly) has no parent, as Navidrome's artist directories:
    // the root is what getIndexes lists, so an app going up does not show it a second time.
    parent: folder?.parent ? folderId(folder.parent) : undefined,
    name: folder?.name || 'Music',
    child: [
      ...subfolders.map((f) => {
        const id = folderId(f.path)
        return { id, parent: parentId, isDir: true, title: f.name, coverArt: f.hasCover ? id : undefined }
      }),
      ...files.map((s) => song(s, starred)),
    ],
  }
}

/** The songs under a library folder (sub-folders included), as a member folder plays them. */
export async function songsUnder(db: Db, path: string, limit: number = LIBRARY_LIMITS.tracksPerFolderPlaylist): Promise<LibraryRow[]> {
  const found = await rows<LibraryRow>(db, sql`${SONGS} ${underFolder(path, 't.')} LIMIT ${limit}`)
  return found.sort((a, b) => naturalCompare(a.path, b.path))
}

/** The WHERE that keeps the tracks in a folder or below it (none for the root): two index ranges. */
function underFolder(path: string, alias: 't.' | ''): SQL {
  if (path === '') return sql``
  const folder = sql.raw(`${alias}folder`)
  return sql`WHERE ${folder} = ${path} OR (${folder} >= ${`${path}/`} AND ${folder} < ${`${path}0`})`
}

/** How many songs (at most LIBRARY_LIMITS.tracksPerFolderPlaylist) and seconds a library folder holds, without loading them. */
export async function folderTotals(db: Db, path: string): Promise<{ songCount: number; duration: number }> {
  const row = await firstRow<{ n: number; d: number | null }>(
    db,
    sql`SELECT count(*) AS n, sum(duration) AS d
          FROM (SELECT duration FROM library_tracks ${underFolder(path, '')} LIMIT ${LIBRARY_LIMITS.tracksPerFolderPlaylist}) picked`,
  )
  return { songCount: row?.n ?? 0, duration: Math.round(row?.d ?? 0) }
}

export function genres(db: Db): Promise<Payload[]> {
  return rows<{ value: string; songCount: number; albumCount: number }>(
    db,
    sql`SELECT name AS value, song_count AS "songCount", album_count AS "albumCount" FROM library_genres ORDER BY lower(name), name`,
  )
}

export type AlbumListType =
  | 'random'
  | 'newest'
  | 'highest'
  | 'frequent'
  | 'recent'
  | 'alphabeticalByName'
  | 'alphabeticalByArtist'
  | 'starred'
  | 'byYear'
  | 'byGenre'
export const ALBUM_LIST_TYPES: readonly AlbumListType[] = [
  'random',
  'newest',
  'highest',
  'frequent',
  'recent',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'starred',
  'byYear',
  'byGenre',
]

export type AlbumListQuery = { type: AlbumListType; size: number; offset: number; fromYear?: number; toYear?: number; genre?: string }

/** Random rows of a table by seq: picks among the seq range, so no full-table sort. */
async function randomSeqs(db: Db, table: 'library_albums' | 'library_tracks', count: number): Promise<number[]> {
  // Two subqueries: min and max in one SELECT would scan the table instead of reading both ends.
  const from = sql.raw(table)
  const range = await firstRow<{ lo: number | null; hi: number | null }>(
    db,
    sql`SELECT (SELECT min(seq) FROM ${from}) AS lo, (SELECT max(seq) FROM ${from}) AS hi`,
  )
  if (range?.lo == null || range.hi == null) return []
  const picks = new Set<number>()
  for (let i = 0; i < count * 3 && picks.size < count * 3; i++) picks.add(range.lo + Math.floor(Math.random() * (range.hi - range.lo + 1)))
  return [...picks]
}

export async function albumList(db: Db, userId: string, q: AlbumListQuery): Promise<Payload[]> {
  const page = sql`LIMIT ${q.size} OFFSET ${q.offset}`
  let found: AlbumRow[]
  switch (q.type) {
    case 'random': {
      const seqs = await randomSeqs(db, 'library_albums', q.size)
      found = await rows<AlbumRow>(db, sql`${ALBUMS} WHERE a.seq IN (${listOf(db, seqs, 'bigint')}) LIMIT ${q.size}`)
      // A sparse seq range (many albums removed) may leave the picks short: fill up at random.
      if (found.length < q.size && found.length < (await count(db, 'library_albums'))) {
        found = await rows<AlbumRow>(db, sql`${ALBUMS} ORDER BY random() LIMIT ${q.size}`)
      }
      found.sort(() => Math.random() - 0.5)
      break
    }
    case 'newest':
      found = await rows<AlbumRow>(db, sql`${ALBUMS} ORDER BY a.added_at DESC, a.seq DESC ${page}`)
      break
    case 'alphabeticalByName':
      found = await rows<AlbumRow>(db, sql`${ALBUMS} ORDER BY a.sort_name, a.id ${page}`)
      break
    case 'alphabeticalByArtist':
      // Walks library_albums_artist_sort_idx (migration 0008): no join, no sort.
      found = await rows<AlbumRow>(db, sql`${ALBUMS} ORDER BY lower(a.artist), a.sort_name, a.id ${page}`)
      break
    case 'byYear': {
      const from = q.fromYear ?? 0
      const to = q.toYear ?? 9999
      const order = sql.raw(from <= to ? 'a.year, a.sort_name' : 'a.year DESC, a.sort_name')
      found = await rows<AlbumRow>(db, sql`${ALBUMS} WHERE a.year BETWEEN ${Math.min(from, to)} AND ${Math.max(from, to)} ORDER BY ${order} ${page}`)
      break
    }
    case 'byGenre':
      found = await rows<AlbumRow>(db, sql`${ALBUMS} WHERE a.genre = ${q.genre ?? ''} ORDER BY a.sort_name ${page}`)
      break
    case 'frequent':
    case 'recent': {
      // The member's own plays (web player and apps), grouped by album name.
      const order = sql.raw(q.type === 'frequent' ? 'p.n DESC, p.last DESC' : 'p.last DESC')
      found = await rows<AlbumRow>(
        db,
        sql`${ALBUMS} JOIN (SELECT lower(album) AS key, count(*) AS n, max(started_at) AS last FROM play_events
             WHERE user_id = ${userId} AND album IS NOT NULL GROUP BY lower(album)) p ON p.key = a.sort_name
           ORDER BY ${order} ${page}`,
      )
      break
    }
    case 'highest':
      // The albums this member rated, best first (ratings_user_kind_rating_idx).
      found = await rows<AlbumRow>(
        db,
        sql`${ALBUMS} JOIN ratings r ON r.item_id = a.id AND r.user_id = ${userId} AND r.kind = 'album' ORDER BY r.rating DESC, a.sort_name ${page}`,
      )
      break
    case 'starred': {
      // Likes are per song: the albums of the member's liked songs.
      const albumIds = new Set((await starredSongs(db, await starredOf(db, userId))).map((s) => s.albumId))
      found = await rows<AlbumRow>(db, sql`${ALBUMS} WHERE a.id IN (${listOf(db, [...albumIds])}) ORDER BY a.sort_name ${page}`)
      break
    }
  }
  const ratings = await ratingsOf(db, userId)
  return found.map((r) => album(r, ratings))
}

const count = async (db: Db, table: 'library_albums' | 'library_tracks') =>
  (await firstRow<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${sql.raw(table)}`))?.n ?? 0

export async function randomSongs(db: Db, q: { size: number; genre?: string; fromYear?: number; toYear?: number }, starred: Marks): Promise<Payload[]> {
  let found: LibraryRow[]
  if (q.genre === undefined && q.fromYear === undefined && q.toYear === undefined) {
    const seqs = await randomSeqs(db, 'library_tracks', q.size)
    found = await rows<LibraryRow>(db, sql`${SONGS} WHERE t.seq IN (${listOf(db, seqs, 'bigint')}) LIMIT ${q.size}`)
    if (found.length < q.size && found.length < (await count(db, 'library_tracks')))
      found = await rows<LibraryRow>(db, sql`${SONGS} ORDER BY random() LIMIT ${q.size}`)
  } else {
    const where: SQL[] = []
    if (q.genre !== undefined) where.push(sql`t.genre = ${q.genre}`)
    if (q.fromYear !== undefined) where.push(sql`t.year >= ${q.fromYear}`)
    if (q.toYear !== undefined) where.push(sql`t.year <= ${q.toYear}`)
    found = await rows<LibraryRow>(db, sql`${SONGS} WHERE ${sql.join(where, sql` AND `)} ORDER BY random() LIMIT ${q.size}`)
  }
  return found.sort(() => Math.random() - 0.5).map((r) => song(r, starred))
}

export type SearchQuery = {
  query: string
  artistCount: number
  artistOffset: number
  albumCount: number
  albumOffset: number
  songCount: number
  songOffset: number
}

/** search3; an empty query lists everything (OpenSubsonic: apps sync their library this way). */
export async function search(db: Db, q: SearchQuery, starred: Marks): Promise<Payload> {
  const text = q.query.replace(/^"|"$/g, '').trim()
  if (text === '') {
    const [artists, albums, songs] = await Promise.all([
      rows<ArtistRow>(db, sql`${ARTISTS} ORDER BY r.sort_name, r.id LIMIT ${q.artistCount} OFFSET ${q.artistOffset}`),
      rows<AlbumRow>(db, sql`${ALBUMS} ORDER BY a.sort_name, a.id LIMIT ${q.albumCount} OFFSET ${q.albumOffset}`),
      // In the order tracks were added (new ones come last, so an app's paged sync stays in step);
      // the offset is walked in the narrow added-at index, not the table (0.4 s → 40 ms at 800,000).
      rows<LibraryRow>(
        db,
        sql`${SONGS} WHERE t.seq IN (SELECT seq FROM library_tracks ORDER BY added_at, seq LIMIT ${q.songCount} OFFSET ${q.songOffset}) ORDER BY t.added_at, t.seq`,
      ),
    ])
    return {
      artist: artists.map((r) => artist(r, starred.ratings)),
      album: albums.map((r) => album(r, starred.ratings)),
      song: songs.map((s) => song(s, starred)),
    }
  }
  const words = searchWords(text)
  if (!words) return { artist: [], album: [], song: [] }
  const [artists, albums, songs] = await Promise.all([
    searchRows<ArtistRow>(db, ARTIST_SELECT, 'r', SEARCH_INDEXES.artists, words, q.artistCount, q.artistOffset),
    searchRows<AlbumRow>(db, ALBUM_SELECT, 'a', SEARCH_INDEXES.albums, words, q.albumCount, q.albumOffset),
    searchRows<LibraryRow>(db, LIBRARY_SELECT, 't', SEARCH_INDEXES.tracks, words, q.songCount, q.songOffset),
  ])
  return {
    artist: artists.map((r) => artist(r, starred.ratings)),
    album: albums.map((r) => album(r, starred.ratings)),
    song: songs.map((s) => song(s, starred)),
  }
}

/** The library path whose art is the cover of a song, album, artist or folder id. */
export async function coverPathOf(db: Db, id: string): Promise<string | null> {
  const folder = folderPathOf(id)
  if (folder !== null) {
    const row = await firstRow<{ p: string | null }>(db, sql`SELECT cover_path AS p FROM library_folders WHERE path = ${folder}`)
    if (row?.p) return row.p
    const track = await firstRow<{ p: string | null }>(
      db,
      sql`SELECT cover_path AS p FROM library_tracks WHERE folder = ${folder} AND cover_path IS NOT NULL LIMIT 1`,
    )
    return track?.p ?? null
  }
  for (const table of ['library_tracks', 'library_albums', 'library_artists'] as const) {
    const row = await firstRow<{ p: string | null }>(db, sql`SELECT cover_path AS p FROM ${sql.raw(table)} WHERE id = ${id}`)
    // An artist's own picture (artist.jpg beside its albums) comes before its latest album's cover.
    if (row) return table === 'library_artists' ? ((await artistFiles(db, id)).imagePath ?? row.p) : row.p
  }
  return null
}
