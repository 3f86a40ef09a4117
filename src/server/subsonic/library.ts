// The library index (library_tracks / albums / artists / genres / folders, written by the scanner)
// read in OpenSubsonic's shapes: Child for songs and folders, AlbumID3, ArtistID3. Ids are the
// index's own stable ids for songs, albums and artists; a folder's id is `d` + its path in
// base64url, and the root is `1`, the id of the one music folder (so no app sees two roots), so
// getMusicDirectory needs no extra table. Every
// read is an indexed query with LIMIT (bench/subsonic.ts times them at a million tracks); raw
// statements, as in services/library-index.ts, because row mapping would cost more than SQL.
import type { Db } from '~/db/client'
import { artistFilesOf } from '../library/info-files'
import { displayArtist, LIBRARY_SELECT, type LibraryRow } from '../catalog/track'
import { extensionOf } from '~/shared/player/mime'
import { ftsQuery, LIBRARY_LIMITS, SEARCH_INDEXES, searchPage } from '../library/search'
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
export const marksOf = async (db: Db, userId: string): Promise<Marks> => ({ ...(await starredOf(db, userId)), ratings: await ratingsOf(db, userId) })

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

const sortSongs = (rows: LibraryRow[]) =>
  rows.sort((a, b) => (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0) || naturalCompare(a.path, b.path))

export function songById(db: Db, id: string): LibraryRow | null {
  return db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.id = ?`).get(id)
}

export function songsByIds(db: Db, ids: string[]): LibraryRow[] {
  if (ids.length === 0) return []
  const rows = db.$client.query<LibraryRow, string[]>(`${LIBRARY_SELECT} WHERE t.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export function songsByPaths(db: Db, paths: string[]): Map<string, LibraryRow> {
  if (paths.length === 0) return new Map()
  const rows = db.$client.query<LibraryRow, string[]>(`${LIBRARY_SELECT} WHERE t.path IN (SELECT value FROM json_each(?))`).all(JSON.stringify(paths))
  return new Map(rows.map((r) => [r.path, r]))
}

/** The library path of a /media/ URL (signed or not), or null for any other URL. */
export const pathOfMediaUrl = (url: string) => (url.startsWith('/media/') ? mediaPathOf(new URL(url, 'http://x').pathname) : null)

export function albumWithSongs(db: Db, id: string, starred: Marks): Payload | null {
  const row = db.$client.query<AlbumRow, [string]>(`${ALBUM_SELECT} WHERE a.id = ?`).get(id)
  if (!row) return null
  const songs = sortSongs(db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.album_id = ?`).all(id))
  return { ...album(row, starred.ratings), song: songs.map((s) => song(s, starred)) }
}

export function artistWithAlbums(db: Db, id: string, ratings: Map<string, number>): Payload | null {
  const row = db.$client.query<ArtistRow, [string]>(`${ARTIST_SELECT} WHERE r.id = ?`).get(id)
  if (!row) return null
  const albums = db.$client
    .query<AlbumRow, [string]>(
      `${ALBUM_SELECT} WHERE a.artist_id = ?1 OR a.id IN (SELECT DISTINCT album_id FROM library_tracks WHERE artist_id = ?1)
       ORDER BY a.artist_id <> ?1, a.year, a.sort_name`,
    )
    .all(id)
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

export function artistIndex(db: Db): Payload {
  const rows = db.$client.query<ArtistRow, []>(`${ARTIST_SELECT} ORDER BY r.sort_name, r.id`).all()
  return { ignoredArticles: IGNORED_ARTICLES, index: grouped(rows, (r) => artist(r)) }
}

/** getIndexes: the root folder's sub-folders by letter, and the files directly in it. */
export function folderIndex(db: Db, starred: Marks): Payload {
  const folders = db.$client.query<{ name: string; path: string }, []>("SELECT name, path FROM library_folders WHERE parent = ''").all()
  folders.sort((a, b) => naturalCompare(a.name, b.name))
  const files = db.$client.query<LibraryRow, []>(`${LIBRARY_SELECT} WHERE t.folder = ''`).all()
  files.sort((a, b) => naturalCompare(a.path, b.path))
  const lastModified = db.$client.query<{ at: number | null }, []>('SELECT max(finished_at) AS at FROM library_scans').get()?.at ?? 0
  return {
    lastModified,
    ignoredArticles: IGNORED_ARTICLES,
    index: grouped(folders, (f) => ({ id: folderId(f.path), name: f.name })),
    child: files.map((s) => song(s, starred)),
  }
}

export function directory(db: Db, path: string, starred: Marks): Payload | null {
  const folder = db.$client.query<{ name: string; parent: string | null }, [string]>('SELECT name, parent FROM library_folders WHERE path = ?').get(path)
  if (!folder && path !== '') return null
  // A folder's art is its own image or a cover in one of its tracks (coverPathOf): advertised only
  // when there is one. The sub-folders come from library_folders_parent_idx alone and each
  // track-cover test is one seek in library_tracks_folder_cover_idx (tracks with a cover only): the
  // root of a large library lists thousands of folders.
  const subfolders = db.$client
    .query<{ name: string; path: string; hasCover: number }, [string]>(
      `SELECT name, path, cover_path IS NOT NULL OR EXISTS (SELECT 1 FROM library_tracks t WHERE t.folder = f.path AND t.cover_path IS NOT NULL) AS hasCover
         FROM library_folders f WHERE parent = ?`,
    )
    .all(path)
  subfolders.sort((a, b) => naturalCompare(a.name, b.name))
  const files = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.folder = ?`).all(path)
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
export function songsUnder(db: Db, path: string, limit: number = LIBRARY_LIMITS.tracksPerFolderPlaylist): LibraryRow[] {
  const rows =
    path === ''
      ? db.$client.query<LibraryRow, [number]>(`${LIBRARY_SELECT} LIMIT ?`).all(limit)
      : db.$client
          .query<LibraryRow, [string, string, string, number]>(`${LIBRARY_SELECT} WHERE t.folder = ?1 OR (t.folder >= ?2 AND t.folder < ?3) LIMIT ?4`)
          .all(path, `${path}/`, `${path}0`, limit)
  return rows.sort((a, b) => naturalCompare(a.path, b.path))
}

/** How many songs (at most LIBRARY_LIMITS.tracksPerFolderPlaylist) and seconds a library folder holds, without loading them. */
export function folderTotals(db: Db, path: string): { songCount: number; duration: number } {
  const inner =
    path === ''
      ? `SELECT duration FROM library_tracks LIMIT ${LIBRARY_LIMITS.tracksPerFolderPlaylist}`
      : `SELECT duration FROM library_tracks WHERE folder = ?1 OR (folder >= ?2 AND folder < ?3) LIMIT ${LIBRARY_LIMITS.tracksPerFolderPlaylist}`
  const params = path === '' ? [] : [path, `${path}/`, `${path}0`]
  const row = db.$client.query<{ n: number; d: number | null }, string[]>(`SELECT count(*) AS n, sum(duration) AS d FROM (${inner})`).get(...params)
  return { songCount: row?.n ?? 0, duration: Math.round(row?.d ?? 0) }
}

export function genres(db: Db): Payload[] {
  return db.$client
    .query<{ value: string; songCount: number; albumCount: number }, []>(
      'SELECT name AS value, song_count AS songCount, album_count AS albumCount FROM library_genres ORDER BY lower(name), name',
    )
    .all()
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
function randomSeqs(db: Db, table: 'library_albums' | 'library_tracks', count: number): number[] {
  // Two subqueries: min and max in one SELECT would scan the table instead of reading both ends.
  const range = db.$client
    .query<{ lo: number | null; hi: number | null }, []>(`SELECT (SELECT min(seq) FROM ${table}) AS lo, (SELECT max(seq) FROM ${table}) AS hi`)
    .get()
  if (range?.lo == null || range.hi == null) return []
  const picks = new Set<number>()
  for (let i = 0; i < count * 3 && picks.size < count * 3; i++) picks.add(range.lo + Math.floor(Math.random() * (range.hi - range.lo + 1)))
  return [...picks]
}

export async function albumList(db: Db, userId: string, q: AlbumListQuery): Promise<Payload[]> {
  const c = db.$client
  const page = [q.size, q.offset] as const
  let rows: AlbumRow[]
  switch (q.type) {
    case 'random': {
      const seqs = randomSeqs(db, 'library_albums', q.size)
      rows = c.query<AlbumRow, [string, number]>(`${ALBUM_SELECT} WHERE a.seq IN (SELECT value FROM json_each(?)) LIMIT ?`).all(JSON.stringify(seqs), q.size)
      // A sparse seq range (many albums removed) may leave the picks short: fill up at random.
      if (rows.length < q.size && rows.length < count(db, 'library_albums')) {
        rows = c.query<AlbumRow, [number]>(`${ALBUM_SELECT} ORDER BY random() LIMIT ?`).all(q.size)
      }
      rows.sort(() => Math.random() - 0.5)
      break
    }
    case 'newest':
      rows = c.query<AlbumRow, [number, number]>(`${ALBUM_SELECT} ORDER BY a.added_at DESC, a.seq DESC LIMIT ? OFFSET ?`).all(...page)
      break
    case 'alphabeticalByName':
      rows = c.query<AlbumRow, [number, number]>(`${ALBUM_SELECT} ORDER BY a.sort_name, a.id LIMIT ? OFFSET ?`).all(...page)
      break
    case 'alphabeticalByArtist':
      // Walks library_albums_artist_sort_idx (migration 0008): no join, no sort.
      rows = c.query<AlbumRow, [number, number]>(`${ALBUM_SELECT} ORDER BY lower(a.artist), a.sort_name, a.id LIMIT ? OFFSET ?`).all(...page)
      break
    case 'byYear': {
      const from = q.fromYear ?? 0
      const to = q.toYear ?? 9999
      const order = from <= to ? 'a.year, a.sort_name' : 'a.year DESC, a.sort_name'
      rows = c
        .query<AlbumRow, [number, number, number, number]>(`${ALBUM_SELECT} WHERE a.year BETWEEN ? AND ? ORDER BY ${order} LIMIT ? OFFSET ?`)
        .all(Math.min(from, to), Math.max(from, to), ...page)
      break
    }
    case 'byGenre':
      rows = c.query<AlbumRow, [string, number, number]>(`${ALBUM_SELECT} WHERE a.genre = ? ORDER BY a.sort_name LIMIT ? OFFSET ?`).all(q.genre ?? '', ...page)
      break
    case 'frequent':
    case 'recent': {
      // The member's own plays (web player and apps), grouped by album name.
      const order = q.type === 'frequent' ? 'n DESC, last DESC' : 'last DESC'
      rows = c
        .query<AlbumRow, [string, number, number]>(
          `${ALBUM_SELECT} JOIN (SELECT lower(album) AS key, count(*) AS n, max(started_at) AS last FROM play_events
             WHERE user_id = ? AND album IS NOT NULL GROUP BY lower(album)) p ON p.key = a.sort_name
           ORDER BY ${order} LIMIT ? OFFSET ?`,
        )
        .all(userId, ...page)
      break
    }
    case 'highest':
      // The albums this member rated, best first (ratings_user_kind_rating_idx).
      rows = c
        .query<AlbumRow, [string, number, number]>(
          `${ALBUM_SELECT} JOIN ratings r ON r.item_id = a.id AND r.user_id = ? AND r.kind = 'album' ORDER BY r.rating DESC, a.sort_name LIMIT ? OFFSET ?`,
        )
        .all(userId, ...page)
      break
    case 'starred': {
      // Likes are per song: the albums of the member's liked songs.
      const albumIds = new Set((await starredSongs(db, await starredOf(db, userId))).map((s) => s.albumId))
      rows = c
        .query<AlbumRow, [string, number, number]>(`${ALBUM_SELECT} WHERE a.id IN (SELECT value FROM json_each(?)) ORDER BY a.sort_name LIMIT ? OFFSET ?`)
        .all(JSON.stringify([...albumIds]), ...page)
      break
    }
  }
  const ratings = await ratingsOf(db, userId)
  return rows.map((r) => album(r, ratings))
}

const count = (db: Db, table: string) => db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0

export function randomSongs(db: Db, q: { size: number; genre?: string; fromYear?: number; toYear?: number }, starred: Marks): Payload[] {
  const c = db.$client
  let rows: LibraryRow[]
  if (q.genre === undefined && q.fromYear === undefined && q.toYear === undefined) {
    const seqs = randomSeqs(db, 'library_tracks', q.size)
    rows = c.query<LibraryRow, [string, number]>(`${LIBRARY_SELECT} WHERE t.seq IN (SELECT value FROM json_each(?)) LIMIT ?`).all(JSON.stringify(seqs), q.size)
    if (rows.length < q.size && rows.length < count(db, 'library_tracks'))
      rows = c.query<LibraryRow, [number]>(`${LIBRARY_SELECT} ORDER BY random() LIMIT ?`).all(q.size)
  } else {
    const where: string[] = []
    const params: (string | number)[] = []
    if (q.genre !== undefined) {
      where.push('t.genre = ?')
      params.push(q.genre)
    }
    if (q.fromYear !== undefined) {
      where.push('t.year >= ?')
      params.push(q.fromYear)
    }
    if (q.toYear !== undefined) {
      where.push('t.year <= ?')
      params.push(q.toYear)
    }
    rows = c.query<LibraryRow, (string | number)[]>(`${LIBRARY_SELECT} WHERE ${where.join(' AND ')} ORDER BY random() LIMIT ?`).all(...params, q.size)
  }
  return rows.sort(() => Math.random() - 0.5).map((r) => song(r, starred))
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
export function search(db: Db, q: SearchQuery, starred: Marks): Payload {
  const c = db.$client
  const text = q.query.replace(/^"|"$/g, '').trim()
  if (text === '') {
    return {
      artist: c
        .query<ArtistRow, [number, number]>(`${ARTIST_SELECT} ORDER BY r.sort_name, r.id LIMIT ? OFFSET ?`)
        .all(q.artistCount, q.artistOffset)
        .map((r) => artist(r, starred.ratings)),
      album: c
        .query<AlbumRow, [number, number]>(`${ALBUM_SELECT} ORDER BY a.sort_name, a.id LIMIT ? OFFSET ?`)
        .all(q.albumCount, q.albumOffset)
        .map((r) => album(r, starred.ratings)),
      // In the order tracks were added (new ones come last, so an app's paged sync stays in step);
      // the offset is walked in the narrow added-at index, not the table (0.4 s → 40 ms at 800,000).
      song: c
        .query<LibraryRow, [number, number]>(
          `${LIBRARY_SELECT} WHERE t.seq IN (SELECT seq FROM library_tracks ORDER BY added_at, seq LIMIT ? OFFSET ?) ORDER BY t.added_at, t.seq`,
        )
        .all(q.songCount, q.songOffset)
        .map((s) => song(s, starred)),
    }
  }
  const match = ftsQuery(text)
  if (!match) return { artist: [], album: [], song: [] }
  return {
    artist: searchPage<ArtistRow>(db, ARTIST_SELECT, 'r', SEARCH_INDEXES.artists, match, q.artistCount, q.artistOffset).map((r) => artist(r, starred.ratings)),
    album: searchPage<AlbumRow>(db, ALBUM_SELECT, 'a', SEARCH_INDEXES.albums, match, q.albumCount, q.albumOffset).map((r) => album(r, starred.ratings)),
    song: searchPage<LibraryRow>(db, LIBRARY_SELECT, 't', SEARCH_INDEXES.tracks, match, q.songCount, q.songOffset).map((s) => song(s, starred)),
  }
}

/** The library path whose art is the cover of a song, album, artist or folder id. */
export function coverPathOf(db: Db, id: string): string | null {
  const c = db.$client
  const folder = folderPathOf(id)
  if (folder !== null) {
    const row = c.query<{ p: string | null }, [string]>('SELECT cover_path AS p FROM library_folders WHERE path = ?').get(folder)
    return (
      row?.p ??
      c.query<{ p: string | null }, [string]>('SELECT cover_path AS p FROM library_tracks WHERE folder = ? AND cover_path IS NOT NULL LIMIT 1').get(folder)
        ?.p ??
      null
    )
  }
  for (const table of ['library_tracks', 'library_albums', 'library_artists']) {
    const row = c.query<{ p: string | null }, [string]>(`SELECT cover_path AS p FROM ${table} WHERE id = ?`).get(id)
    // An artist's own picture (artist.jpg beside its albums) comes before its latest album's cover.
    if (row) return table === 'library_artists' ? (artistFilesOf(db, id).imagePath ?? row.p) : row.p
  }
  return null
}
