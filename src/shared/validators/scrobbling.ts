// Scrobbling on /profile: a ListenBrainz user token to connect with, the token Last.fm hands back
// after the member allowed Vibes (with the state Vibes sent along), and a service to disconnect.
import { z } from 'zod'

export const SCROBBLE_SERVICES = ['listenbrainz', 'lastfm'] as const
export type ScrobbleService = (typeof SCROBBLE_SERVICES)[number]

export const ListenBrainzConnectSchema = z.strictObject({
  // A ListenBrainz user token is a UUID; anything of a sane length is passed on for it to judge.
  token: z
    .string({ error: 'Token is required' })
    .trim()
    .min(1, 'Token is required')
    .max(200, 'Token must be at most 200 characters')
    .regex(/^[\w-]+$/, 'Token must be letters, digits and dashes, as ListenBrainz shows it'),
})

export const LastfmCompleteSchema = z.strictObject({
  token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200, 'Token is too long').regex(/^\w+$/, 'Token must be letters and digits'),
  state: z.string({ error: 'State is required' }).min(1, 'State is required').max(200, 'State is too long'),
})

export const ScrobbleServiceSchema = z.strictObject({
  service: z.enum(SCROBBLE_SERVICES, { error: 'Service must be listenbrainz or lastfm' }),
})
