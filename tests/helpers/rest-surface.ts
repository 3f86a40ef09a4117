// The OpenSubsonic surface (/rest/<method>) as data, read from the handler's own tables: every
// method it answers (methods.ts), the public ones, and the names it knows but does not implement.
// The authorization matrix and the hostile sweep iterate over this, so a method is covered the day
// it lands in the table. A valid sample per method (below) lets the calls reach their checks; a
// method without one is called with no parameters of its own, and still swept.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { childOf, parseXml } from './xml'

export async function loadRestMethods() {
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-surface-'))
  const [{ METHODS, PUBLIC_METHODS }, { NOT_IMPLEMENTED }] = await Promise.all([
    import('~/server/subsonic/methods'),
    import('~/server/subsonic/not-implemented'),
  ])
  const implemented = Object.keys(METHODS)
  const publicMethods = Object.keys(PUBLIC_METHODS)
  const notImplemented = [...NOT_IMPLEMENTED].filter((m) => !implemented.includes(m))
  return { implemented, publicMethods, notImplemented, all: [...publicMethods, ...implemented, ...notImplemented] }
}

/** Methods only an admin may call: a member gets error 50. */
export const REST_ADMIN_ONLY = ['getUsers', 'startScan', 'createInternetRadioStation', 'updateInternetRadioStation', 'deleteInternetRadioStation']

/** What one caller's samples point at: library things everyone shares, and the caller's own. */
export type RestIds = {
  songId: string
  albumId: string
  artistId: string
  artistName: string
  genre: string
  username: string
  /** One of the caller's playlists (kept). */
  playlistId: string
  /** A playlist of the caller's that a sample may delete. */
  scratchPlaylistId: string
  /** One of the caller's library folders (a read-only playlist over /rest). */
  folderId: string
}

export type RestParams = Record<string, string | string[]>

/** A valid request per method, for the caller whose things `ids` names. */
export const REST_SAMPLES: Record<string, (ids: RestIds) => RestParams> = {
  getIndexes: () => ({ musicFolderId: '1' }),
  getMusicDirectory: (ids) => ({ id: ids.albumId }),
  getArtists: () => ({ musicFolderId: '1' }),
  getArtist: (ids) => ({ id: ids.artistId }),
  getAlbum: (ids) => ({ id: ids.albumId }),
  getSong: (ids) => ({ id: ids.songId }),
  getAlbumList2: () => ({ type: 'random', size: '5' }),
  getAlbumList: () => ({ type: 'newest', size: '5' }),
  getRandomSongs: () => ({ size: '5' }),
  search3: () => ({ query: '' }),
  search2: () => ({ query: 'a' }),
  getSongsByGenre: (ids) => ({ genre: ids.genre }),
  getTopSongs: (ids) => ({ artist: ids.artistName }),
  getSimilarSongs: (ids) => ({ id: ids.songId }),
  getSimilarSongs2: (ids) => ({ id: ids.artistId }),
  getArtistInfo: (ids) => ({ id: ids.artistId }),
  getArtistInfo2: (ids) => ({ id: ids.artistId }),
  getAlbumInfo: (ids) => ({ id: ids.albumId }),
  getAlbumInfo2: (ids) => ({ id: ids.albumId }),
  getUser: (ids) => ({ username: ids.username }),
  getAvatar: (ids) => ({ username: ids.username }),
  stream: (ids) => ({ id: ids.songId }),
  download: (ids) => ({ id: ids.songId }),
  getCoverArt: (ids) => ({ id: ids.albumId }),
  scrobble: (ids) => ({ id: ids.songId, submission: 'false' }),
  star: (ids) => ({ id: ids.songId }),
  unstar: (ids) => ({ id: ids.songId }),
  getPlaylists: () => ({}),
  getPlaylist: (ids) => ({ id: ids.playlistId }),
  createPlaylist: () => ({ name: 'Rest sample playlist' }),
  updatePlaylist: (ids) => ({ playlistId: ids.playlistId, comment: 'sampled' }),
  deletePlaylist: (ids) => ({ id: ids.scratchPlaylistId }),
  savePlayQueue: (ids) => ({ id: ids.songId, current: ids.songId, position: '1000' }),
  savePlayQueueByIndex: (ids) => ({ id: ids.songId, currentIndex: '0', position: '1000' }),
  getLyrics: (ids) => ({ artist: ids.artistName, title: 'Sample title' }),
  getLyricsBySongId: (ids) => ({ id: ids.songId }),
  setRating: (ids) => ({ id: ids.songId, rating: '3' }),
  createBookmark: (ids) => ({ id: ids.songId, position: '1000', comment: 'sampled' }),
  deleteBookmark: (ids) => ({ id: ids.songId }),
  createShare: (ids) => ({ id: ids.songId, description: 'sampled' }),
  // Not a share id: the owner reaches the lookup (70), and no real link is changed or revoked.
  updateShare: (ids) => ({ id: ids.songId, description: 'sampled' }),
  deleteShare: (ids) => ({ id: ids.songId }),
  // A public address literal: saved without a name lookup, never contacted by saving it.
  createInternetRadioStation: () => ({ name: 'Sample FM', streamUrl: 'http://93.184.215.14/stream', homepageUrl: 'http://93.184.215.14/' }),
  // Not a station id: an admin reaches the lookup (70), and no station is changed or deleted.
  updateInternetRadioStation: (ids) => ({ id: ids.songId, name: 'Sample FM', streamUrl: 'http://93.184.215.14/stream' }),
  deleteInternetRadioStation: (ids) => ({ id: ids.songId }),
  reportPlayback: (ids) => ({ mediaId: ids.songId, mediaType: 'song', positionMs: '0', state: 'playing', ignoreScrobble: 'true' }),
  // No podcast is followed in the sweep: ids that look right reach the lookup (70); a feed on
  // loopback is refused by the address policy (0), so nothing is fetched.
  getPodcastEpisode: () => ({ id: 'pe-0123456789abcdef' }),
  createPodcastChannel: () => ({ url: 'http://127.0.0.1:9/feed.xml' }),
  deletePodcastChannel: () => ({ id: 'pc-0123456789abcdef' }),
  downloadPodcastEpisode: () => ({ id: 'pe-0123456789abcdef' }),
  deletePodcastEpisode: () => ({ id: 'pe-0123456789abcdef' }),
}

export const restSample = (method: string, ids: RestIds): RestParams => REST_SAMPLES[method]?.(ids) ?? {}

export type RestAnswer = { status: number; text: string; contentType: string; ok: boolean | null; code: number | null; message: string | null }

/** The status and error of a subsonic-response in XML or JSON; null for anything else (bytes). */
export function envelopeOf(text: string, contentType: string): { ok: boolean; code: number | null; message: string | null } | null {
  if (contentType.includes('json')) {
    try {
      const r = JSON.parse(text)['subsonic-response']
      if (!r || (r.status !== 'ok' && r.status !== 'failed')) return null
      return { ok: r.status === 'ok', code: r.error?.code ?? null, message: r.error?.message ?? null }
    } catch {
      return null
    }
  }
  if (contentType.includes('xml')) {
    try {
      const root = parseXml(text)
      if (root.name !== 'subsonic-response') return null
      if (root.attributes.status === 'ok') return { ok: true, code: null, message: null }
      const error = childOf(root, 'error')
      return { ok: false, code: Number(error.attributes.code), message: error.attributes.message ?? null }
    } catch {
      return null
    }
  }
  return null
}

/** Builds a query or form body; repeated values become repeated parameters, as apps send them. */
export function restQuery(params: RestParams): string {
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one)
  return search.toString()
}

/** One /rest call: GET with a query string, or POST with the same parameters as a form (formPost). */
export async function restCall(base: string, method: string, params: RestParams, opts: { post?: boolean } = {}): Promise<RestAnswer> {
  const query = restQuery({ c: 'vibes-test', v: '1.16.1', ...params })
  let res: Response
  try {
    res = opts.post
      ? await fetch(`${base}/rest/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: query,
          signal: AbortSignal.timeout(15_000),
        })
      : await fetch(`${base}/rest/${method}?${query}`, { signal: AbortSignal.timeout(15_000) })
  } catch (error) {
    return { status: 599, text: `no answer: ${error}`, contentType: '', ok: null, code: null, message: null }
  }
  const contentType = res.headers.get('content-type') ?? ''
  const text = await res.text()
  const envelope = envelopeOf(text, contentType)
  return { status: res.status, text, contentType, ok: envelope?.ok ?? null, code: envelope?.code ?? null, message: envelope?.message ?? null }
}
