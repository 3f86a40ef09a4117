// The upstream chart feed (CHARTS_SOURCE_URL, in the shape of Apple's marketing-tools RSS JSON): fetched under the remote
// address policy with a timeout and a size cap, and shaped into our chart. Pure apart from the
// fetch, so the shaping is unit-tested alone.
import { z } from 'zod'
import { fetchRemote } from '../remote/fetch'
import type { AddressPolicy } from '../remote/address-policy'
import type { RegionCode } from '~/shared/regions'
import { ART_URL_MAX, safeArtUrl } from '~/shared/validators/charts'

export const UPSTREAM_TIMEOUT_MS = 10_000
export const UPSTREAM_MAX_BYTES = 2 * 1024 * 1024
export const MAX_TRACKS = 100

export type ChartTrack = { rank: number; title: string; artist: string; art: string | null; explicit: boolean }
export type ChartPayload = { updated: string; tracks: ChartTrack[] }

// Control characters and runs of whitespace become one space; the rest is shown as text.
const text = (maxLen: number) =>
  z.string().transform((s) =>
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
      .replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ')
      .trim()
      .slice(0, maxLen),
  )
const FeedItem = z.object({
  name: text(300).pipe(z.string().min(1)),
  artistName: text(300).optional().catch(undefined),
  artworkUrl100: z.string().max(ART_URL_MAX).optional().catch(undefined),
  contentAdvisoryRating: z.string().max(50).optional().catch(undefined),
})
const Feed = z.object({
  feed: z.object({
    updated: z.string().max(100).optional().catch(undefined),
    results: z.array(z.unknown()),
  }),
})

/** The origin http artwork may come from: the feed's own (see safeArtUrl). */
export function feedOrigin(template: string): string | null {
  try {
    return new URL(template.replaceAll('{region}', 'us')).origin
  } catch {
    return null
  }
}

/**
 * The feed's JSON in our shape; items that don't fit are skipped, a field of the wrong type is
 * dropped. Throws when it is no feed. `artOrigin` is the origin from which plain-http artwork is
 * accepted (https is always).
 */
export function shapeFeed(json: unknown, now = new Date(), artOrigin: string | null = null): ChartPayload {
  const feed = Feed.parse(json).feed
  const tracks: ChartTrack[] = []
  for (const raw of feed.results) {
    if (tracks.length >= MAX_TRACKS) break
    const item = FeedItem.safeParse(raw)
    if (!item.success) continue
    tracks.push({
      rank: tracks.length + 1,
      title: item.data.name,
      artist: item.data.artistName ?? '',
      art: safeArtUrl(item.data.artworkUrl100, artOrigin),
      explicit: item.data.contentAdvisoryRating?.toLowerCase() === 'explicit',
    })
  }
  const updated = feed.updated ? new Date(feed.updated) : now
  return { updated: (Number.isNaN(updated.getTime()) ? now : updated).toISOString(), tracks }
}

/**
 * One feed request, through the remote-folder fetch (fetch.ts): every address, the first and each
 * redirect's, passes the address policy, so a feed cannot redirect the server into the LAN. The
 * feed's own host is allowed as if listed in REMOTE_ALLOW_HOSTS: the operator named it. The
 * timeout covers the whole exchange, a body that trickles in included.
 */
export async function fetchFeed(
  template: string,
  region: RegionCode,
  now = new Date(),
  opts: { policy?: AddressPolicy; timeoutMs?: number; maxBytes?: number } = {},
): Promise<ChartPayload> {
  const url = template.replaceAll('{region}', region)
  const policy = opts.policy ?? { allowHosts: [], allowPrivate: false }
  const feedHost = new URL(url).hostname
  const res = await fetchRemote(
    url,
    { ...policy, allowHosts: [...policy.allowHosts, feedHost] },
    {
      timeoutMs: opts.timeoutMs ?? UPSTREAM_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? UPSTREAM_MAX_BYTES,
      accept: 'application/json',
      what: 'chart feed',
    },
  )
  return shapeFeed(JSON.parse(res.body), now, feedOrigin(template))
}
