// Podcasts (the Podcasts page, the player's episode progress, the admin's feed setting): inputs
// of the podcasts procedures and their REST paths. docs/decisions/078.
import { z } from 'zod'

export const PODCAST_FEEDS_BY = ['everyone', 'admins'] as const
export const PODCAST_SEARCH_MAX = 200
export const PODCAST_PAGE_MAX = 500

const id = (label: string, prefix: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(64, `${label} is too long`)
    .regex(new RegExp(`^${prefix}-[0-9a-f]+$`), `${label} is not a podcast ${label.toLowerCase().replace(/ id$/, '')} id`)

export const PodcastChannelIdSchema = z.strictObject({ channelId: id('Channel id', 'pc') })
export const PodcastEpisodeIdSchema = z.strictObject({ episodeId: id('Episode id', 'pe') })

export const PodcastSubscribeSchema = z.strictObject({
  url: z.string({ error: 'Feed URL is required' }).trim().min(1, 'Feed URL is required').max(2048, 'Feed URL is too long'),
})

export const PodcastRefreshSchema = z.strictObject({ channelId: id('Channel id', 'pc').optional() }).optional()

export const PodcastEpisodesSchema = z.strictObject({
  channelId: id('Channel id', 'pc'),
  search: z.string({ error: 'Search must be text' }).trim().max(PODCAST_SEARCH_MAX, `Search must be at most ${PODCAST_SEARCH_MAX} characters`).optional(),
  /** How many episodes to skip (the web's infinite list calls it its cursor). */
  cursor: z.coerce
    .number({ error: 'Offset must be a number' })
    .int('Offset must be a whole number')
    .min(0, 'Offset must be at least 0')
    .max(1_000_000)
    .default(0),
  /** Sent by the web's infinite list along with the cursor; pages only go forward. */
  direction: z.enum(['forward', 'backward']).optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(PODCAST_PAGE_MAX, `Limit must be at most ${PODCAST_PAGE_MAX}`)
    .default(100),
})

export const PodcastProgressSchema = z.strictObject({
  episodeId: id('Episode id', 'pe'),
  positionMs: z
    .number({ error: 'Position must be a number' })
    .int('Position must be a whole number of milliseconds')
    .min(0, 'Position must be at least 0')
    .max(7 * 86_400_000, 'Position is too large'),
  played: z.boolean({ error: 'Played must be true or false' }).optional(),
})

export const PodcastFeedsBySchema = z.strictObject({
  feedsBy: z.enum(PODCAST_FEEDS_BY, { error: `Who may add feeds must be one of ${PODCAST_FEEDS_BY.join(', ')}` }),
})
