// The upstream chart feed (CONTRACT §2: Apple marketing-tools RSS JSON): fetched with a timeout
// and a size cap, and shaped into our chart. Pure apart from fetch, so it is unit-tested alone.
import { z } from 'zod'
import type { RegionCode } from '~/shared/regions'

export const UPSTREAM_TIMEOUT_MS = 10_000
export const UPSTREAM_MAX_BYTES = 2 * 1024 * 1024
export const MAX_TRACKS = 100

export type ChartTrack = { rank: number; title: string; artist: string; art: string | null; explicit: boolean }
export type ChartPayload = { updated: string; tracks: ChartTrack[] }

const text = (maxLen: number) => z.string().transform((s) => s.replace(/\s+/g, ' ').trim().slice(0, maxLen))
const FeedItem = z.object({
  name: text(300).pipe(z.string().min(1)),
  artistName: text(300).optional().catch(undefined),
  artworkUrl100: z.string().max(2000).optional().catch(undefined),
  contentAdvisoryRating: z.string().max(50).optional().catch(undefined),
})
const Feed = z.object({
  feed: z.object({
    updated: z.string().max(100).optional().catch(undefined),
    results: z.array(z.unknown()),
  }),
})

/** The feed's JSON in our shape; items that don't fit are skipped. Throws when it is no feed. */
export function shapeFeed(json: unknown, now = new Date()): ChartPayload {
  const feed = Feed.parse(json).feed
  const tracks: ChartTrack[] = []
  for (const raw of feed.results) {
    if (tracks.length >= MAX_TRACKS) break
    const item = FeedItem.safeParse(raw)
    if (!item.success) continue
    const art = item.data.artworkUrl100
    tracks.push({
      rank: tracks.length + 1,
      title: item.data.name,
      artist: item.data.artistName ?? '',
      // Only http(s) images reach an <img src>.
      art: art && /^https?:\/\//i.test(art) ? art : null,
      explicit: item.data.contentAdvisoryRating?.toLowerCase() === 'explicit',
    })
  }
  const updated = feed.updated ? new Date(feed.updated) : now
  return { updated: (Number.isNaN(updated.getTime()) ? now : updated).toISOString(), tracks }
}

/** Reads at most `limit` bytes of a body; a larger one is refused, not truncated. */
async function readCapped(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0)
  if (declared > limit) {
    await res.body?.cancel()
    throw new Error(`upstream body of ${declared} bytes is over the ${limit}-byte cap`)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new Error(`upstream body is over the ${limit}-byte cap`)
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

export async function fetchFeed(template: string, region: RegionCode, now = new Date()): Promise<ChartPayload> {
  const url = template.replaceAll('{region}', region)
  const res = await fetch(url, { signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS), headers: { accept: 'application/json' } })
  if (!res.ok) {
    await res.body?.cancel()
    throw new Error(`upstream answered HTTP ${res.status}`)
  }
  return shapeFeed(JSON.parse(await readCapped(res, UPSTREAM_MAX_BYTES)), now)
}
