// Share links (/profile "Shared links", the player's Share button, the public page /s/<id>): what
// a member may share, for how long, and the ids a visitor's page sends back. docs/decisions/069.
import { z } from 'zod'

/** How long a new link lives; 'never' keeps it until it is revoked. */
export const SHARE_EXPIRIES = ['1d', '7d', '30d', 'never'] as const
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number]
export const DEFAULT_SHARE_EXPIRY: ShareExpiry = '7d'
export const SHARE_EXPIRY_MS: Record<ShareExpiry, number | null> = { '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000, never: null }
export const SHARE_EXPIRY_LABELS: Record<ShareExpiry, string> = { '1d': '1 day', '7d': '7 days', '30d': '30 days', never: 'Never' }
export const SHARE_DESCRIPTION_MAX = 200
/** A share id: 24 base64url characters (18 random bytes). */
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{24}$/

const libraryId = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(200, `${label} is too long`)

export const ShareIdSchema = z.strictObject({
  id: z.string({ error: 'Share id is required' }).regex(SHARE_ID_PATTERN, 'Share id is not a share link id'),
})

/**
 * What to share: a library track by its id, or by its /media/ URL (the player knows a track only
 * by that), an album, or one of the member's own playlists. A new kind is one more member of this union.
 */
export const ShareTargetInput = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('track'), id: libraryId('Track id') }),
    z.strictObject({
      kind: z.literal('trackUrl'),
      url: z.string({ error: 'Track URL is required' }).trim().min(1, 'Track URL is required').max(4096, 'Track URL is too long'),
    }),
    z.strictObject({ kind: z.literal('album'), id: libraryId('Album id') }),
    z.strictObject({ kind: z.literal('playlist'), id: libraryId('Playlist id') }),
  ],
  {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? 'Target is required' : 'Target kind must be one of track, trackUrl, album, playlist',
  },
)

export const ShareCreateSchema = z.strictObject({
  target: ShareTargetInput,
  expiresIn: z.enum(SHARE_EXPIRIES, { error: `Expiry must be one of ${SHARE_EXPIRIES.join(', ')}` }).default(DEFAULT_SHARE_EXPIRY),
  description: z
    .string({ error: 'Description must be text' })
    .trim()
    .max(SHARE_DESCRIPTION_MAX, `Description must be at most ${SHARE_DESCRIPTION_MAX} characters`)
    .optional()
    .transform((v) => v || null),
})
export type ShareCreateInput = z.output<typeof ShareCreateSchema>

/** A visitor's play of the share's track number `index` (0-based, in the page's order). */
export const SharePlaySchema = ShareIdSchema.extend({
  index: z
    .number({ error: 'Track index must be a number' })
    .int('Track index must be a whole number')
    .min(0, 'Track index must be at least 0')
    .max(10_000, 'Track index is too large'),
})
