// Listening events (plays, their updates, interactions, likes): the inputs of POST /playlist/plays,
// PUT /playlist/plays/{id}, POST /playlist/interactions and PUT /playlist/likes. Every field is
// bounded; numbers are finite and ≥ 0; enums are the product's fixed value lists.
import { z } from 'zod'
import { DEVICE_TYPES } from '../player/device'
import { CLIENT_PLAY_ID_PATTERN, PLAY_EVENT_LIMITS, SESSION_ID_PATTERN } from '../player/listening'

/**
 * The player's sources; 'radio' is a live internet radio station (its play has no end of its own),
 * 'podcast' a podcast episode (services/podcasts.ts), whatever moved it there.
 */
export const PLAY_SOURCES = ['repeat', 'shuffle', 'direct', 'playlist', 'radio', 'podcast'] as const
/** The source of plays the server records itself, never sent by the player: OpenSubsonic apps' scrobbles. */
export const SCROBBLE_SOURCE = 'subsonic'
/** The source of plays through a share link (/s/<id>), recorded by the server for a visitor without an account. */
export const SHARE_SOURCE = 'share'
/** Every source a play event can carry: the player's, the apps' scrobbles and share links' (the overview's buckets). */
export const RECORDED_SOURCES = [...PLAY_SOURCES, SCROBBLE_SOURCE, SHARE_SOURCE] as const
export const NETWORK_TYPES = ['4g', '3g', '2g', 'ethernet', 'wifi', 'unknown'] as const
export const INTERACTION_TYPES = ['like', 'share', 'repeat'] as const
export type PlaySource = (typeof PLAY_SOURCES)[number]
export type NetworkType = (typeof NETWORK_TYPES)[number]
export type InteractionType = (typeof INTERACTION_TYPES)[number]

const MAX_SECONDS = 7 * 24 * 3600

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null))

const seconds = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a finite number`)
    .min(0, `${label} must be at least 0`)
    .max(MAX_SECONDS, `${label} is too large`)

const count = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`)
    .max(1_000_000, `${label} is too large`)

const enumOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` })

/** A moment from the client: epoch milliseconds or an ISO date string. */
const moment = (label: string) =>
  z.union([z.number().finite(), z.string().max(40)], { error: `${label} must be a date` }).transform((v, ctx) => {
    const d = new Date(v)
    if (Number.isNaN(d.getTime()) || d.getTime() < 0) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a valid date` })
      return z.NEVER
    }
    return d
  })

const L = PLAY_EVENT_LIMITS

export const PlayEventCreateSchema = z.strictObject({
  trackUrl: text('Track URL', L.trackUrl),
  title: text('Title', L.title),
  duration: seconds('Duration').default(0),
  /** The server decides from the User-Agent; a client value is used only when that says 'unknown'. */
  deviceType: enumOf(DEVICE_TYPES, 'Device type').optional(),
  genre: optionalText('Genre', L.genre),
  artist: optionalText('Artist', L.artist),
  album: optionalText('Album', L.album),
  year: z
    .number({ error: 'Year must be a number' })
    .int('Year must be a whole number')
    .min(1000, 'Year must be between 1000 and 2999')
    .max(2999, 'Year must be between 1000 and 2999')
    .nullish(),
  source: enumOf(PLAY_SOURCES, 'Source').default('direct'),
  playlistId: optionalText('Playlist id', L.playlistId),
  previousTrack: optionalText('Previous track', L.previousTrack),
  nextTrack: optionalText('Next track', L.nextTrack),
  sessionId: z.string({ error: 'Session id must be text' }).regex(SESSION_ID_PATTERN, 'Session id must look like session_{timestamp}_{random}').nullish(),
  sessionPosition: count('Session position').nullish(),
  networkType: enumOf(NETWORK_TYPES, 'Network type').default('unknown'),
  /** When the play began by the client's clock: a play queued offline is sent late. */
  startedAt: moment('Started at').optional(),
  /** The client's key for this play: sent again with the same key, the play is not recorded twice. */
  clientPlayId: z
    .string({ error: 'Client play id must be text' })
    .regex(CLIENT_PLAY_ID_PATTERN, 'Client play id must be 8 to 64 letters, digits, - or _')
    .optional(),
})
export type PlayEventCreateInput = z.input<typeof PlayEventCreateSchema>

export const PlayEventUpdateFields = z.strictObject({
  listenDuration: seconds('Listen duration').optional(),
  completed: z.boolean({ error: 'Completed must be true or false' }).optional(),
  skipped: z.boolean({ error: 'Skipped must be true or false' }).optional(),
  skipTime: seconds('Skip time').nullish(),
  liked: z.boolean({ error: 'Liked must be true or false' }).optional(),
  shared: z.boolean({ error: 'Shared must be true or false' }).optional(),
  repeated: z.boolean({ error: 'Repeated must be true or false' }).optional(),
  endedAt: moment('Ended at').nullish(),
  bufferCount: count('Buffer count').optional(),
  qualityDrops: count('Quality drops').optional(),
})
export type PlayEventUpdateFieldsInput = z.input<typeof PlayEventUpdateFields>

// Any id that fits is looked up (an unknown or someone else's is a 404); only absurd ones are a 400.
const playEventId = z.string({ error: 'Play event id is required' }).trim().min(1, 'Play event id is required').max(256, 'Play event id is too long')

export const PlayEventUpdateSchema = PlayEventUpdateFields.extend({ playEventId })

export const InteractionSchema = z.strictObject({
  trackId: text('Track id', L.trackId),
  interactionType: enumOf(INTERACTION_TYPES, 'Interaction type'),
  timestamp: moment('Timestamp').optional(),
})
export type InteractionInput = z.input<typeof InteractionSchema>

export const LikeSetSchema = z.strictObject({
  title: text('Title', L.title),
  liked: z.boolean({ error: 'Liked must be true or false' }),
  trackUrl: optionalText('Track URL', 2048),
})
