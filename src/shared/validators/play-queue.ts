// PUT /playlist/queue: the queue a member's player saves so
// another device can resume it. Every field is bounded; the index points into the tracks; only
// URLs another device can play (http/https or a library /media/ path) are accepted.
import { z } from 'zod'
import { isShareableUrl, PLAY_QUEUE_LIMITS as L } from '../player/play-queue'

const MAX_SECONDS = 7 * 24 * 3600

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)

const seconds = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a finite number`)
    .min(0, `${label} must be at least 0`)
    .max(MAX_SECONDS, `${label} is too large`)

const gain = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a finite number`)
    .optional()

/**
 * A /media/ URL names a file inside MEDIA_ROOT: no "." or ".." segment, plain or percent-encoded
 * ("/media/%2e%2e/etc/passwd" is /etc/passwd to whoever follows it), and no broken escape.
 * Other URLs pass (isShareableUrl decides about them).
 */
function isLibraryPathSafe(url: string): boolean {
  if (!url.startsWith('/media/')) return true
  const q = url.indexOf('?')
  let path: string
  try {
    path = decodeURIComponent(q < 0 ? url : url.slice(0, q))
  } catch {
    return false
  }
  return !path.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')
}

export const QueuedTrackSchema = z.strictObject({
  url: z
    .string({ error: 'Track URL must be text' })
    .trim()
    .min(1, 'Track URL is required')
    .max(L.url, `Track URL must be at most ${L.url} characters`)
    .refine(isShareableUrl, 'Track URL must start with http://, https:// or /media/')
    .refine(isLibraryPathSafe, 'Track URL must be a file path inside the library'),
  title: text('Title', L.title).default(''),
  artist: text('Artist', L.artist).default(''),
  album: text('Album', L.album).default(''),
  duration: seconds('Duration').default(0),
  mime: text('Mime', L.mime)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Mime must look like type/subtype')
    .default('audio/mpeg'),
  // What GET answers may be sent back as it is; the server ignores it (ReplayGain comes from the
  // library index when the queue is read).
  replayGain: z
    .strictObject(
      { trackGain: gain('Track gain'), trackPeak: gain('Track peak'), albumGain: gain('Album gain'), albumPeak: gain('Album peak') },
      { error: 'ReplayGain must be an object' },
    )
    .optional(),
  // Likewise a library track's cover and year (a read takes them from the index again).
  cover: z.string({ error: 'Cover must be text' }).max(L.url, `Cover must be at most ${L.url} characters`).optional(),
  year: z.number({ error: 'Year must be a number' }).int('Year must be a whole number').optional(),
})

export const PlayQueueSaveSchema = z
  .strictObject({
    tracks: z.array(QueuedTrackSchema, { error: 'Tracks must be a list' }).max(L.tracks, `A queue holds at most ${L.tracks} tracks`),
    index: z.number({ error: 'Index must be a number' }).int('Index must be a whole number').min(0, 'Index must be at least 0').default(0),
    positionSec: seconds('Position').default(0),
    device: text('Device', L.device).optional(),
  })
  .refine((q) => q.index < Math.max(1, q.tracks.length), { message: 'Index must point at one of the tracks', path: ['index'] })
export type PlayQueueSaveInput = z.input<typeof PlayQueueSaveSchema>
