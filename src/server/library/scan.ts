// The library scanner: indexes MEDIA_ROOT into the library_* tables (schema/library-index.ts).
//
// A scan walks the tree (symlinks followed only while they stay inside MEDIA_ROOT), compares each
// media file's size and mtime with the index (scan-plan.ts), reads the tags of new and changed
// files with music-metadata (4 at a time) and writes them in batches. Each batch is one
// transaction that also brings the albums, artists and genres it touched up to date, so the
// index is consistent after every commit and a scan cut short (shutdown) leaves nothing
// half-done: the next scan simply reads what is still missing.
//
// It runs in the server process but off the request path: it hands the event loop back every
// ~20 ms (between directories, files and batches), so API calls and media streams keep flowing.
// One scan at a time; a scan asked for while one runs is run once more right after it. On
// PostgreSQL one node scans for all of them, the one holding the lease (runClusterScans).
// Who starts one: the schedule, an admin, and a member's folder that changed on disk since the
// last scan started (see scanForChangedFolder: merged with a running scan, at most one per
// FOLDER_SCAN_INTERVAL_MS).
import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { sql } from 'drizzle-orm'
import { type Db, execute, firstRow, isPostgres, rows, transaction } from '~/db/engine'
import type { IAudioMetadata } from 'music-metadata'
import { extensionOf, mimeFromName } from '~/shared/player/mime'
import { config } from '../config'
import { logger } from '../logger'
import { pickCover } from '../media/covers'
import { isInside, mediaRoot, resolveInside } from '../media/library-path'
import { fileTitle } from '../media/natural'
import { parseTags } from '../media/parse-tags'
import { isLibraryMediaName } from '../media/transcode-profile'
import { aviDurationFromHeader } from './avi-duration'
import { oggGranuleRate } from '~/shared/player/ogg-last-page'
import { oggDurationFromLastPage } from './ogg-duration'
import { ffprobeDuration } from './probe-duration'
import { albumId, artistId, coverRank, planScan, trackId, type FoundFile } from './scan-plan'

export const SCAN_INTERVAL_MS = 6 * 3600_000
/** A member's new folder starts a scan at most this often (RATE_LIMIT=off lifts it, for tests). */
export const FOLDER_SCAN_INTERVAL_MS = 60_000
const PARSE_CONCURRENCY = 4
const BATCH = 250
const MAX_DEPTH = 32
const SLICE_MS = 20
const UNKNOWN_ARTIST = 'Unknown Artist'
const UNKNOWN_ALBUM = 'Unknown Album'

export type ScanOptions = { full?: boolean }
export type ScanStatus = { scanning: boolean; scanned: number; total: number; tracks: number; albums: number; artists: number; lastScanAt: string | null }
export type ScanResult = { files: number; read: number; removed: number; ms: number; stopped: boolean; missingRoot?: true }

type ScannerState = {
  /** The scans this node runs (on PostgreSQL: while it holds the lease). */
  current: Promise<void> | null
  /** A scan asked for while one ran (full if any of the asks was). */
  again: ScanOptions | null
  stopping: boolean
  scanned: number
  total: number
  timer: ReturnType<typeof setInterval> | null
  /** When a member's new folder last started a scan (epoch ms). */
  folderScanAt: number
  /** A new folder's scan held back by the interval, due when it ends. */
  folderTimer: ReturnType<typeof setTimeout> | null
  /** PostgreSQL: a look at another node's lease once it would have run out. */
  leaseTimer: ReturnType<typeof setTimeout> | null
}
const state: ScannerState = {
  current: null,
  again: null,
  stopping: false,
  scanned: 0,
  total: 0,
  timer: null,
  folderScanAt: 0,
  folderTimer: null,
  leaseTimer: null,
}

type WalkedFile = FoundFile & { real: string; folder: string; name: string }

/** Resolves at once, or after a macrotask once the current ~20 ms slice is used up. */
function slicer() {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}

/** Every media file under MEDIA_ROOT, and the best cover image of each folder that has one. */
async function walkLibrary(root: string, pause: () => Promise<void>) {
  const files: WalkedFile[] = []
  const covers = new Map<string, { path: string; rank: number }>()
  const seen = new Set<string>([root])
  const stack: Array<{ real: string; rel: string; depth: number }> = [{ real: root, rel: '', depth: 0 }]
  while (stack.length && !state.stopping) {
    const dir = stack.pop()!
    await pause()
    let entries: Dirent[]
    try {
      entries = await readdir(dir.real, { withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const rel = dir.rel ? `${dir.rel}/${e.name}` : e.name
      let real = `${dir.real}/${e.name}`
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        const resolved = resolveInside(rel)
        const st = resolved ? await stat(resolved).catch(() => null) : null
        if (!resolved || !st) continue
        real = resolved
        isDir = st.isDirectory()
        isFile = st.isFile()
      }
      if (isDir) {
        if (dir.depth < MAX_DEPTH && !seen.has(real)) {
          seen.add(real)
          stack.push({ real, rel, depth: dir.depth + 1 })
        }
      } else if (isFile && isLibraryMediaName(e.name)) {
        const st = await stat(real).catch(() => null)
        if (st?.isFile() && isInside(root, real)) files.push({ path: rel, real, folder: dir.rel, name: e.name, size: st.size, mtimeMs: Math.floor(st.mtimeMs) })
      } else if (isFile) {
        const rank = coverRank(e.name)
        const best = covers.get(dir.rel)
        if (rank >= 0 && (!best || rank < best.rank || (rank === best.rank && rel < best.path))) covers.set(dir.rel, { path: rel, rank })
      }
    }
  }
  return { files, covers: new Map([...covers].map(([folder, c]) => [folder, c.path])) }
}

type TrackRow = {
  id: string
  path: string
  folder: string
  title: string
  artist: string
  artistId: string
  albumArtist: string
  albumArtistId: string
  album: string
  albumId: string
  genre: string | null
  trackNo: number | null
  discNo: number | null
  year: number | null
  duration: number
  bitrate: number | null
  format: string | null
  mime: string
  rgTrackGain: number | null
  rgTrackPeak: number | null
  rgAlbumGain: number | null
  rgAlbumPeak: number | null
  size: number
  mtimeMs: number
  embeddedCover: number
  coverPath: string | null
  addedAt: number
}

/** A tag as text: control characters (a broken or hostile file's) become a space, then trimmed. */
const clean = (s: string | undefined | null, max = 500) => {
  const text = s?.replace(/\p{Cc}+/gu, ' ').trim()
  return text ? text.slice(0, max) : null
}
const positive = (n: number | null | undefined, max: number) => (n && Number.isFinite(n) && n > 0 && n < max ? Math.floor(n) : null)
const finite = (n: number | undefined) => (n !== undefined && Number.isFinite(n) ? n : null)

/** Formats whose length only ffprobe gives. */
const PROBED_DURATION = new Set(['aac', 'mov', 'ogv'])
/** Every format durationBesideTags reads (a row of one at 0 s is stale: see scanLibrary). */
const DURATION_BESIDE_TAGS = ['ogg', 'avi', ...PROBED_DURATION]

/**
 * What music-metadata leaves out without reading the whole file: an Ogg stream states its length
 * only on its last page (ogg-duration.ts), AVI it does not read at all (avi-duration.ts), and
 * ADTS, QuickTime and Theora lengths come from ffprobe (probe-duration.ts).
 */
async function durationBesideTags(file: WalkedFile, format: IAudioMetadata['format'] | undefined): Promise<number | null> {
  const ext = extensionOf(file.name)
  if (ext === 'ogg' && format) return oggDurationFromLastPage(file.real, oggGranuleRate(format.codec, format.sampleRate))
  if (ext === 'avi') return aviDurationFromHeader(file.real)
  if (PROBED_DURATION.has(ext)) return ffprobeDuration(file.real)
  return null
}

/** The index row of a file: its tags, or file-name defaults when it has none or cannot be read. */
async function readTrack(file: WalkedFile, folderCover: string | undefined, now: number): Promise<TrackRow> {
  let tags: IAudioMetadata | null = null
  try {
    tags = await parseTags(file.real, { duration: false })
  } catch {}
  const common = tags?.common
  const format = tags?.format
  const duration = format?.duration || (await durationBesideTags(file, format).catch(() => null))
  const artist = clean(common?.artist) ?? ''
  const albumArtist = clean(common?.albumartist) ?? artist
  const albumTag = clean(common?.album)
  const embedded = pickCover(common?.picture) !== null
  return {
    id: trackId(file.path),
    path: file.path,
    folder: file.folder,
    title: clean(common?.title) ?? fileTitle(file.path),
    artist,
    artistId: artistId(artist),
    albumArtist,
    albumArtistId: artistId(albumArtist),
    album: albumTag ?? UNKNOWN_ALBUM,
    albumId: albumId(albumArtist, albumTag, file.folder),
    genre: clean(common?.genre?.[0], 200),
    trackNo: positive(common?.track?.no, 100_000),
    discNo: positive(common?.disk?.no, 1000),
    year: positive(common?.year, 10_000),
    duration: duration && Number.isFinite(duration) ? Math.round(duration * 1000) / 1000 : 0,
    bitrate: format?.bitrate && Number.isFinite(format.bitrate) ? Math.round(format.bitrate / 1000) : null,
    format: clean(format?.container, 50),
    mime: mimeFromName(file.name),
    rgTrackGain: finite(common?.replaygain_track_gain?.dB),
    rgTrackPeak: finite(common?.replaygain_track_peak?.ratio),
    rgAlbumGain: finite(common?.replaygain_album_gain?.dB),
    rgAlbumPeak: finite(common?.replaygain_album_peak?.ratio),
    size: file.size,
    mtimeMs: file.mtimeMs,
    embeddedCover: embedded ? 1 : 0,
    coverPath: embedded ? file.path : (folderCover ?? null),
    addedAt: now,
  }
}

const TRACK_COLUMNS = [
  'id',
  'path',
  'folder',
  'title',
  'artist',
  'artist_id',
  'album_artist',
  'album_artist_id',
  'album',
  'album_id',
  'genre',
  'track_no',
  'disc_no',
  'year',
  'duration',
  'bitrate',
  'format',
  'mime',
  'rg_track_gain',
  'rg_track_peak',
  'rg_album_gain',
  'rg_album_peak',
  'size',
  'mtime_ms',
  'embedded_cover',
  'cover_path',
  'added_at',
] as const
const rowValues = (r: TrackRow) => [
  r.id,
  r.path,
  r.folder,
  r.title,
  r.artist,
  r.artistId,
  r.albumArtist,
  r.albumArtistId,
  r.album,
  r.albumId,
  r.genre,
  r.trackNo,
  r.discNo,
  r.year,
  r.duration,
  r.bitrate,
  r.format,
  r.mime,
  r.rgTrackGain,
  r.rgTrackPeak,
  r.rgAlbumGain,
  r.rgAlbumPeak,
  r.size,
  r.mtimeMs,
  r.embeddedCover,
  r.coverPath,
  r.addedAt,
]

/** rowValues with embedded_cover as PostgreSQL's boolean. */
const postgresRowValues = (r: TrackRow) => rowValues(r).map((v, k) => (TRACK_COLUMNS[k] === 'embedded_cover' ? v === 1 : v))

/** The ids a set of changes touches; their aggregates are recomputed in the same transaction. */
type Touched = { albums: Set<string>; artists: Set<string>; genres: Set<string> }
const touchedSet = (): Touched => ({ albums: new Set(), artists: new Set(), genres: new Set() })
type OldIds = { albumId: string; artistId: string; albumArtistId: string; genre: string | null }
function touch(touched: Touched, ids: OldIds) {
  touched.albums.add(ids.albumId)
  touched.artists.add(ids.artistId).add(ids.albumArtistId)
  if (ids.genre) touched.genres.add(ids.genre)
}

/**
 * A genre's counts are over all its tracks, not a batch's: a library holds a few genres, so each
 * batch touches most of them, and recounting them per batch made a scan quadratic in the library's
 * size. One recount of eight genres costs ~20 ms at 100,000 tracks and ~180 ms at a million (read
 * from the genre-and-album index alone); per batch of 250 that was ~4 s and ~6 minutes of a scan,
 * and on SQLite each recount holds the event loop. The genres a writer touches wait and are
 * recounted at most every GENRES_REFRESH_MS, and once more when the scan ends or stops (flush).
 */
const GENRES_REFRESH_MS = 10_000
function waitingGenres() {
  const waiting = new Set<string>()
  let countedAt = Date.now()
  return {
    /** Adds a batch's genres; all the waiting ones when they are due (or `now`), else none. */
    take(genres: Iterable<string>, now = false): string[] {
      for (const g of genres) waiting.add(g)
      if (!waiting.size || (!now && Date.now() - countedAt < GENRES_REFRESH_MS)) return []
      countedAt = Date.now()
      const due = [...waiting]
      waiting.clear()
      return due
    },
  }
}

// The aggregate statements, one text for both engines. `IDS` stands for the touched ids, given as
// one JSON array as a column `value`: SQLite reads it with json_each, PostgreSQL with jsonb_array_elements_text.
const IDS = '/*ids*/'
const ALBUMS_UPSERT = `
    WITH g AS (
      SELECT album_id AS id, min(album) AS name, min(album_artist) AS artist, min(album_artist_id) AS artist_id, max(year) AS year, min(genre) AS genre,
             count(*) AS n, sum(duration) AS d, min(folder) AS folder, min(CASE WHEN embedded_cover THEN path END) AS embedded, min(added_at) AS added
      FROM library_tracks WHERE album_id IN (${IDS}) GROUP BY album_id)
    INSERT INTO library_albums (id, name, sort_name, artist, artist_id, year, genre, song_count, duration, cover_path, added_at)
    SELECT g.id, g.name, lower(g.name), CASE WHEN g.artist = '' THEN '${UNKNOWN_ARTIST}' ELSE g.artist END, g.artist_id, g.year, g.genre, g.n, g.d,
           coalesce(f.cover_path, g.embedded), g.added
    FROM g LEFT JOIN library_folders f ON f.path = g.folder WHERE true
    ON CONFLICT(id) DO UPDATE SET name = excluded.name, sort_name = excluded.sort_name, artist = excluded.artist, artist_id = excluded.artist_id,
      year = excluded.year, genre = excluded.genre, song_count = excluded.song_count, duration = excluded.duration, cover_path = excluded.cover_path,
      added_at = excluded.added_at`
const ALBUMS_PRUNE = `DELETE FROM library_albums WHERE id IN (${IDS}) AND NOT EXISTS (SELECT 1 FROM library_tracks t WHERE t.album_id = library_albums.id)`
// `a.year IS NULL` first: the newest album with a year gives the cover on both engines (PostgreSQL sorts NULL first in DESC).
const ARTISTS_UPSERT = `
    WITH ids AS (SELECT value AS id FROM (${IDS}) i),
    names AS (
      SELECT ids.id, (SELECT artist FROM library_tracks WHERE artist_id = ids.id LIMIT 1) AS a,
             (SELECT album_artist FROM library_tracks WHERE album_artist_id = ids.id LIMIT 1) AS aa FROM ids),
    g AS (SELECT id, coalesce(a, aa) AS name FROM names WHERE a IS NOT NULL OR aa IS NOT NULL)
    INSERT INTO library_artists (id, name, sort_name, album_count, song_count, cover_path)
    SELECT g.id, CASE WHEN g.name = '' THEN '${UNKNOWN_ARTIST}' ELSE g.name END, lower(CASE WHEN g.name = '' THEN '${UNKNOWN_ARTIST}' ELSE g.name END),
           (SELECT count(*) FROM library_albums a WHERE a.artist_id = g.id),
           (SELECT count(*) FROM library_tracks t WHERE t.artist_id = g.id),
           (SELECT a.cover_path FROM library_albums a WHERE a.artist_id = g.id AND a.cover_path IS NOT NULL ORDER BY a.year IS NULL, a.year DESC LIMIT 1)
    FROM g WHERE true
    ON CONFLICT(id) DO UPDATE SET name = excluded.name, sort_name = excluded.sort_name, album_count = excluded.album_count,
      song_count = excluded.song_count, cover_path = excluded.cover_path`
const ARTISTS_PRUNE = `
    DELETE FROM library_artists WHERE id IN (${IDS})
      AND NOT EXISTS (SELECT 1 FROM library_tracks t WHERE t.artist_id = library_artists.id)
      AND NOT EXISTS (SELECT 1 FROM library_tracks t WHERE t.album_artist_id = library_artists.id)`
const GENRES_UPSERT = `
    INSERT INTO library_genres (name, song_count, album_count)
    SELECT genre, count(*), count(DISTINCT album_id) FROM library_tracks WHERE genre IN (${IDS}) GROUP BY genre
    ON CONFLICT(name) DO UPDATE SET song_count = excluded.song_count, album_count = excluded.album_count`
const GENRES_PRUNE = `DELETE FROM library_genres WHERE name IN (${IDS}) AND NOT EXISTS (SELECT 1 FROM library_tracks t WHERE t.genre = library_genres.name)`
const FOLDER_UPSERT_HEAD = 'INSERT INTO library_folders (path, parent, name, cover_path) VALUES'
const FOLDER_UPSERT_TAIL = 'ON CONFLICT(path) DO UPDATE SET cover_path = excluded.cover_path'
const TRACK_UPSERT_TAIL = `ON CONFLICT(path) DO UPDATE SET ${TRACK_COLUMNS.filter((k) => k !== 'added_at' && k !== 'path')
  .map((k) => `${k} = excluded.${k}`)
  .join(', ')}`

/** A folder's row: its path, parent ('' for a top folder, null for MEDIA_ROOT) and name. */
function folderRow(path: string, cover: string | null): [string, string | null, string, string | null] {
  const slash = path.lastIndexOf('/')
  return [path, path === '' ? null : slash < 0 ? '' : path.slice(0, slash), path === '' ? '' : path.slice(slash + 1), cover]
}

/**
 * The index writer. Album and artist aggregates are recomputed from the tracks for the touched
 * ids only (indexed lookups), so a batch costs the same at 1,000 tracks as at a million; genres,
 * which span the library, are recounted at most every GENRES_REFRESH_MS (waitingGenres). Each call is one
 * transaction; on SQLite it is done when the call returns.
 */
type IndexWriter = {
  /** Upserts read tracks and deletes removed paths, then their aggregates. */
  apply: (tracks: TrackRow[], removed: string[]) => Promise<void>
  /** Brings the folder tree and folder covers in line with the walk. */
  syncFolders: (wanted: Map<string, string | null>) => Promise<void>
  /** Recounts the genres still waiting (see waitingGenres): before recordScan, or when the scan stops. */
  flushGenres: () => Promise<void>
  recordScan: (startedAt: number, full: boolean, files: number, read: number, removed: number) => Promise<void>
}

const indexWriter = (db: Db): IndexWriter => (isPostgres(db) ? postgresIndexWriter(db) : sqliteIndexWriter(db))

/** SQLite: prepared statements over the one connection, each call a synchronous transaction. */
function sqliteIndexWriter(db: Db): IndexWriter {
  const c = db.$client
  const ids = (text: string) => text.replaceAll(IDS, 'SELECT value FROM json_each(?1)')
  // `added_at` is kept on conflict: a changed file is not "recently added".
  const upsert = c.prepare(`INSERT INTO library_tracks (${TRACK_COLUMNS.join(', ')}) VALUES (${TRACK_COLUMNS.map(() => '?').join(', ')}) ${TRACK_UPSERT_TAIL}`)
  const oldIds = c.prepare<OldIds, [string]>(
    'SELECT album_id AS albumId, artist_id AS artistId, album_artist_id AS albumArtistId, genre FROM library_tracks WHERE path = ?',
  )
  const removeTrack = c.prepare('DELETE FROM library_tracks WHERE path = ?')
  const albumsUpsert = c.prepare(ids(ALBUMS_UPSERT))
  const albumsPrune = c.prepare(ids(ALBUMS_PRUNE))
  const artistsUpsert = c.prepare(ids(ARTISTS_UPSERT))
  const artistsPrune = c.prepare(ids(ARTISTS_PRUNE))
  const genresUpsert = c.prepare(ids(GENRES_UPSERT))
  const genresPrune = c.prepare(ids(GENRES_PRUNE))
  const folderUpsert = c.prepare(`${FOLDER_UPSERT_HEAD} (?, ?, ?, ?) ${FOLDER_UPSERT_TAIL}`)
  const folderRemove = c.prepare('DELETE FROM library_folders WHERE path = ?')
  const folderTrackCovers = c.prepare('UPDATE library_tracks SET cover_path = ?2 WHERE folder = ?1 AND NOT embedded_cover')
  const folderAlbums = c.prepare<{ albumId: string }, [string]>('SELECT DISTINCT album_id AS albumId FROM library_tracks WHERE folder = ?')

  function touchOld(path: string, touched: Touched) {
    const old = oldIds.get(path)
    if (old) touch(touched, old)
  }

  const genres = waitingGenres()
  function recountGenres(due: string[]) {
    if (!due.length) return
    const list = JSON.stringify(due)
    genresUpsert.run(list)
    genresPrune.run(list)
  }

  function refreshAggregates(touched: Touched) {
    const albums = JSON.stringify([...touched.albums])
    albumsUpsert.run(albums)
    albumsPrune.run(albums)
    // Albums first: an artist's album count and cover come from the albums.
    const artists = JSON.stringify([...touched.artists])
    artistsUpsert.run(artists)
    artistsPrune.run(artists)
    recountGenres(genres.take(touched.genres))
  }

  const apply = c.transaction((tracks: TrackRow[], removed: string[]) => {
    const touched = touchedSet()
    for (const path of removed) {
      touchOld(path, touched)
      removeTrack.run(path)
    }
    for (const row of tracks) {
      touchOld(row.path, touched)
      upsert.run(...(rowValues(row) as never[]))
      touch(touched, row)
    }
    refreshAggregates(touched)
  })
  const syncFolders = c.transaction((wanted: Map<string, string | null>) => {
    const have = new Map(
      c
        .query<{ path: string; cover: string | null }, []>('SELECT path, cover_path AS cover FROM library_folders')
        .all()
        .map((r) => [r.path, r.cover]),
    )
    const touched = touchedSet()
    for (const [path, cover] of wanted) {
      if (have.has(path) && have.get(path) === cover) continue
      folderUpsert.run(...folderRow(path, cover))
      if (have.has(path)) {
        // The folder's image changed: tracks without their own art, and their albums, follow.
        folderTrackCovers.run(path, cover)
        for (const { albumId } of folderAlbums.all(path)) touched.albums.add(albumId)
      }
    }
    for (const path of have.keys()) if (!wanted.has(path)) folderRemove.run(path)
    if (touched.albums.size) {
      const albums = JSON.stringify([...touched.albums])
      albumsUpsert.run(albums)
      const ids = c
        .query<{ id: string }, [string]>('SELECT DISTINCT artist_id AS id FROM library_albums WHERE id IN (SELECT value FROM json_each(?1))')
        .all(albums)
      artistsUpsert.run(JSON.stringify(ids.map((r) => r.id)))
    }
  })
  return {
    apply: async (tracks, removed) => apply(tracks, removed),
    syncFolders: async (wanted) => syncFolders(wanted),
    flushGenres: async () => recountGenres(genres.take([], true)),
    recordScan: async (startedAt, full, files, read, removed) => {
      c.prepare('INSERT INTO library_scans (started_at, finished_at, "full", files, read, removed) VALUES (?, ?, ?, ?, ?, ?)').run(
        startedAt,
        Date.now(),
        full ? 1 : 0,
        files,
        read,
        removed,
      )
    },
  }
}

/** Rows per multi-row INSERT on PostgreSQL (27 parameters a track: well under its 65,535). */
const PG_ROWS_PER_INSERT = 1000

/**
 * PostgreSQL: each call one transaction of a few statements (a batch's tracks are one multi-row
 * upsert, its old ids one select). Calls run one after another, so two batches never update the
 * same albums at once.
 */
function postgresIndexWriter(db: Db): IndexWriter {
  const idsOf = (values: Iterable<string>) => sql`SELECT jsonb_array_elements_text(${JSON.stringify([...values])}::text::jsonb) AS value`
  /** One of the aggregate statements with `values` where it says IDS. */
  const withIds = (text: string, values: Iterable<string>) => {
    const list = [...values]
    const parts = text.split(IDS)
    return sql.join(
      parts.flatMap((part, i) => (i === 0 ? [sql.raw(part)] : [idsOf(list), sql.raw(part)])),
      sql``,
    )
  }
  const valuesList = (tuples: unknown[][]) =>
    sql.join(
      tuples.map(
        (values) =>
          sql`(${sql.join(
            values.map((v) => sql`${v}`),
            sql`, `,
          )})`,
      ),
      sql`, `,
    )

  const genres = waitingGenres()
  async function recountGenres(tx: Db, due: string[]) {
    if (!due.length) return
    await execute(tx, withIds(GENRES_UPSERT, due))
    await execute(tx, withIds(GENRES_PRUNE, due))
  }

  async function refreshAggregates(tx: Db, touched: Touched) {
    await execute(tx, withIds(ALBUMS_UPSERT, touched.albums))
    await execute(tx, withIds(ALBUMS_PRUNE, touched.albums))
    // Albums first: an artist's album count and cover come from the albums.
    await execute(tx, withIds(ARTISTS_UPSERT, touched.artists))
    await execute(tx, withIds(ARTISTS_PRUNE, touched.artists))
    await recountGenres(tx, genres.take(touched.genres))
  }

  let tail: Promise<unknown> = Promise.resolve()
  /** Runs `write` after the writes before it. */
  const inTurn = (write: () => Promise<void>): Promise<void> => {
    const next = tail.then(write)
    tail = next.catch(() => {})
    return next
  }

  return {
    apply: (tracks, removed) =>
      inTurn(() =>
        transaction(db, async (tx) => {
          const touched = touchedSet()
          const paths = [...removed, ...tracks.map((r) => r.path)]
          for (const old of await rows<OldIds>(
            tx,
            sql`SELECT album_id AS "albumId", artist_id AS "artistId", album_artist_id AS "albumArtistId", genre FROM library_tracks WHERE path IN (${idsOf(paths)})`,
          ))
            touch(touched, old)
          if (removed.length) await execute(tx, sql`DELETE FROM library_tracks WHERE path IN (${idsOf(removed)})`)
          for (let i = 0; i < tracks.length; i += PG_ROWS_PER_INSERT) {
            const values = tracks.slice(i, i + PG_ROWS_PER_INSERT).map(postgresRowValues)
            await execute(tx, sql`INSERT INTO library_tracks (${sql.raw(TRACK_COLUMNS.join(', '))}) VALUES ${valuesList(values)} ${sql.raw(TRACK_UPSERT_TAIL)}`)
          }
          for (const row of tracks) touch(touched, row)
          await refreshAggregates(tx, touched)
        }),
      ),
    syncFolders: (wanted) =>
      inTurn(() =>
        transaction(db, async (tx) => {
          const have = new Map(
            (await rows<{ path: string; cover: string | null }>(tx, sql`SELECT path, cover_path AS cover FROM library_folders`)).map((r) => [r.path, r.cover]),
          )
          const changed: ReturnType<typeof folderRow>[] = []
          const recovered: Array<[string, string | null]> = []
          for (const [path, cover] of wanted) {
            if (have.has(path) && have.get(path) === cover) continue
            changed.push(folderRow(path, cover))
            if (have.has(path)) recovered.push([path, cover])
          }
          for (let i = 0; i < changed.length; i += PG_ROWS_PER_INSERT)
            await execute(tx, sql`${sql.raw(FOLDER_UPSERT_HEAD)} ${valuesList(changed.slice(i, i + PG_ROWS_PER_INSERT))} ${sql.raw(FOLDER_UPSERT_TAIL)}`)
          const gone = [...have.keys()].filter((path) => !wanted.has(path))
          if (gone.length) await execute(tx, sql`DELETE FROM library_folders WHERE path IN (${idsOf(gone)})`)
          if (!recovered.length) return
          // A folder's image changed: tracks without their own art, and their albums, follow.
          for (const [path, cover] of recovered)
            await execute(tx, sql`UPDATE library_tracks SET cover_path = ${cover} WHERE folder = ${path} AND NOT embedded_cover`)
          const albums = (
            await rows<{ id: string }>(tx, sql`SELECT DISTINCT album_id AS id FROM library_tracks WHERE folder IN (${idsOf(recovered.map(([path]) => path))})`)
          ).map((r) => r.id)
          if (!albums.length) return
          await execute(tx, withIds(ALBUMS_UPSERT, albums))
          const artists = await rows<{ id: string }>(tx, sql`SELECT DISTINCT artist_id AS id FROM library_albums WHERE id IN (${idsOf(albums)})`)
          await execute(
            tx,
            withIds(
              ARTISTS_UPSERT,
              artists.map((r) => r.id),
            ),
          )
        }),
      ),
    flushGenres: () => inTurn(() => transaction(db, (tx) => recountGenres(tx, genres.take([], true)))),
    recordScan: (startedAt, full, files, read, removed) =>
      inTurn(() =>
        execute(
          db,
          sql`INSERT INTO library_scans (started_at, finished_at, "full", files, read, removed) VALUES (${startedAt}, ${Date.now()}, ${full}, ${files}, ${read}, ${removed})`,
        ),
      ),
  }
}

/** Every folder holding media (directly or below) and its cover image. */
function folderTree(files: WalkedFile[], covers: Map<string, string>): Map<string, string | null> {
  const tree = new Map<string, string | null>()
  for (const f of files) {
    let folder: string = f.folder
    while (!tree.has(folder)) {
      tree.set(folder, covers.get(folder) ?? null)
      if (folder === '') break
      const slash = folder.lastIndexOf('/')
      folder = slash < 0 ? '' : folder.slice(0, slash)
    }
  }
  return tree
}

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length && !state.stopping) await fn(items[next++])
    }),
  )
}

/** One scan of MEDIA_ROOT into the index (see the header). */
export async function scanLibrary(db: Db, options: ScanOptions = {}): Promise<ScanResult> {
  const started = Date.now()
  const full = options.full === true
  const pause = slicer()
  let root: string
  try {
    root = mediaRoot()
  } catch {
    // No MEDIA_ROOT (warned about at start-up): keep the index as it is rather than empty it.
    return { files: 0, read: 0, removed: 0, ms: 0, stopped: false, missingRoot: true }
  }
  const { files, covers } = await walkLibrary(root, pause)
  const stopped = () => ({ files: files.length, read: 0, removed: 0, ms: Date.now() - started, stopped: true })
  if (state.stopping) return stopped()

  // Stale: an ogg, avi, aac, mov or ogv indexed at 0 s, as scans before durationBesideTags left
  // them, is read again, so an upgrade needs no full rescan.
  const indexed = new Map(
    (
      await rows<{ path: string; size: number; mtimeMs: number; stale: number }>(
        db,
        sql.raw(
          `SELECT path, size, mtime_ms AS "mtimeMs", CASE WHEN duration = 0 AND (${DURATION_BESIDE_TAGS.map((ext) => `lower(path) LIKE '%.${ext}'`).join(' OR ')}) THEN 1 ELSE 0 END AS stale FROM library_tracks`,
        ),
      )
    ).map((r) => [r.path, { size: r.size, mtimeMs: r.mtimeMs, stale: r.stale === 1 }]),
  )
  const plan = planScan(indexed, files, full)
  state.total = files.length
  state.scanned = plan.unchanged
  const writer = indexWriter(db)
  await writer.syncFolders(folderTree(files, covers))
  for (let i = 0; i < plan.removed.length; i += BATCH) {
    await pause()
    await writer.apply([], plan.removed.slice(i, i + BATCH))
  }

  const now = Date.now()
  let pending: TrackRow[] = []
  let read = 0
  // A batch's write: done at once on SQLite; on PostgreSQL the readers go on while it is sent.
  const writes: Promise<void>[] = []
  let writeFailed: unknown = null
  await mapLimit(plan.read, PARSE_CONCURRENCY, async (file) => {
    if (writeFailed) throw writeFailed
    // Read first, then push: `pending.push(await …)` would push into the array of a batch that
    // another reader wrote (and replaced) while this one waited, and that row would be lost.
    const row = await readTrack(file, covers.get(file.folder), now)
    pending.push(row)
    read++
    state.scanned++
    if (pending.length >= BATCH && !state.stopping) {
      const batch = pending
      pending = []
      const write = writer.apply(batch, [])
      write.catch((error) => (writeFailed ??= error))
      writes.push(write)
    }
    await pause()
  })
  await Promise.all(writes)
  if (state.stopping) {
    await writer.flushGenres()
    return stopped()
  }
  if (pending.length) await writer.apply(pending, [])
  await writer.flushGenres()
  await writer.recordScan(started, full, files.length, read, plan.removed.length)
  return { files: files.length, read, removed: plan.removed.length, ms: Date.now() - started, stopped: false }
}

/** Who asks for a scan: an admin (or a member's new folder), or the schedule (start-up, every 6 hours). */
export type ScanAsker = 'ask' | 'schedule'

/**
 * Starts a scan now, or once more after the running one. On PostgreSQL the scan runs on
 * whichever node holds the lease (see runClusterScans); a scheduled ask is dropped while a
 * scan runs or was asked for on any node, or one started within SCHEDULE_QUIET_MS (nodes
 * started together scan once).
 */
export async function requestScan(db: Db, options: ScanOptions = {}, from: ScanAsker = 'ask'): Promise<void> {
  if (state.stopping) return
  if (isPostgres(db)) return askClusterScan(db, options, from)
  if (state.current) {
    state.again = { full: state.again?.full === true || options.full === true }
    return
  }
  state.current = (async () => {
    let next: ScanOptions | null = options
    while (next && !state.stopping) {
      state.again = null
      await runOneScan(db, next)
      next = state.again
    }
    state.current = null
    state.scanned = 0
    state.total = 0
  })()
}

async function runOneScan(db: Db, options: ScanOptions) {
  try {
    const result = await scanLibrary(db, options)
    if (result.missingRoot) logger.info({ mediaRoot: config.MEDIA_ROOT }, 'library scan skipped: MEDIA_ROOT does not exist (start-up warned once)')
    else logger.info({ scan: { ...result, full: options.full === true } }, 'library scan done')
  } catch (error) {
    logger.error({ err: error }, 'library scan failed')
  }
}

// PostgreSQL: one scanner for all the nodes (docs/decisions/088). An ask is a flag in the one
// library_scan_lease row; the node that takes the lease (an expiring row, renewed every second
// with the scan's progress) runs scans while the flag is set, clearing it as each one starts, and
// lets go only when no ask is left. Its status is that row, so every node reports the same scan.
const LEASE = 'library'
/** A lease not renewed for this long belongs to a node that died: another node may take it. */
const LEASE_MS = 30_000
const HEARTBEAT_MS = 1_000
/** How long the new holder waits before it walks, so asks made at the same moment on several nodes are one scan. */
const GATHER_MS = 300
/** A scheduled ask is dropped when a scan started this recently on any node. */
const SCHEDULE_QUIET_MS = 60_000
const NODE_ID = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`

async function askClusterScan(db: Db, options: ScanOptions, from: ScanAsker) {
  const now = Date.now()
  if (from === 'schedule') {
    const busy = await firstRow<{ busy: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM library_scan_lease WHERE asked OR (holder IS NOT NULL AND expires_at > ${now}))
        + (SELECT count(*) FROM library_scans WHERE started_at > ${now - SCHEDULE_QUIET_MS}) AS busy`,
    )
    if (busy?.busy) return
  }
  await execute(
    db,
    sql`INSERT INTO library_scan_lease (name, holder, expires_at, asked, asked_full, scanned, total) VALUES (${LEASE}, NULL, 0, true, ${options.full === true}, 0, 0)
      ON CONFLICT (name) DO UPDATE SET asked = true, asked_full = library_scan_lease.asked_full OR excluded.asked_full`,
  )
  leadWhenFree(db)
}

/** Runs the asked scans here if no other node holds the lease. */
function leadWhenFree(db: Db) {
  if (state.current || state.stopping) return
  state.current = runClusterScans(db)
    .catch((error) => logger.error({ err: error }, 'library scan failed'))
    .finally(() => {
      state.current = null
      state.scanned = 0
      state.total = 0
    })
}

async function runClusterScans(db: Db) {
  const now = Date.now()
  const taken = await rows(
    db,
    sql`UPDATE library_scan_lease SET holder = ${NODE_ID}, expires_at = ${now + LEASE_MS}
      WHERE name = ${LEASE} AND asked AND (holder IS NULL OR expires_at <= ${now}) RETURNING name`,
  )
  if (!taken.length) {
    // Held by another node: it takes this ask when its scan ends. Should that node die, its lease
    // runs out and this node takes the ask then.
    const [left] = await rows<{ asked: boolean }>(db, sql`SELECT asked FROM library_scan_lease WHERE name = ${LEASE}`)
    if (left?.asked && !state.stopping) {
      state.leaseTimer ??= setTimeout(() => {
        state.leaseTimer = null
        leadWhenFree(db)
      }, LEASE_MS)
      state.leaseTimer.unref()
    }
    return
  }
  const renew = () =>
    execute(
      db,
      sql`UPDATE library_scan_lease SET expires_at = ${Date.now() + LEASE_MS}, scanned = ${state.scanned}, total = ${state.total}
        WHERE name = ${LEASE} AND holder = ${NODE_ID}`,
    ).catch((error) => logger.warn({ err: error }, 'library scan lease not renewed'))
  const heartbeat = setInterval(renew, HEARTBEAT_MS)
  heartbeat.unref()
  try {
    await Bun.sleep(GATHER_MS)
    while (!state.stopping) {
      const full = await transaction(db, async (tx) => {
        const [lease] = await rows<{ holder: string | null; asked: boolean; full: boolean }>(
          tx,
          sql`SELECT holder, asked, asked_full AS full FROM library_scan_lease WHERE name = ${LEASE} FOR UPDATE`,
        )
        if (lease?.holder !== NODE_ID) return 'lost'
        if (!lease.asked) return null
        await execute(tx, sql`UPDATE library_scan_lease SET asked = false, asked_full = false, scanned = 0, total = 0 WHERE name = ${LEASE}`)
        return lease.full
      })
      // The lease ran out (renewals failed) and another node took it: the asks are that node's now.
      if (full === 'lost') return
      if (full === null) {
        // Let go only if no ask came in meanwhile; otherwise scan again.
        const released = await rows(
          db,
          sql`UPDATE library_scan_lease SET holder = NULL, expires_at = 0, scanned = 0, total = 0
            WHERE name = ${LEASE} AND holder = ${NODE_ID} AND NOT asked RETURNING name`,
        )
        if (released.length) return
        continue
      }
      await runOneScan(db, { full })
      state.scanned = 0
      state.total = 0
    }
  } finally {
    clearInterval(heartbeat)
    // Stopping (or failing): the lease goes now rather than when it runs out; asks stay for the next holder.
    await execute(db, sql`UPDATE library_scan_lease SET holder = NULL, expires_at = 0, scanned = 0, total = 0 WHERE name = ${LEASE} AND holder = ${NODE_ID}`)
  }
}

/** Whether a scan runs or is asked for: here on SQLite, on any node on PostgreSQL. */
async function scanRunning(db: Db): Promise<boolean> {
  if (!isPostgres(db)) return state.current !== null
  return (await clusterScan(db)).scanning
}

async function clusterScan(db: Db): Promise<{ scanning: boolean; scanned: number; total: number }> {
  const [row] = await rows<{ scanning: number; scanned: number; total: number }>(
    db,
    sql`SELECT CASE WHEN asked OR (holder IS NOT NULL AND expires_at > ${Date.now()}) THEN 1 ELSE 0 END AS scanning, scanned, total
      FROM library_scan_lease WHERE name = ${LEASE}`,
  )
  return { scanning: row?.scanning === 1, scanned: row?.scanned ?? 0, total: row?.total ?? 0 }
}

/** Waits until no scan runs (or is asked for), at most `waitMs`. */
async function waitForScan(db: Db, waitMs: number) {
  if (!isPostgres(db)) {
    if (!state.current) return
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([state.current, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))])
    clearTimeout(timer)
    return
  }
  // Another node may be the one scanning: read the lease until it is let go.
  const until = Date.now() + waitMs
  while (Date.now() < until && (await scanRunning(db))) await Bun.sleep(100)
}

/** Whether the folder at `dirReal` changed (mtime or ctime) at or after the start of the last finished scan. */
async function changedSinceLastScan(db: Db, dirReal: string): Promise<boolean> {
  const at = (await firstRow<{ at: number | string | null }>(db, sql`SELECT max(started_at) AS at FROM library_scans`))?.at
  const st = await stat(dirReal).catch(() => null)
  if (!st) return false
  return at == null || Math.max(st.mtimeMs, st.ctimeMs) >= Number(at)
}

/**
 * A member plays a library folder (`dirReal`, its real path). The index holds it whole only if
 * the last finished scan started after the folder last changed on disk (mtime or ctime: files
 * added, removed or renamed in it, the folder created, moved in or renamed). Otherwise the index
 * may lack it or hold part of it: a scan that walked while files were still being copied in, or
 * one still writing it, here or on another node (docs/decisions/095). Such a folder waits for the
 * running scan, and asks for one (more) when none runs or the one that ran started too early,
 * until a scan that started after the change has finished, at most `waitMs` in all.
 * Members cannot write to MEDIA_ROOT, so only the admin's changes make a folder changed, and the
 * scan that follows makes it current again: a folder saved or played again and again never
 * starts a walk of the library. A member's scan joins a running (or queued) one instead of
 * queueing another, and starts at most once per FOLDER_SCAN_INTERVAL_MS (per node on
 * PostgreSQL): one asked for sooner is held back to the end of the interval (one for all askers).
 * Known gap: media that landed deeper in sub-folders that already existed leaves the folder's own
 * times unchanged; the next admin or scheduled scan finds it.
 */
export async function scanForChangedFolder(db: Db, dirReal: string, waitMs: number) {
  const until = Date.now() + waitMs
  while (!state.stopping && Date.now() < until && (await changedSinceLastScan(db, dirReal))) {
    if (!(await scanRunning(db))) {
      const heldFor = config.RATE_LIMIT ? state.folderScanAt + FOLDER_SCAN_INTERVAL_MS - Date.now() : 0
      if (heldFor > 0) {
        state.folderTimer ??= setTimeout(() => {
          state.folderTimer = null
          void startFolderScan(db)
        }, heldFor)
        state.folderTimer.unref()
        return
      }
      await startFolderScan(db)
    }
    await waitForScan(db, until - Date.now())
  }
}

function startFolderScan(db: Db) {
  state.folderScanAt = Date.now()
  return requestScan(db)
}

export async function scanStatus(db: Db): Promise<ScanStatus> {
  const counts = await firstRow<{ tracks: number; albums: number; artists: number; last: number | null }>(
    db,
    sql`SELECT (SELECT count(*) FROM library_tracks) AS tracks, (SELECT count(*) FROM library_albums) AS albums,
      (SELECT count(*) FROM library_artists) AS artists, (SELECT max(finished_at) FROM library_scans) AS last`,
  )
  const running = isPostgres(db) ? await clusterScan(db) : { scanning: state.current !== null, scanned: state.scanned, total: state.total }
  return {
    ...running,
    tracks: counts?.tracks ?? 0,
    albums: counts?.albums ?? 0,
    artists: counts?.artists ?? 0,
    lastScanAt: counts?.last == null ? null : new Date(counts.last).toISOString(),
  }
}

/** Scans at start-up and every 6 hours (the timer never keeps a stopping server alive). */
export function startLibraryScanner(db: Db) {
  state.stopping = false
  const scheduled = () => requestScan(db, {}, 'schedule').catch((error) => logger.error({ err: error }, 'library scan not asked for'))
  void scheduled()
  state.timer ??= setInterval(scheduled, SCAN_INTERVAL_MS)
  state.timer.unref()
}

/** Stops at the next file boundary (the index stays consistent) and waits for it. */
export async function stopLibraryScanner() {
  state.stopping = true
  if (state.timer) clearInterval(state.timer)
  if (state.folderTimer) clearTimeout(state.folderTimer)
  if (state.leaseTimer) clearTimeout(state.leaseTimer)
  state.timer = null
  state.folderTimer = null
  state.leaseTimer = null
  await state.current
}
