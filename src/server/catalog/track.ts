// The library's catalog: a library_tracks row as every reader selects it, and the one mapping
// from that row to the shared Track (src/shared/player/track.ts) that the web index, folder
// playlists, the saved play queue and liked songs hand out. OpenSubsonic's `song` is another
// output format; it maps from the same row and takes its title and artist from trackOf's rules
// (displayArtist), so no door decides them twice.
import type { LibraryTrack } from '~/shared/library'
import type { ReplayGain, Track } from '~/shared/player/track'
import { encodeMediaPath, MEDIA_PREFIX, signMediaUrl } from '../media/sign'
import { transcodeTools } from '../media/transcode'
import { NEEDS_FFMPEG, TRANSCODE_PROFILES, transcodeProfileFor } from '../media/transcode-profile'

/** A library_tracks row as LIBRARY_COLUMNS reads it. */
export type LibraryRow = {
  id: string
  path: string
  folder: string
  title: string
  artist: string
  albumArtist: string
  artistId: string
  album: string
  albumId: string
  genre: string | null
  year: number | null
  track: number | null
  disc: number | null
  duration: number
  bitrate: number | null
  size: number
  mime: string
  coverPath: string | null
  seq: number
  addedAt: number
  rgTrackGain: number | null
  rgTrackPeak: number | null
  rgAlbumGain: number | null
  rgAlbumPeak: number | null
}
/** The columns of a LibraryRow, over `library_tracks t` (for joins and the full-text search); aliases quoted, as PostgreSQL folds bare names to lower case. */
export const LIBRARY_COLUMNS = `t.seq, t.added_at AS "addedAt", t.id, t.path, t.folder, t.title, t.artist, t.album_artist AS "albumArtist", t.artist_id AS "artistId",
  t.album, t.album_id AS "albumId", t.genre, t.year, t.track_no AS "track", t.disc_no AS "disc", t.duration, t.bitrate, t.size, t.mime,
  t.cover_path AS "coverPath", t.rg_track_gain AS "rgTrackGain", t.rg_track_peak AS "rgTrackPeak", t.rg_album_gain AS "rgAlbumGain", t.rg_album_peak AS "rgAlbumPeak"`
/** Every LibraryRow: add a WHERE / ORDER BY / LIMIT. */
export const LIBRARY_SELECT = `SELECT ${LIBRARY_COLUMNS} FROM library_tracks t`

/** A file tagged with an album artist only is shown as its artist, as the tags would say. */
export const displayArtist = (r: Pick<LibraryRow, 'artist' | 'albumArtist'>) => r.artist || r.albumArtist

export type SignedMedia = { url: string; mime: string; unavailable?: typeof NEEDS_FFMPEG }

/**
 * How a listing offers a library file: its own signed URL and MIME type, or, for a format the
 * browser cannot play, the converted stream's — marked unavailable when there is no ffmpeg.
 * `notAfterSec`: as signMediaUrl's.
 */
export function signedMediaUrl(secret: string, relPath: string, fileMime: string, notAfterSec?: number): SignedMedia {
  const profile = transcodeProfileFor(relPath)
  if (!profile) return { url: signMediaUrl(secret, relPath, 'file', undefined, notAfterSec), mime: fileMime }
  const source: SignedMedia = { url: signMediaUrl(secret, relPath, profile, undefined, notAfterSec), mime: TRANSCODE_PROFILES[profile].mime }
  if (!transcodeTools().ffmpeg) source.unavailable = NEEDS_FFMPEG
  return source
}

/** The ReplayGain tags the scan found (absent ones left out; none at all: undefined). */
export function replayGainOf(r: Pick<LibraryRow, 'rgTrackGain' | 'rgTrackPeak' | 'rgAlbumGain' | 'rgAlbumPeak'>): ReplayGain | undefined {
  const fields = { trackGain: r.rgTrackGain, trackPeak: r.rgTrackPeak, albumGain: r.rgAlbumGain, albumPeak: r.rgAlbumPeak }
  const present = Object.entries(fields).filter(([, v]) => v !== null)
  return present.length > 0 ? (Object.fromEntries(present) as ReplayGain) : undefined
}

/** Row → the library's track: signed /media URLs for the file and its cover, the index's ids, tags where present. */
export function trackOf(secret: string, r: LibraryRow): LibraryTrack {
  const t: LibraryTrack = {
    id: r.id,
    ...signedMediaUrl(secret, r.path, r.mime),
    title: r.title,
    artist: displayArtist(r),
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

/** The same track as a plain player Track, for lists that carry no library ids (folder playlists, the saved queue). */
export function playerTrackOf(secret: string, r: LibraryRow): Track {
  const { id: _id, artistId: _artistId, albumId: _albumId, track: _track, disc: _disc, bitrate: _bitrate, ...track } = trackOf(secret, r)
  return track
}

/** The stable key (trackKey) of a library file's track: its /media/ URL without a signature, as plays and likes record it. */
export const libraryTrackKey = (relPath: string) => `${MEDIA_PREFIX}${encodeMediaPath(relPath)}`
