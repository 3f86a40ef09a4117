// The index of the server music library (MEDIA_ROOT), written only by the scanner
// (src/server/library/scan.ts) and read by the library API and, later, OpenSubsonic. Shaped after
// Navidrome's model: tracks carry their album/artist ids, albums/artists/genres/folders are
// aggregates the scanner keeps up to date, so getArtists/getAlbum/search3-style reads are one
// indexed query each. Public ids are hashes of what identifies the thing (a track's path, an
// album's artist + name), so they survive rescans, a wiped index and a drive that was missing
// for one scan. `seq` is the integer rowid the FTS5 tables (migration 0004 custom SQL) point at.
import { sql } from 'drizzle-orm'
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const libraryTracks = sqliteTable(
  'library_tracks',
  {
    seq: integer().primaryKey(),
    id: text().notNull().unique(),
    /** Path inside MEDIA_ROOT without a leading slash ('jazz/Ada/01 First.mp3'). */
    path: text().notNull().unique(),
    /** The folder holding the file ('' for MEDIA_ROOT itself). */
    folder: text().notNull(),
    title: text().notNull(),
    /** The artist tag ('' when untagged, as the player's Track has it). */
    artist: text().notNull(),
    artistId: text().notNull(),
    albumArtist: text().notNull(),
    albumArtistId: text().notNull(),
    album: text().notNull(),
    albumId: text().notNull(),
    genre: text(),
    trackNo: integer(),
    discNo: integer(),
    year: integer(),
    /** Seconds (0 when unknown). */
    duration: real().notNull(),
    /** kbit/s. */
    bitrate: integer(),
    /** The container as music-metadata names it ('MPEG', 'FLAC', 'WAVE'…). */
    format: text(),
    /** What /media will send (the extension → MIME map). */
    mime: text().notNull(),
    rgTrackGain: real(),
    rgTrackPeak: real(),
    rgAlbumGain: real(),
    rgAlbumPeak: real(),
    size: integer().notNull(),
    mtimeMs: integer().notNull(),
    /** Whether the file holds a real image as embedded art. */
    embeddedCover: integer({ mode: 'boolean' }).notNull(),
    /** The library path whose art is this track's cover: the file itself, or an image beside it. */
    coverPath: text(),
    addedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('library_tracks_folder_idx').on(t.folder, t.path),
    // Whether a folder holds a track with a cover (getMusicDirectory's coverArt for each sub-folder,
    // thousands at the root of a large library): one seek in a narrow index per folder.
    index('library_tracks_folder_cover_idx').on(t.folder).where(sql`${t.coverPath} IS NOT NULL`),
    index('library_tracks_album_idx').on(t.albumId, t.discNo, t.trackNo, t.path),
    index('library_tracks_artist_idx').on(t.artistId),
    index('library_tracks_album_artist_idx').on(t.albumArtistId),
    // With the album: a genre's song and album counts (the scanner's recount) read the index alone.
    index('library_tracks_genre_idx').on(t.genre, t.albumId),
    index('library_tracks_title_idx').on(sql`${t.title} COLLATE NOCASE`),
    index('library_tracks_added_idx').on(t.addedAt),
    // OpenSubsonic getRandomSongs with fromYear/toYear.
    index('library_tracks_year_idx').on(t.year),
  ],
)

export const libraryAlbums = sqliteTable(
  'library_albums',
  {
    seq: integer().primaryKey(),
    id: text().notNull().unique(),
    name: text().notNull(),
    /** lower(name): the name sort's key. */
    sortName: text().notNull(),
    artist: text().notNull(),
    artistId: text().notNull(),
    year: integer(),
    genre: text(),
    songCount: integer().notNull(),
    duration: real().notNull(),
    coverPath: text(),
    addedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('library_albums_name_idx').on(t.sortName, t.id),
    index('library_albums_year_idx').on(sql`${t.year} DESC`, t.sortName),
    index('library_albums_added_idx').on(t.addedAt),
    index('library_albums_artist_idx').on(t.artistId, t.year),
    index('library_albums_genre_idx').on(t.genre, t.sortName),
    // OpenSubsonic getAlbumList2: byYear with an ascending range, alphabeticalByArtist.
    index('library_albums_year_asc_idx').on(t.year, t.sortName),
    index('library_albums_artist_sort_idx').on(sql`lower(${t.artist})`, t.sortName, t.id),
  ],
)

export const libraryArtists = sqliteTable(
  'library_artists',
  {
    seq: integer().primaryKey(),
    id: text().notNull().unique(),
    name: text().notNull(),
    sortName: text().notNull(),
    /** Albums with this album artist. */
    albumCount: integer().notNull(),
    /** Tracks with this track artist. */
    songCount: integer().notNull(),
    coverPath: text(),
  },
  (t) => [index('library_artists_name_idx').on(t.sortName, t.id)],
)

export const libraryGenres = sqliteTable('library_genres', {
  name: text().primaryKey(),
  songCount: integer().notNull(),
  albumCount: integer().notNull(),
})

/** Every folder that holds media (directly or below), MEDIA_ROOT itself as ''. */
export const libraryFolders = sqliteTable(
  'library_folders',
  {
    path: text().primaryKey(),
    parent: text(),
    name: text().notNull(),
    /** A cover/folder/front image in this folder, as a library path. */
    coverPath: text(),
  },
  // path and cover_path in it: a level of the folder tree (5,000 artist folders at the root of a
  // large library) is read from the index alone, with no lookup of each row.
  (t) => [index('library_folders_parent_idx').on(t.parent, t.name, t.path, t.coverPath)],
)

/** One row per finished scan: when, what it did (lastScanAt is the newest). */
export const libraryScans = sqliteTable('library_scans', {
  id: integer().primaryKey({ autoIncrement: true }),
  startedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  finishedAt: integer({ mode: 'timestamp_ms' }).notNull(),
  full: integer({ mode: 'boolean' }).notNull(),
  files: integer().notNull(),
  read: integer().notNull(),
  removed: integer().notNull(),
})

/**
 * The one library scanner of a PostgreSQL deployment (docs/decisions/088): the node holding the
 * lease scans, renews `expiresAt` as it goes and writes its progress here, so every node reports
 * the running scan. `asked`: a scan was asked for and has not started yet (full if `askedFull`).
 * SQLite (one process) keeps this in memory and leaves the table empty.
 */
export const libraryScanLease = sqliteTable('library_scan_lease', {
  name: text().primaryKey(),
  /** The node scanning now (hostname:pid:random), or null. */
  holder: text(),
  /** When the holder's lease ends unless renewed (ms since the epoch). */
  expiresAt: integer().notNull(),
  asked: integer({ mode: 'boolean' }).notNull(),
  askedFull: integer({ mode: 'boolean' }).notNull(),
  scanned: integer().notNull(),
  total: integer().notNull(),
})
