// The Track every player source produces (local folder, remote URL, member folder) and the
// display rules for it: defaults for missing fields, a title ending in '..>' replaced by the file
// name, video by mime or URL extension.

export type Track = {
  url: string
  title: string
  mime: string
  artist: string
  album: string
  genre?: string
  year?: number
  /** Seconds; 0 when unknown. */
  duration: number
  /** Cover art URL (object URL for local files). */
  cover?: string
  /** Why a library track cannot play here (e.g. 'needs ffmpeg' on a server without ffmpeg). */
  unavailable?: string
  /** ReplayGain from the file's tags (library tracks), where the tags carry it. */
  replayGain?: ReplayGain
}

/** Gains in dB, peaks as sample ratios (1 = full scale); each only where the tags have it. */
export type ReplayGain = { trackGain?: number; trackPeak?: number; albumGain?: number; albumPeak?: number }

export const DEFAULT_MIME = 'audio/mpeg'
export const DEFAULT_ALBUM = 'Unknown Album'
export const DEFAULT_TITLE = 'Unknown Title'

/** A track from partial data, with the defaults (mime audio/mpeg, artist '', album 'Unknown Album', duration 0). */
export function makeTrack(input: Partial<Track> & { url: string }): Track {
  const duration = Number.isFinite(input.duration) && (input.duration ?? 0) > 0 ? (input.duration as number) : 0
  return {
    url: input.url,
    title: input.title?.trim() || DEFAULT_TITLE,
    mime: input.mime?.trim() || DEFAULT_MIME,
    artist: input.artist?.trim() ?? '',
    album: input.album?.trim() || DEFAULT_ALBUM,
    ...(input.genre ? { genre: input.genre } : {}),
    ...(input.year ? { year: input.year } : {}),
    duration,
    ...(input.cover ? { cover: input.cover } : {}),
    ...(input.unavailable ? { unavailable: input.unavailable } : {}),
    ...(input.replayGain ? { replayGain: input.replayGain } : {}),
  }
}

/** Where the web player listens to an internet radio station: through this server (decision 077). */
export const RADIO_STREAM_PREFIX = '/api/radio/stream/'

/** A live internet radio station: it has no length and no end of its own, and cannot be sought. */
export const isLive = (track: Pick<Track, 'url'>) => track.url.startsWith(RADIO_STREAM_PREFIX)

/** The station id of a live track's URL (null for any other track). */
export const stationIdOf = (url: string): string | null =>
  url.startsWith(RADIO_STREAM_PREFIX) ? decodeURIComponent(url.slice(RADIO_STREAM_PREFIX.length)) : null

const VIDEO_URL = /\.(mp4|webm|ogv|mov|avi|mkv)$/i

/** Video is any mime starting with 'video', or a URL ending in a video extension. */
export function isVideo(track: Pick<Track, 'mime' | 'url'>): boolean {
  if (track.mime.toLowerCase().startsWith('video')) return true
  return VIDEO_URL.test(urlPath(track.url))
}

/** The URL's path without query or fragment (works for relative and blob URLs too). */
function urlPath(url: string): string {
  return url.split(/[?#]/)[0]
}

/** The file name of a URL without its extension, percent-decoded when possible. */
export function fileNameFromUrl(url: string): string {
  const last = urlPath(url).replace(/\/+$/, '').split('/').pop() ?? ''
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {}
  return name.replace(/\.[^.]+$/, '')
}

/** Titles ending in '..>' (truncated by some listings) are replaced by the file name from the URL. */
export function displayTitle(track: Pick<Track, 'title' | 'url'>): string {
  if (track.title.trimEnd().endsWith('..>')) return fileNameFromUrl(track.url) || track.title
  return track.title
}

/** m:ss (h:mm:ss past an hour); 0:00 for unknown or negative values. */
export function formatTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '0:00'
  const s = Math.floor(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

/**
 * A track URL as a source gave it, made playable: double-encoded '%25xx' decoded once, spaces as
 * %20, and relative URLs resolved against the playlist's URL (or the page for folder playlists).
 */
export function normalizeTrackUrl(url: string, base: string): string {
  const cleaned = url
    .trim()
    .replace(/%25([0-9A-Fa-f]{2})/g, '%$1')
    .replace(/ /g, '%20')
  try {
    return new URL(cleaned, base).href
  } catch {
    return cleaned
  }
}
