// The OpenSubsonic methods Vibes answers (CONTRACT §6 "OpenSubsonic"), one table read top to
// bottom as Navidrome's api.go. Each method gets the authenticated member and typed parameters
// and returns a payload (wrapped by response.ts) or, for bytes (stream, download, getCoverArt),
// a Response from the /media handler, so Range, ETag, conversion and the media security
// headers are exactly those of /media.
import type { Db } from '~/db/client'
import { extensionOf } from '~/shared/player/mime'
import { PLAY_QUEUE_LIMITS } from '~/shared/player/play-queue'
import { config } from '../config'
import type { ClientInfo } from '../http/client-info'
import { handleMedia } from '../media/handler'
import { signMediaUrl, type MediaKind } from '../media/sign'
import { mp3KbpsFor, mp3Profile, transcodeProfileFor } from '../media/transcode-profile'
import { isRemotePath, SCROBBLE_SOURCE } from '~/shared/validators'
import { listFolders } from '../services/folders'
import { recordPlays, REPORTED_PLAY_TIME_RULE, reportedPlayTime, setLike, takePlayTokens } from '../services/listening'
import { getPlayQueue, savePlayQueue } from '../services/play-queue'
import { appDevice } from './app-device'
import { rateLimited, type SubsonicUser } from './auth'
import { sizedCover } from './cover-size'
import {
  ALBUM_LIST_TYPES,
  albumList,
  albumWithSongs,
  artistIndex,
  artistWithAlbums,
  coverPathOf,
  directory,
  folderIndex,
  folderPathOf,
  folderTotals,
  genres,
  libraryTrackUrl,
  pathOfMediaUrl,
  randomSongs,
  ROOT_FOLDER_ID,
  search,
  song,
  songById,
  songsByIds,
  songsByPaths,
  songsUnder,
  starredOf,
  starredSongs,
  type SongRow,
} from './library'
import type { Params } from './params'
import { ErrorCode, SubsonicError, type Payload } from './response'

export type MethodContext = { db: Db; user: SubsonicUser; params: Params; request: Request; client: ClientInfo }
type Method = (ctx: MethodContext) => Payload | Response | Promise<Payload | Response>

export const EXTENSIONS: Payload[] = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
]

const notFound = (what: string) => new SubsonicError(ErrorCode.notFound, `${what} not found`)
const maxRows = { min: 0, max: 500 }
const offsetRange = { min: 0, max: 10_000_000 }

function requireSong(ctx: MethodContext, name = 'id'): SongRow {
  const row = songById(ctx.db, ctx.params.required(name))
  if (!row) throw notFound('Song')
  return row
}

/** Serves a library file through /media with a fresh signature; the caller's headers (Range…) go along. */
function viaMedia(ctx: MethodContext, relPath: string, kind: MediaKind): Promise<Response> {
  const url = new URL(signMediaUrl(config.AUTH_SECRET, relPath, kind), ctx.request.url)
  return handleMedia(new Request(url, { method: ctx.request.method === 'HEAD' ? 'HEAD' : 'GET', headers: ctx.request.headers }))
}

/**
 * What stream sends: the file as it is, or the converter's MP3 / MP4 (decision 031). A
 * maxBitRate below the source picks an MP3 rate of MP3_KBPS (never above the source's); a video
 * keeps its rate unless format=mp3 asks for its sound.
 */
export function streamKind(row: SongRow, format: string | undefined, maxBitRate: number): MediaKind {
  if (format === 'raw') return 'file'
  const converted = format === 'mp3' && extensionOf(row.path) !== 'mp3' ? 'mp3' : transcodeProfileFor(row.path)
  if (converted === 'mp4' || (converted === null && row.mime.startsWith('video/'))) return converted ?? 'file'
  const kbps = mp3KbpsFor(maxBitRate, row.bitrate, converted !== null)
  return kbps === null ? (converted ?? 'file') : mp3Profile(kbps)
}

function playlistOf(ctx: MethodContext, id: string) {
  const folder = listFolders(ctx.db, ctx.user.id).find((f) => f.id === id && !isRemotePath(f.path))
  if (!folder) throw notFound('Playlist')
  return folder
}

/** A member folder as a playlist: library folders only (an app cannot stream a remote URL through /rest). */
function playlist(
  ctx: MethodContext,
  folder: { id: string; label: string; path: string; createdAt: string },
  totals: { songCount: number; duration: number },
): Payload {
  return {
    id: folder.id,
    name: folder.label,
    comment: folder.path,
    owner: ctx.user.username,
    public: false,
    ...totals,
    created: folder.createdAt,
    changed: folder.createdAt,
  }
}

const folderRel = (path: string) => path.replace(/^\/+|\/+$/g, '')

/**
 * Methods anyone may call, credentials or not: the OpenSubsonic spec requires
 * getOpenSubsonicExtensions to be public, so that an app can learn (apiKeyAuthentication) how to
 * log in before it asks its user for anything.
 */
export const PUBLIC_METHODS: Record<string, () => Payload> = {
  getOpenSubsonicExtensions: () => ({ openSubsonicExtensions: EXTENSIONS }),
}

export const METHODS: Record<string, Method> = {
  ping: () => ({}),
  getLicense: () => ({ license: { valid: true, email: '', licenseExpires: undefined } }),
  getMusicFolders: () => ({ musicFolders: { musicFolder: [{ id: ROOT_FOLDER_ID, name: 'Music' }] } }),

  getIndexes: (ctx) => {
    const folder = ctx.params.int('musicFolderId', { min: 0, max: 1_000_000 })
    if (folder !== undefined && folder !== ROOT_FOLDER_ID) throw notFound('Music folder')
    return { indexes: folderIndex(ctx.db, starredOf(ctx.db, ctx.user.id)) }
  },
  getMusicDirectory: (ctx) => {
    const id = ctx.params.required('id')
    const path = id === String(ROOT_FOLDER_ID) ? '' : folderPathOf(id)
    const dir = path === null ? null : directory(ctx.db, path, starredOf(ctx.db, ctx.user.id))
    if (!dir) throw notFound('Directory')
    return { directory: dir }
  },
  getArtists: (ctx) => {
    const folder = ctx.params.int('musicFolderId', { min: 0, max: 1_000_000 })
    if (folder !== undefined && folder !== ROOT_FOLDER_ID) throw notFound('Music folder')
    return { artists: artistIndex(ctx.db) }
  },
  getArtist: (ctx) => {
    const artist = artistWithAlbums(ctx.db, ctx.params.required('id'))
    if (!artist) throw notFound('Artist')
    return { artist }
  },
  getAlbum: (ctx) => {
    const album = albumWithSongs(ctx.db, ctx.params.required('id'), starredOf(ctx.db, ctx.user.id))
    if (!album) throw notFound('Album')
    return { album }
  },
  getSong: (ctx) => ({ song: song(requireSong(ctx), starredOf(ctx.db, ctx.user.id)) }),
  getAlbumList2: (ctx) => {
    const p = ctx.params
    const type = p.oneOf('type', ALBUM_LIST_TYPES)
    const query = { type, size: p.int('size', { ...maxRows, fallback: 10 }), offset: p.int('offset', { ...offsetRange, fallback: 0 }) }
    if (type === 'byYear') {
      const years = { min: 0, max: 9999 }
      return { albumList2: { album: albumList(ctx.db, ctx.user.id, { ...query, fromYear: p.int('fromYear', years), toYear: p.int('toYear', years) }) } }
    }
    if (type === 'byGenre') return { albumList2: { album: albumList(ctx.db, ctx.user.id, { ...query, genre: p.required('genre') }) } }
    return { albumList2: { album: albumList(ctx.db, ctx.user.id, query) } }
  },
  getRandomSongs: (ctx) => {
    const p = ctx.params
    const years = { min: 0, max: 9999 }
    const query = {
      size: p.int('size', { ...maxRows, fallback: 10 }),
      genre: p.get('genre'),
      fromYear: p.int('fromYear', years),
      toYear: p.int('toYear', years),
    }
    return { randomSongs: { song: randomSongs(ctx.db, query, starredOf(ctx.db, ctx.user.id)) } }
  },
  getGenres: (ctx) => ({ genres: { genre: genres(ctx.db) } }),
  search3: (ctx) => {
    const p = ctx.params
    const query = {
      query: p.get('query') ?? '',
      artistCount: p.int('artistCount', { ...maxRows, fallback: 20 }),
      artistOffset: p.int('artistOffset', { ...offsetRange, fallback: 0 }),
      albumCount: p.int('albumCount', { ...maxRows, fallback: 20 }),
      albumOffset: p.int('albumOffset', { ...offsetRange, fallback: 0 }),
      songCount: p.int('songCount', { ...maxRows, fallback: 20 }),
      songOffset: p.int('songOffset', { ...offsetRange, fallback: 0 }),
    }
    return { searchResult3: search(ctx.db, query, starredOf(ctx.db, ctx.user.id)) }
  },

  stream: (ctx) => {
    const row = requireSong(ctx)
    const kind = streamKind(row, ctx.params.get('format'), ctx.params.int('maxBitRate', { min: 0, max: 100_000, fallback: 0 }))
    return viaMedia(ctx, row.path, kind)
  },
  download: (ctx) => viaMedia(ctx, requireSong(ctx).path, 'file'),
  getCoverArt: async (ctx) => {
    const id = ctx.params.required('id')
    const size = ctx.params.int('size', { min: 1, max: 10_000 })
    const cover = coverPathOf(ctx.db, id === String(ROOT_FOLDER_ID) ? '' : id)
    if (!cover) throw notFound('Cover art')
    return (size !== undefined && (await sizedCover(cover, size))) || viaMedia(ctx, cover, 'cover')
  },

  scrobble: (ctx) => {
    const p = ctx.params
    if (!p.bool('submission', true)) {
      requireSong(ctx)
      return {}
    }
    const ids = p.all('id')
    if (ids.length === 0) p.required('id')
    const sentTimes = p.ints('time', { min: 0, max: 8_640_000_000_000 })
    const now = Date.now()
    // An app's queued scrobbles carry their own time; one it cannot have played at is refused.
    const times = ids.map((_, i) => {
      const at = reportedPlayTime(sentTimes[i] ?? now, now)
      if (!at) throw new SubsonicError(ErrorCode.generic, `Parameter time ${REPORTED_PLAY_TIME_RULE}`)
      return at
    })
    // Each play counts against the web player's play-event limit, before the lookup.
    const wait = takePlayTokens(ctx.client, ids.length, now)
    if (wait > 0) throw rateLimited(wait)
    const rows = songsByIds(ctx.db, ids)
    if (rows.length !== ids.length) throw notFound('Song')
    const app = (p.get('c') ?? '').slice(0, 100) || null
    const deviceType = appDevice(app, null)
    const plays = rows.map(({ path, title, duration, genre, artist, album, year }, i) => ({
      trackUrl: libraryTrackUrl(path),
      title,
      duration,
      genre,
      artist,
      album,
      year,
      source: SCROBBLE_SOURCE,
      app,
      deviceType,
      finishedAt: times[i],
    }))
    recordPlays(ctx.db, ctx.user.id, plays, ctx.client)
    return {}
  },

  star: (ctx) => setStars(ctx, true),
  unstar: (ctx) => setStars(ctx, false),
  getStarred2: (ctx) => {
    const starred = starredOf(ctx.db, ctx.user.id)
    return { starred2: { artist: [], album: [], song: starredSongs(ctx.db, starred).map((s) => song(s, starred)) } }
  },

  getPlaylists: (ctx) => {
    const username = ctx.params.get('username')
    if (username !== undefined && username !== ctx.user.username) throw new SubsonicError(ErrorCode.notAuthorized, 'Only your own playlists can be listed')
    const folders = listFolders(ctx.db, ctx.user.id).filter((f) => !isRemotePath(f.path))
    return { playlists: { playlist: folders.map((f) => playlist(ctx, f, folderTotals(ctx.db, folderRel(f.path)))) } }
  },
  getPlaylist: (ctx) => {
    const folder = playlistOf(ctx, ctx.params.required('id'))
    const songs = songsUnder(ctx.db, folderRel(folder.path))
    const starred = starredOf(ctx.db, ctx.user.id)
    const totals = { songCount: songs.length, duration: Math.round(songs.reduce((sum, s) => sum + s.duration, 0)) }
    return { playlist: { ...playlist(ctx, folder, totals), entry: songs.map((s) => song(s, starred)) } }
  },

  getPlayQueue: (ctx) => {
    const queue = getPlayQueue(ctx.db, ctx.user.id, config.AUTH_SECRET)
    if (queue.tracks.length === 0) return {}
    // Library tracks only: a remote URL in the web player's queue has no id an app could play.
    const paths = queue.tracks.map((t) => pathOfMediaUrl(t.url))
    const rows = songsByPaths(
      ctx.db,
      paths.filter((p): p is string => p !== null),
    )
    const starred = starredOf(ctx.db, ctx.user.id)
    const current = paths[queue.index] ? rows.get(paths[queue.index]!)?.id : undefined
    return {
      playQueue: {
        current,
        position: Math.round(queue.positionSec * 1000),
        username: ctx.user.username,
        changed: new Date(queue.updatedAt).toISOString(),
        changedBy: queue.device,
        entry: paths.flatMap((p) => (p && rows.has(p) ? [song(rows.get(p)!, starred)] : [])),
      },
    }
  },
  savePlayQueue: (ctx) => {
    const p = ctx.params
    const ids = p.all('id')
    if (ids.length > PLAY_QUEUE_LIMITS.tracks) throw new SubsonicError(ErrorCode.generic, `A queue holds at most ${PLAY_QUEUE_LIMITS.tracks} tracks`)
    const rows = songsByIds(ctx.db, ids)
    if (rows.length !== ids.length) throw notFound('Song')
    const current = p.get('current')
    const index = current === undefined ? 0 : ids.indexOf(current)
    if (index < 0) throw new SubsonicError(ErrorCode.generic, 'Parameter current must be one of the ids')
    const positionMs = p.int('position', { min: 0, max: 7 * 24 * 3600 * 1000, fallback: 0 })
    // Bare library URLs, as the web player saves them: a read signs them afresh and fills in the
    // tags and ReplayGain from the index.
    const tracks = rows.map((r) => ({ url: libraryTrackUrl(r.path), title: r.title, artist: r.artist, album: r.album, duration: r.duration, mime: r.mime }))
    const device = (p.get('c') ?? '').slice(0, 100)
    savePlayQueue(ctx.db, ctx.user.id, { tracks, index, positionSec: positionMs / 1000, device }, ctx.client.userAgent)
    return {}
  },
}

/** star/unstar: the likes of the web player, one per song (albums and artists cannot be liked). */
function setStars(ctx: MethodContext, liked: boolean): Payload {
  const p = ctx.params
  if (p.all('albumId').length > 0 || p.all('artistId').length > 0) {
    throw new SubsonicError(ErrorCode.generic, 'Only songs can be starred: Vibes likes are per song')
  }
  const ids = p.all('id')
  if (ids.length === 0) p.required('id')
  const rows = songsByIds(ctx.db, ids)
  if (rows.length !== ids.length) throw notFound('Song')
  for (const row of rows) setLike(ctx.db, ctx.user.id, { title: row.title, liked, trackUrl: libraryTrackUrl(row.path) })
  return {}
}
