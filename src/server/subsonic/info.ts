// What Vibes knows about a song, album or artist, from its own data only (no internet service):
// a biography, picture and album notes from files beside the music (library/info-files.ts),
// top songs and similar songs from this server's plays (play_events, keyed by the track's
// library URL), similar artists from shared genres, now playing from plays of the last minutes,
// and cover art as signed /media URLs (they carry no credential, so an app may show them in any
// image view). Every query is bounded and walks an index (decision 055).
import { sql } from 'drizzle-orm'
import { type Db, firstRow, rows } from '~/db/engine'
import { listOf } from '~/db/json-list'
import { config } from '../config'
import { LIBRARY_SELECT, type LibraryRow, libraryTrackKey } from '../catalog/track'
import { signMediaUrl } from '../media/sign'
import { liveSessions } from '../services/playback-reports'
import { ALBUM_SELECT, ARTIST_SELECT, type AlbumRow, type ArtistRow } from '../services/library-index'
import { albumNotes, artistFiles } from '../library/info-files'
import { coverPathOf, pathOfMediaUrl, type Marks, song, songsByIds, songsByPaths } from './library'
import type { Payload } from './response'

/** How many of an artist's (or a genre's) tracks are weighed for top and similar songs. */
const CANDIDATES = 2000
/** A play started this many minutes ago or less is "now playing". */
export const NOW_PLAYING_MINUTES = 10

/** Plays on this server of each library path, over every member. */
async function playsOf(db: Db, tracks: Pick<LibraryRow, 'path'>[]): Promise<Map<string, number>> {
  if (tracks.length === 0) return new Map()
  const urls = tracks.map((r) => libraryTrackKey(r.path))
  // An app's play records the bare URL, the web player's may keep its signature (`?exp=…`): both
  // count. One range seek in play_events_track_started_idx per URL (the URL itself up to its
  // '?'-suffixed variants, '@' being the character after '?'), then only those two kinds kept:
  // a second seek per URL for the signed ones cost a quarter more.
  const counts = await rows<{ url: string; n: number }>(
    db,
    sql`SELECT j.value AS url, count(*) AS n FROM (${listOf(db, urls)}) j JOIN play_events p
         ON p.track_url >= j.value AND p.track_url < j.value || '@'
       WHERE p.track_url = j.value OR substr(p.track_url, length(j.value) + 1, 1) = '?' GROUP BY j.value`,
  )
  const byUrl = new Map(counts.map((c) => [c.url, c.n]))
  return new Map(tracks.map((r, i) => [r.path, byUrl.get(urls[i]) ?? 0]))
}

// sort_name is lower(name) (the scanner writes it so): case-insensitive through library_artists_name_idx.
const artistByName = (db: Db, name: string) =>
  firstRow<ArtistRow>(db, sql`${sql.raw(ARTIST_SELECT)} WHERE r.sort_name = lower(${name}) ORDER BY r.name = ${name} DESC LIMIT 1`)

const tracksOfArtist = (db: Db, artistId: string) => rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.artist_id = ${artistId} LIMIT ${CANDIDATES}`)

/** getTopSongs: the artist's tracks most played here first; unplayed ones follow, by album and track. */
export async function topSongs(db: Db, artistName: string, count: number, starred: Marks): Promise<Payload[]> {
  const artist = await artistByName(db, artistName)
  if (!artist || count === 0) return []
  const tracks = await tracksOfArtist(db, artist.id)
  const plays = await playsOf(db, tracks)
  tracks.sort(
    (a, b) =>
      (plays.get(b.path) ?? 0) - (plays.get(a.path) ?? 0) || a.album.localeCompare(b.album) || (a.disc ?? 0) - (b.disc ?? 0) || (a.track ?? 0) - (b.track ?? 0),
  )
  return tracks.slice(0, count).map((r) => song(r, starred))
}

/** A candidate of getSimilarSongs: only what picking needs; the picked songs are read whole after. */
type Candidate = Pick<LibraryRow, 'id' | 'path'>

/** Orders rows at random, a song played n times n+1 times as likely to come early (weighted reservoir keys). */
function weightedShuffle(rows: Candidate[], plays: Map<string, number>): Candidate[] {
  const keyed = rows.map((r) => ({ r, key: Math.random() ** (1 / (1 + (plays.get(r.path) ?? 0))) }))
  return keyed.sort((a, b) => b.key - a.key).map((k) => k.r)
}

/**
 * getSimilarSongs(2): for a song, album or artist id, songs by the same artist first, then songs
 * of the same genre by other artists; within each, at random weighted by this server's plays.
 * The seed song itself is left out. Null when the id is unknown.
 */
export async function similarSongs(db: Db, id: string, count: number, starred: Marks): Promise<Payload[] | null> {
  type Seed = { artistId: string; genre: string | null; songId: string | null }
  // The id as a song, else as an album (one round trip); an artist's genre is read apart.
  const seed =
    (await firstRow<Seed>(
      db,
      sql`SELECT artist_id AS "artistId", genre, id AS "songId" FROM library_tracks WHERE id = ${id}
          UNION ALL SELECT artist_id, genre, NULL FROM library_albums WHERE id = ${id} LIMIT 1`,
    )) ??
    ((await firstRow(db, sql`SELECT id FROM library_artists WHERE id = ${id}`))
      ? { artistId: id, genre: (await artistGenres(db, id))[0] ?? null, songId: null }
      : null)
  if (!seed) return null
  if (count === 0) return []
  const sameArtist = (await rows<Candidate>(db, sql`SELECT id, path FROM library_tracks WHERE artist_id = ${seed.artistId} LIMIT ${CANDIDATES}`)).filter(
    (r) => r.id !== seed.songId,
  )
  const sameGenre =
    seed.genre === null
      ? []
      : await rows<Candidate>(db, sql`SELECT id, path FROM library_tracks WHERE genre = ${seed.genre} AND artist_id <> ${seed.artistId} LIMIT ${CANDIDATES}`)
  const plays = await playsOf(db, [...sameArtist, ...sameGenre])
  const picked = [...weightedShuffle(sameArtist, plays), ...weightedShuffle(sameGenre, plays)].slice(0, count)
  const songs = await songsByIds(
    db,
    picked.map((r) => r.id),
  )
  return songs.map((r) => song(r, starred))
}

/** The genres of an artist's albums, most albums first. */
async function artistGenres(db: Db, artistId: string): Promise<string[]> {
  const found = await rows<{ genre: string }>(
    db,
    sql`SELECT genre FROM library_albums WHERE artist_id = ${artistId} AND genre IS NOT NULL GROUP BY genre ORDER BY count(*) DESC, genre LIMIT 5`,
  )
  return found.map((g) => g.genre)
}

/** Absolute, signed /media cover URL of a library image (no credential in it), or undefined. */
const signedCover = (cover: string | null, origin: string) => (cover ? new URL(signMediaUrl(config.AUTH_SECRET, cover, 'cover'), origin).href : undefined)
const coverUrl = async (db: Db, id: string, origin: string) => signedCover(await coverPathOf(db, id), origin)

const imageUrls = (url: string | undefined) => ({ smallImageUrl: url, mediumImageUrl: url, largeImageUrl: url })

/**
 * getArtistInfo(2): the biography from artist.txt (Vibes asks no internet service), the artist's
 * picture (artist.jpg…, else its cover), and as
 * similar artists those with an album in one of the artist's genres. `id3` gives the
 * ArtistID3 shape (getArtistInfo2), else the folder-based Artist. Null when the id is unknown.
 */
export async function artistInfo(db: Db, id: string, count: number, origin: string, id3: boolean): Promise<Payload | null> {
  const artist = await firstRow<ArtistRow>(db, sql`${sql.raw(ARTIST_SELECT)} WHERE r.id = ${id}`)
  if (!artist) return null
  const genres = await artistGenres(db, id)
  const similar =
    genres.length === 0 || count === 0
      ? []
      : await rows<ArtistRow>(
          db,
          sql`${sql.raw(ARTIST_SELECT)} WHERE r.id IN (SELECT artist_id FROM library_albums WHERE genre IN (${listOf(db, genres)}) AND artist_id <> ${id})
             ORDER BY r.sort_name LIMIT ${count}`,
        )
  const files = await artistFiles(db, id)
  return {
    biography: files.biography ?? '',
    ...imageUrls(signedCover(files.imagePath ?? artist.coverPath, origin)),
    similarArtist: similar.map((r) =>
      id3 ? { id: r.id, name: r.name, coverArt: r.coverPath ? r.id : undefined, albumCount: r.albumCount } : { id: r.id, name: r.name },
    ),
  }
}

/** getAlbumInfo(2) for an album id (or a song's album): notes from album.txt / notes.txt, the album's cover. Null when unknown. */
export async function albumInfo(db: Db, id: string, origin: string): Promise<Payload | null> {
  const albums = sql.raw(ALBUM_SELECT)
  const album =
    (await firstRow<AlbumRow>(db, sql`${albums} WHERE a.id = ${id}`)) ??
    (await firstRow<AlbumRow>(db, sql`${albums} WHERE a.id = (SELECT album_id FROM library_tracks WHERE id = ${id})`))
  if (!album) return null
  return { notes: (await albumNotes(db, album.id)) ?? '', ...imageUrls(await coverUrl(db, album.id, origin)) }
}

/**
 * getNowPlaying: each member's latest play of a library track started in the last
 * NOW_PLAYING_MINUTES, or what an app reported since (reportPlayback, or a scrobble with
 * submission=false), whichever is newer; a reported stop newer than the play hides it. `userId`
 * narrows it to one member (a member sees only their own; an admin everyone's).
 */
export async function nowPlaying(db: Db, userId: string | null, starred: Marks, now = Date.now()): Promise<Payload[]> {
  const since = now - NOW_PLAYING_MINUTES * 60_000
  // play_events_started_at_idx (or play_events_user_started_idx for one member); bounded.
  const plays = await rows<{ userId: string; username: string; url: string; client: string | null; at: number }>(
    db,
    sql`SELECT p.user_id AS "userId", u.username, p.track_url AS url, p.client, p.started_at AS at FROM play_events p JOIN users u ON u.id = p.user_id
        WHERE p.started_at >= ${since} ${userId === null ? sql`` : sql`AND p.user_id = ${userId}`} ORDER BY p.started_at DESC LIMIT 200`,
  )
  type Entry = { username: string; path: string; client: string | null; startedAt: number; at: number }
  const latest = new Map<string, Entry | null>()
  for (const play of plays) {
    const path = pathOfMediaUrl(play.url)
    if (path !== null && !latest.has(play.userId))
      latest.set(play.userId, { username: play.username, path, client: play.client, startedAt: play.at, at: play.at })
  }
  for (const s of await liveSessions(db, userId, now)) {
    const play = latest.get(s.userId)
    if (play && play.at > s.at) continue
    latest.set(s.userId, s.stopped ? null : { username: s.username, path: s.path, client: s.app, startedAt: s.startedAt, at: s.at })
  }
  const entries = [...latest.values()].filter((e): e is Entry => e !== null)
  const songs = await songsByPaths(
    db,
    entries.map((p) => p.path),
  )
  return entries.flatMap((p) => {
    const row = songs.get(p.path)
    if (!row) return []
    return [
      {
        ...song(row, starred),
        username: p.username,
        minutesAgo: Math.max(0, Math.floor((now - p.startedAt) / 60_000)),
        playerId: 0,
        playerName: p.client ?? undefined,
      },
    ]
  })
}
