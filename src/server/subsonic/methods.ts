// The OpenSubsonic methods Vibes answers, one table read top to
// bottom as Navidrome's api.go. Each method gets the authenticated member and typed parameters
// and returns a payload (wrapped by response.ts) or, for bytes (stream, download, getCoverArt),
// a Response from the /media handler, so Range, ETag, conversion and the media security
// headers are exactly those of /media.
import type { Db } from '~/db/client'
import { extensionOf } from '~/shared/player/mime'
import { PLAY_QUEUE_LIMITS } from '~/shared/player/play-queue'
import { type LibraryRow, libraryTrackKey } from '../catalog/track'
import { config } from '../config'
import type { ClientInfo } from '../http/client-info'
import { handleMedia, MEDIA_SECURITY_HEADERS } from '../media/handler'
import { avatarOf } from '../services/avatars'
import { signMediaUrl, type MediaKind } from '../media/sign'
import { mp3KbpsFor, mp3Profile, transcodeProfileFor } from '../media/transcode-profile'
import { SCROBBLE_SOURCE } from '~/shared/validators'
import { recordPlays, REPORTED_PLAY_TIME_RULE, reportedPlayTime, setLike, takePlayTokens } from '../services/listening'
import { savePlayQueue, storedPlayQueue } from '../services/play-queue'
import { PLAYBACK_STATES, reportNowPlaying, reportPlayback } from '../services/playback-reports'
import { BOOKMARK_LIMITS, bookmarksOf, deleteBookmark, saveBookmark } from '../services/bookmarks'
import { RATING_MAX, ratingsOf, setRating } from '../services/ratings'
import { requestScan, scanStatus } from '../library/scan'
import { recordAudit } from '../services/audit'
import { appDevice } from './app-device'
import { albumChild, entityDirectory, plainArtist, songsByGenre } from './browse'
import { albumInfo, artistInfo, nowPlaying, similarSongs, topSongs } from './info'
import { classicLyrics, structuredLyrics } from './lyrics'
import type { SubsonicUser } from './auth'
import { RateLimitedError } from '../errors'
import { createPlaylist, deletePlaylist, getPlaylist, getPlaylists, updatePlaylist } from './playlists'
import { BUSY_RETRY_AFTER_SEC, sizedCover } from './cover-size'
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
  genres,
  pathOfMediaUrl,
  randomSongs,
  ROOT_FOLDER_ID,
  search,
  type SearchQuery,
  song,
  songById,
  songsByIds,
  songsByPaths,
  marksOf,
  starredSongs,
} from './library'
import type { Params } from './params'
import { ErrorCode, SubsonicError, type Payload } from './response'
import { RADIO_METHODS } from './radio'
import { SHARE_METHODS } from './shares'
import { channelCoverArt, episodePayload, isChannelId, isEpisodeId, PODCAST_METHODS, scrobbledEpisodes, streamEpisode } from './podcasts'
import { clearProgress, episodesInProgress, saveProgress } from '../services/podcasts'
import { allMembers, memberByUsername, userPayload } from './users'

export type MethodContext = { db: Db; user: SubsonicUser; params: Params; request: Request; client: ClientInfo }
type Method = (ctx: MethodContext) => Payload | Response | Promise<Payload | Response>

export const EXTENSIONS: Payload[] = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'songLyrics', versions: [1, 2] },
  { name: 'indexBasedQueue', versions: [1] },
  { name: 'playbackReport', versions: [1] },
  { name: 'transcodeOffset', versions: [1] },
  { name: 'getPodcastEpisode', versions: [1] },
]

const notFound = (what: string) => new SubsonicError(ErrorCode.notFound, `${what} not found`)
const notAuthorized = (why: string) => new SubsonicError(ErrorCode.notAuthorized, why)
const maxRows = { min: 0, max: 500 }
const offsetRange = { min: 0, max: 10_000_000 }

async function requireSong(ctx: MethodContext, name = 'id'): Promise<LibraryRow> {
  const row = await songById(ctx.db, ctx.params.required(name))
  if (!row) throw notFound('Song')
  return row
}

/**
 * Serves a library file through /media with a fresh signature; the caller's headers (Range…) go
 * along. `startMs`: where a conversion starts (whole milliseconds).
 */
function viaMedia(ctx: MethodContext, relPath: string, kind: MediaKind, startMs = 0): Promise<Response> {
  const url = new URL(signMediaUrl(config.AUTH_SECRET, relPath, kind, undefined, undefined, startMs), ctx.request.url)
  const request = new Request(url, { method: ctx.request.method === 'HEAD' ? 'HEAD' : 'GET', headers: ctx.request.headers, signal: ctx.request.signal })
  return handleMedia(request, url, ctx.user.id)
}

/**
 * What stream sends: the file as it is, or the converter's MP3 / MP4 (decision 031). A
 * maxBitRate below the source picks an MP3 rate of MP3_KBPS (never above the source's); a video
 * keeps its rate unless format=mp3 asks for its sound.
 */
export function streamKind(row: LibraryRow, format: string | undefined, maxBitRate: number): MediaKind {
  if (format === 'raw') return 'file'
  const converted = format === 'mp3' && extensionOf(row.path) !== 'mp3' ? 'mp3' : transcodeProfileFor(row.path)
  if (converted === 'mp4' || (converted === null && row.mime.startsWith('video/'))) return converted ?? 'file'
  const kbps = mp3KbpsFor(maxBitRate, row.bitrate, converted !== null)
  return kbps === null ? (converted ?? 'file') : mp3Profile(kbps)
}

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

  getIndexes: async (ctx) => {
    const folder = ctx.params.int('musicFolderId', { min: 0, max: 1_000_000 })
    if (folder !== undefined && folder !== ROOT_FOLDER_ID) throw notFound('Music folder')
    return { indexes: await folderIndex(ctx.db, await marksOf(ctx.db, ctx.user.id)) }
  },
  getMusicDirectory: async (ctx) => {
    const id = ctx.params.required('id')
    const path = folderPathOf(id)
    const starred = await marksOf(ctx.db, ctx.user.id)
    // A folder, or an album or artist as getAlbumList, search2 and getStarred list them.
    const dir = path === null ? await entityDirectory(ctx.db, id, starred) : await directory(ctx.db, path, starred)
    if (!dir) throw notFound('Directory')
    return { directory: dir }
  },
  getArtists: async (ctx) => {
    const folder = ctx.params.int('musicFolderId', { min: 0, max: 1_000_000 })
    if (folder !== undefined && folder !== ROOT_FOLDER_ID) throw notFound('Music folder')
    return { artists: await artistIndex(ctx.db) }
  },
  getArtist: async (ctx) => {
    const artist = await artistWithAlbums(ctx.db, ctx.params.required('id'), await ratingsOf(ctx.db, ctx.user.id))
    if (!artist) throw notFound('Artist')
    return { artist }
  },
  getAlbum: async (ctx) => {
    const album = await albumWithSongs(ctx.db, ctx.params.required('id'), await marksOf(ctx.db, ctx.user.id))
    if (!album) throw notFound('Album')
    return { album }
  },
  getSong: async (ctx) => ({ song: song(await requireSong(ctx), await marksOf(ctx.db, ctx.user.id)) }),
  getAlbumList2: async (ctx) => ({ albumList2: { album: await albumListOf(ctx) } }),
  getAlbumList: async (ctx) => ({ albumList: { album: (await albumListOf(ctx)).map(albumChild) } }),
  getRandomSongs: async (ctx) => {
    const p = ctx.params
    const years = { min: 0, max: 9999 }
    const query = {
      size: p.int('size', { ...maxRows, fallback: 10 }),
      genre: p.get('genre'),
      fromYear: p.int('fromYear', years),
      toYear: p.int('toYear', years),
    }
    return { randomSongs: { song: await randomSongs(ctx.db, query, await marksOf(ctx.db, ctx.user.id)) } }
  },
  getGenres: async (ctx) => ({ genres: { genre: await genres(ctx.db) } }),
  search3: async (ctx) => ({ searchResult3: await search(ctx.db, searchQueryOf(ctx.params), await marksOf(ctx.db, ctx.user.id)) }),
  search2: async (ctx) => {
    const found = await search(ctx.db, searchQueryOf(ctx.params), await marksOf(ctx.db, ctx.user.id))
    return { searchResult2: { artist: (found.artist as Payload[]).map(plainArtist), album: (found.album as Payload[]).map(albumChild), song: found.song } }
  },
  getSongsByGenre: async (ctx) => {
    const p = ctx.params
    const genre = p.required('genre')
    const count = p.int('count', { ...maxRows, fallback: 10 })
    const songs = await songsByGenre(ctx.db, genre, count, p.int('offset', { ...offsetRange, fallback: 0 }), await marksOf(ctx.db, ctx.user.id))
    return { songsByGenre: { song: songs } }
  },
  getTopSongs: async (ctx) => {
    const count = ctx.params.int('count', { ...maxRows, fallback: 50 })
    const songs = await topSongs(ctx.db, ctx.params.required('artist'), count, await marksOf(ctx.db, ctx.user.id))
    return { topSongs: { song: songs } }
  },
  getSimilarSongs: async (ctx) => ({ similarSongs: { song: await similarOf(ctx) } }),
  getSimilarSongs2: async (ctx) => ({ similarSongs2: { song: await similarOf(ctx) } }),
  getArtistInfo: async (ctx) => ({ artistInfo: await artistInfoOf(ctx, false) }),
  getArtistInfo2: async (ctx) => ({ artistInfo2: await artistInfoOf(ctx, true) }),
  getAlbumInfo: async (ctx) => ({ albumInfo: await albumInfoOf(ctx) }),
  getAlbumInfo2: async (ctx) => ({ albumInfo: await albumInfoOf(ctx) }),
  getNowPlaying: async (ctx) => {
    const starred = await marksOf(ctx.db, ctx.user.id)
    // A member sees only their own plays; an admin sees what every member plays.
    return { nowPlaying: { entry: await nowPlaying(ctx.db, ctx.user.isAdmin ? null : ctx.user.id, starred) } }
  },

  getUser: async (ctx) => {
    const username = ctx.params.required('username')
    if (username !== ctx.user.username && !ctx.user.isAdmin) throw notAuthorized('Only an admin may read another member')
    const member = await memberByUsername(ctx.db, username)
    if (!member) throw notFound('User')
    return { user: userPayload(member) }
  },
  getUsers: async (ctx) => {
    if (!ctx.user.isAdmin) throw notAuthorized('Only an admin may list the members')
    return { users: { user: (await allMembers(ctx.db)).map(userPayload) } }
  },
  // Any member may see any member's picture, as on Navidrome (decision 076); 70 when there is none.
  getAvatar: async (ctx) => {
    const member = await memberByUsername(ctx.db, ctx.params.required('username'))
    if (!member) throw notFound('User')
    const avatar = avatarOf(member.id)
    if (!avatar) throw notFound('Avatar')
    return new Response(avatar.data, {
      headers: {
        ...MEDIA_SECURITY_HEADERS,
        'content-type': 'image/jpeg',
        'cache-control': 'private, max-age=300',
        etag: `"avatar-${avatar.savedAt.toString(16)}"`,
      },
    })
  },
  // The apiKeyAuthentication extension's method: whose key this is.
  tokenInfo: (ctx) => {
    ctx.params.required('apiKey')
    return { tokenInfo: { username: ctx.user.username } }
  },
  getScanStatus: async (ctx) => ({ scanStatus: await scanStatusOf(ctx) }),
  startScan: async (ctx) => {
    if (!ctx.user.isAdmin) throw notAuthorized('Only an admin may start a library scan')
    // The same quick scan as the admin page's button, audited alike.
    await requestScan(ctx.db)
    await recordAudit(ctx.db, ctx.user, 'library.scan', '', 'quick')
    return { scanStatus: await scanStatusOf(ctx) }
  },

  stream: async (ctx) => {
    const id = ctx.params.required('id')
    if (isEpisodeId(id)) return streamEpisode(ctx, id)
    const row = await requireSong(ctx)
    const kind = streamKind(row, ctx.params.get('format'), ctx.params.int('maxBitRate', { min: 0, max: 100_000, fallback: 0 }))
    // transcodeOffset (decision 075): a conversion starts timeOffset seconds in; the file as it
    // is ignores it (the app seeks in it with ranges). Checked either way: bad input is an error.
    const timeOffset = ctx.params.decimal('timeOffset', { min: 0, max: 999_999, fallback: 0 })
    if (timeOffset > 0 && timeOffset >= row.duration)
      throw new SubsonicError(ErrorCode.generic, `Parameter timeOffset must be below the track's duration (${row.duration} s)`)
    const converted = kind !== 'file' && kind !== 'cover'
    return viaMedia(ctx, row.path, kind, converted ? Math.round(timeOffset * 1000) : 0)
  },
  download: async (ctx) => {
    const id = ctx.params.required('id')
    return isEpisodeId(id) ? streamEpisode(ctx, id) : viaMedia(ctx, (await requireSong(ctx)).path, 'file')
  },
  getCoverArt: async (ctx) => {
    const id = ctx.params.required('id')
    const size = ctx.params.int('size', { min: 1, max: 10_000 })
    if (isChannelId(id)) return channelCoverArt(ctx, id, size)
    const cover = await coverPathOf(ctx.db, id)
    if (!cover) throw notFound('Cover art')
    const sized = size === undefined ? null : await sizedCover(cover, size, ctx.request.signal)
    if (sized === 'busy') throw new RateLimitedError(BUSY_RETRY_AFTER_SEC, 'Too many covers are being scaled; try again in a few seconds')
    return sized ?? viaMedia(ctx, cover, 'cover')
  },

  scrobble: async (ctx) => {
    const p = ctx.params
    if (!p.bool('submission', true)) {
      // "Now playing": shown by getNowPlaying, no play recorded.
      const app = appOf(ctx)
      await reportNowPlaying(ctx.db, ctx.user, await requireSong(ctx), app, ctx.client)
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
    const wait = await takePlayTokens(ctx.db, ctx.client, ids.length, now)
    if (wait > 0) throw new RateLimitedError(wait)
    if (ids.some(isEpisodeId)) {
      const app = appOf(ctx)
      const plays = await scrobbledEpisodes(ctx, ids, times)
      await recordPlays(
        ctx.db,
        ctx.user.id,
        plays.map((play) => ({ ...play, app, deviceType: appDevice(app, null) })),
        ctx.client,
      )
      return {}
    }
    const rows = await songsByIds(ctx.db, ids)
    if (rows.length !== ids.length) throw notFound('Song')
    const app = appOf(ctx)
    const deviceType = appDevice(app, null)
    const plays = rows.map(({ path, title, duration, genre, artist, album, year }, i) => ({
      trackUrl: libraryTrackKey(path),
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
    await recordPlays(ctx.db, ctx.user.id, plays, ctx.client)
    return {}
  },

  getLyrics: async (ctx) => ({ lyrics: await classicLyrics(ctx.db, ctx.params.get('artist') || undefined, ctx.params.required('title')) }),
  getLyricsBySongId: async (ctx) => ({ lyricsList: await structuredLyrics(await requireSong(ctx), ctx.params.bool('enhanced', false)) }),

  // The playbackReport extension: an app's play as it goes, recorded as a scrobble's would be.
  reportPlayback: async (ctx) => {
    const p = ctx.params
    const mediaId = p.required('mediaId')
    const podcast = p.oneOf('mediaType', ['song', 'podcast']) === 'podcast'
    if (podcast && !isEpisodeId(mediaId)) throw notFound('Podcast')
    const state = p.oneOf('state', PLAYBACK_STATES)
    const positionMs = p.int('positionMs', { min: 0, max: 7 * 24 * 3600 * 1000 })
    if (positionMs === undefined) p.required('positionMs')
    // An episode's report moves the member's place in it, the one every device resumes from.
    if (podcast) {
      await saveProgress(ctx.db, ctx.user, { episodeId: mediaId, positionMs: positionMs! })
      return {}
    }
    const playbackRate = p.decimal('playbackRate', { min: 0, max: 16, fallback: 1 })
    const ignoreScrobble = p.bool('ignoreScrobble', false)
    const wait = await takePlayTokens(ctx.db, ctx.client, 1)
    if (wait > 0) throw new RateLimitedError(wait)
    const [row] = await songsByIds(ctx.db, [mediaId])
    if (!row) throw notFound('Song')
    const app = appOf(ctx)
    await reportPlayback(
      ctx.db,
      ctx.user,
      { row, state, positionMs: positionMs!, playbackRate, ignoreScrobble, app, deviceType: appDevice(app, null) },
      ctx.client,
    )
    return {}
  },

  star: (ctx) => setStars(ctx, true),
  unstar: (ctx) => setStars(ctx, false),
  // getStarred2's likes in the folder-based shape (likes are per song: no artists, no albums).
  getStarred: async (ctx) => {
    const starred = await marksOf(ctx.db, ctx.user.id)
    return { starred: { artist: [], album: [], song: (await starredSongs(ctx.db, starred)).map((s) => song(s, starred)) } }
  },
  getStarred2: async (ctx) => {
    const starred = await marksOf(ctx.db, ctx.user.id)
    return { starred2: { artist: [], album: [], song: (await starredSongs(ctx.db, starred)).map((s) => song(s, starred)) } }
  },

  // Ratings are the member's own, of a song, album or artist id; 0 clears.
  setRating: async (ctx) => {
    const id = ctx.params.required('id')
    ctx.params.required('rating')
    await setRating(ctx.db, ctx.user.id, id, ctx.params.int('rating', { min: 0, max: RATING_MAX, fallback: 0 }))
    return {}
  },

  // Bookmarks are the member's own: one position per song (a second one moves it).
  getBookmarks: async (ctx) => {
    const marks = await bookmarksOf(ctx.db, ctx.user.id)
    const songs = await songsByIds(
      ctx.db,
      marks.map((m) => m.trackId),
    )
    const rows = new Map(songs.map((r) => [r.id, r]))
    const starred = await marksOf(ctx.db, ctx.user.id)
    // A bookmark of a song no longer in the library is kept (it comes back with the file) but not listed.
    const bookmark = marks.flatMap((m) => {
      const row = rows.get(m.trackId)
      if (!row) return []
      return [
        {
          position: m.positionMs,
          username: ctx.user.username,
          comment: m.comment || undefined,
          created: new Date(m.createdAt).toISOString(),
          changed: new Date(m.updatedAt).toISOString(),
          entry: song(row, starred),
        },
      ]
    })
    // A podcast episode's place is its bookmark too: the one the web player resumes from.
    const episodes = (await episodesInProgress(ctx.db, ctx.user.id)).map((e) => ({
      position: e.positionMs,
      username: ctx.user.username,
      created: new Date(e.updatedAt).toISOString(),
      changed: new Date(e.updatedAt).toISOString(),
      entry: episodePayload(e, e.channel),
    }))
    return { bookmarks: { bookmark: [...bookmark, ...episodes] } }
  },
  createBookmark: async (ctx) => {
    const p = ctx.params
    const id = p.required('id')
    p.required('position')
    const position = p.int('position', { min: 0, max: BOOKMARK_LIMITS.positionMs, fallback: 0 })
    const comment = p.get('comment') ?? ''
    if (comment.length > BOOKMARK_LIMITS.commentChars)
      throw new SubsonicError(ErrorCode.generic, `Parameter comment must be at most ${BOOKMARK_LIMITS.commentChars} characters`)
    if (isEpisodeId(id)) await saveProgress(ctx.db, ctx.user, { episodeId: id, positionMs: position })
    else await saveBookmark(ctx.db, ctx.user.id, id, position, comment)
    return {}
  },
  deleteBookmark: async (ctx) => {
    const id = ctx.params.required('id')
    if (isEpisodeId(id)) await clearProgress(ctx.db, ctx.user, id)
    else await deleteBookmark(ctx.db, ctx.user.id, id)
    return {}
  },

  getPlaylists,
  getPlaylist,
  createPlaylist,
  updatePlaylist,
  deletePlaylist,

  // An empty queue is still a playQueue (the schema requires it), with no entries.
  getPlayQueue: async (ctx) => {
    const queue = await appQueue(ctx)
    return {
      playQueue: {
        current: queue.currentIndex === undefined ? undefined : queue.entries[queue.currentIndex].id,
        position: queue.position,
        ...queue.about,
        entry: queue.entries.map((r) => song(r, queue.starred)),
      },
    }
  },
  savePlayQueue: async (ctx) => {
    const ids = ctx.params.all('id')
    const current = ctx.params.get('current')
    const index = current === undefined ? 0 : ids.indexOf(current)
    if (index < 0) throw new SubsonicError(ErrorCode.generic, 'Parameter current must be one of the ids')
    await saveAppQueue(ctx, ids, index)
    return {}
  },
  // The indexBasedQueue extension: the same queue, its current track by place, so a song queued
  // twice is told apart.
  getPlayQueueByIndex: async (ctx) => {
    const queue = await appQueue(ctx)
    return {
      playQueueByIndex: {
        currentIndex: queue.currentIndex,
        position: queue.position,
        ...queue.about,
        entry: queue.entries.map((r) => song(r, queue.starred)),
      },
    }
  },
  savePlayQueueByIndex: async (ctx) => {
    const ids = ctx.params.all('id')
    const raw = ctx.params.get('currentIndex')
    // No id clears the queue, and then there is no current index to give.
    if (ids.length === 0 && raw !== undefined) throw new SubsonicError(ErrorCode.missingParameter, 'Parameter currentIndex must not be given without an id')
    const index = ids.length === 0 ? 0 : ctx.params.int('currentIndex', { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })
    if (index === undefined) throw new SubsonicError(ErrorCode.missingParameter, 'Required parameter is missing: currentIndex')
    // Out of range is error 10, as the extension requires.
    if (index < 0 || index >= Math.max(ids.length, 1))
      throw new SubsonicError(ErrorCode.missingParameter, `Parameter currentIndex must be between 0 and ${ids.length - 1} (the queue has ${ids.length} tracks)`)
    await saveAppQueue(ctx, ids, index)
    return {}
  },

  ...SHARE_METHODS,
  ...PODCAST_METHODS,
  ...RADIO_METHODS,
}

/**
 * The member's saved queue as an app sees it: library tracks only (a remote URL in the web
 * player's queue has no id an app could play), the current one's place among them (none when the
 * current track is a remote one), and who changed it when (1970 for a queue never saved).
 */
async function appQueue(ctx: MethodContext) {
  // As stored, nothing signed: only the paths are needed to find the songs.
  const queue = (await storedPlayQueue(ctx.db, ctx.user.id)) ?? { tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' }
  const paths = queue.tracks.map((t) => pathOfMediaUrl(t.url))
  const rows = await songsByPaths(
    ctx.db,
    paths.filter((p): p is string => p !== null),
  )
  const kept = paths.map((p) => (p ? rows.get(p) : undefined))
  const entries = kept.filter((r): r is LibraryRow => r !== undefined)
  const currentIndex = kept[queue.index] ? kept.slice(0, queue.index).filter(Boolean).length : undefined
  return {
    entries,
    currentIndex,
    position: Math.round(queue.positionSec * 1000),
    about: { username: ctx.user.username, changed: new Date(queue.updatedAt).toISOString(), changedBy: queue.device },
    starred: await marksOf(ctx.db, ctx.user.id),
  }
}

/** savePlayQueue(ByIndex): the ids in order, the current one's index, `position` in ms. */
async function saveAppQueue(ctx: MethodContext, ids: string[], index: number): Promise<void> {
  const p = ctx.params
  if (ids.length > PLAY_QUEUE_LIMITS.tracks) throw new SubsonicError(ErrorCode.generic, `A queue holds at most ${PLAY_QUEUE_LIMITS.tracks} tracks`)
  const rows = await songsByIds(ctx.db, ids)
  if (rows.length !== ids.length) throw notFound('Song')
  const positionMs = p.int('position', { min: 0, max: 7 * 24 * 3600 * 1000, fallback: 0 })
  // Bare library URLs, as the web player saves them: a read signs them afresh and fills in the
  // tags and ReplayGain from the index.
  const tracks = rows.map((r) => ({ url: libraryTrackKey(r.path), title: r.title, artist: r.artist, album: r.album, duration: r.duration, mime: r.mime }))
  const device = (p.get('c') ?? '').slice(0, 100)
  await savePlayQueue(ctx.db, ctx.user.id, { tracks, index, positionSec: positionMs / 1000, device }, ctx.client.userAgent)
}

/** The app's name as it gives it (OpenSubsonic `c`), or null. */
const appOf = (ctx: MethodContext) => (ctx.params.get('c') ?? '').slice(0, 100) || null

/** star/unstar: the likes of the web player, one per song (albums and artists cannot be liked). */
async function setStars(ctx: MethodContext, liked: boolean): Promise<Payload> {
  const p = ctx.params
  if (p.all('albumId').length > 0 || p.all('artistId').length > 0) {
    throw new SubsonicError(ErrorCode.generic, 'Only songs can be starred: Vibes likes are per song')
  }
  const ids = p.all('id')
  if (ids.length === 0) p.required('id')
  const rows = await songsByIds(ctx.db, ids)
  if (rows.length !== ids.length) throw notFound('Song')
  for (const row of rows) await setLike(ctx.db, ctx.user.id, { title: row.title, liked, trackUrl: libraryTrackKey(row.path) })
  return {}
}

/** The album list getAlbumList and getAlbumList2 share (their type, size, offset and filters). */
function albumListOf(ctx: MethodContext): Promise<Payload[]> {
  const p = ctx.params
  const type = p.oneOf('type', ALBUM_LIST_TYPES)
  const query = { type, size: p.int('size', { ...maxRows, fallback: 10 }), offset: p.int('offset', { ...offsetRange, fallback: 0 }) }
  if (type === 'byYear') {
    const years = { min: 0, max: 9999 }
    return albumList(ctx.db, ctx.user.id, { ...query, fromYear: p.int('fromYear', years), toYear: p.int('toYear', years) })
  }
  if (type === 'byGenre') return albumList(ctx.db, ctx.user.id, { ...query, genre: p.required('genre') })
  return albumList(ctx.db, ctx.user.id, query)
}

/** The paging search2 and search3 share. */
function searchQueryOf(p: Params): SearchQuery {
  return {
    query: p.get('query') ?? '',
    artistCount: p.int('artistCount', { ...maxRows, fallback: 20 }),
    artistOffset: p.int('artistOffset', { ...offsetRange, fallback: 0 }),
    albumCount: p.int('albumCount', { ...maxRows, fallback: 20 }),
    albumOffset: p.int('albumOffset', { ...offsetRange, fallback: 0 }),
    songCount: p.int('songCount', { ...maxRows, fallback: 20 }),
    songOffset: p.int('songOffset', { ...offsetRange, fallback: 0 }),
  }
}

async function similarOf(ctx: MethodContext): Promise<Payload[]> {
  const count = ctx.params.int('count', { ...maxRows, fallback: 50 })
  const songs = await similarSongs(ctx.db, ctx.params.required('id'), count, await marksOf(ctx.db, ctx.user.id))
  if (!songs) throw notFound('Song, album or artist')
  return songs
}

// Image URLs carry the origin the app reached this server by, which it can reach again.
const origin = (ctx: MethodContext) => new URL(ctx.request.url).origin

async function artistInfoOf(ctx: MethodContext, id3: boolean): Promise<Payload> {
  const info = await artistInfo(ctx.db, ctx.params.required('id'), ctx.params.int('count', { min: 0, max: 100, fallback: 20 }), origin(ctx), id3)
  if (!info) throw notFound('Artist')
  return info
}

async function albumInfoOf(ctx: MethodContext): Promise<Payload> {
  const info = await albumInfo(ctx.db, ctx.params.required('id'), origin(ctx))
  if (!info) throw notFound('Album')
  return info
}

async function scanStatusOf(ctx: MethodContext): Promise<Payload> {
  const status = await scanStatus(ctx.db)
  return { scanning: status.scanning, count: status.tracks }
}
