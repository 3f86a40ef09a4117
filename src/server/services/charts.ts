// Charts per region for /charts. With CHARTS_SOURCE_URL the upstream feed
// (Apple marketing-tools RSS JSON) is fetched, shaped and cached an hour in chart_cache; when the
// upstream fails the last good copy is served, however old, and when it is merely slow the copy is
// served after STALE_WAIT_MS while the refresh finishes in the background. Without a feed, or
// before the first good copy, the chart is this server's own: the most-played tracks in that
// country over the last 30 days, from play_events (recomputed at most once a minute per region).
// The worldwide chart ('ww') is always this server's own, over every play whatever its place.
import { NotFoundError } from '../errors'
import { and, count, desc, eq, gte, max, sql } from 'drizzle-orm'
import { type Db, tablesOf } from '~/db/engine'
import { type ChartRegion, isChartRegion, type RegionCode, WORLDWIDE } from '~/shared/regions'
import { logger } from '../logger'
import { safeArtUrl } from '~/shared/validators/charts'
import type { AddressPolicy } from '../remote/address-policy'
import { feedOrigin, fetchFeed, type ChartPayload } from './charts-feed'

export const CACHE_MS = 60 * 60_000
/** After an upstream failure, don't ask again for this long (each try can cost the full timeout). */
export const FAILURE_BACKOFF_MS = 60_000
/** With an expired copy at hand, wait this long for the upstream before answering from the copy. */
export const STALE_WAIT_MS = 1_500
export const LOCAL_WINDOW_DAYS = 30
/** The local chart is a grouped scan of a month of plays (~0.3 s at a million rows): computed at
 *  most once a minute per region — the page's own refresh interval — and shared by every visitor. */
export const LOCAL_CACHE_MS = 60_000
const LOCAL_LIMIT = 50

export type Chart = ChartPayload & { region: ChartRegion; source: 'feed' | 'local' }

/**
 * The region the Charts page opens on: the product's default, United States, unless the instance
 * names its country (DEFAULT_COUNTRY, uppercase ISO): that region when it is one of them, else the
 * worldwide chart rather than another country's.
 */
export function defaultChartRegion(country: string | undefined): ChartRegion {
  if (country === undefined) return 'us'
  const code = country.toLowerCase()
  return isChartRegion(code) ? code : WORLDWIDE
}

export const notFoundMessage = (code: string) => `Charts for storefront "${code}" not found`

// --- this server's own listening ---------------------------------------------------------------

export async function localChart(db: Db, region: ChartRegion, now = new Date()): Promise<ChartPayload> {
  const { playEvents } = tablesOf(db)
  const since = new Date(now.getTime() - LOCAL_WINDOW_DAYS * 86_400_000)
  const artist = sql<string>`coalesce(${playEvents.artist}, '')`
  // Uses play_events_country_started_idx; grouped by title + artist because signed media URLs
  // differ between plays of the same file.
  const rows = await db
    .select({ title: playEvents.title, artist, plays: count(), last: max(playEvents.startedAt) })
    .from(playEvents)
    .where(region === WORLDWIDE ? gte(playEvents.startedAt, since) : and(eq(playEvents.country, region.toUpperCase()), gte(playEvents.startedAt, since)))
    .groupBy(playEvents.title, artist)
    .orderBy(desc(count()), desc(max(playEvents.startedAt)), playEvents.title)
    .limit(LOCAL_LIMIT)
  return {
    updated: now.toISOString(),
    tracks: rows.map((r, i) => ({ rank: i + 1, title: r.title, artist: r.artist, art: null, explicit: false })),
  }
}

const localCache = new WeakMap<Db, Map<ChartRegion, { at: number; chart: Promise<ChartPayload> }>>()

/** Each node computes its own copy, at most once a minute per region; callers meanwhile share it. */
function cachedLocalChart(db: Db, region: ChartRegion, now: Date): Promise<ChartPayload> {
  let byRegion = localCache.get(db)
  if (!byRegion) localCache.set(db, (byRegion = new Map()))
  const hit = byRegion.get(region)
  if (hit && now.getTime() - hit.at >= 0 && now.getTime() - hit.at < LOCAL_CACHE_MS) return hit.chart
  const chart = localChart(db, region, now)
  byRegion.set(region, { at: now.getTime(), chart })
  // A failed query is not kept: the next caller asks again.
  chart.catch(() => {
    if (byRegion.get(region)?.chart === chart) byRegion.delete(region)
  })
  return chart
}

// --- the cache ---------------------------------------------------------------------------------

const inFlight = new Map<string, Promise<ChartPayload>>()
const failedAt = new Map<string, number>()

/** The stored copy, re-checked on the way out (a row written by an older version, or edited by
 *  hand, must not put an unsafe image URL or a broken shape in front of the browser). */
async function cached(db: Db, region: RegionCode, artOrigin: string | null): Promise<{ payload: ChartPayload; fetchedAt: Date } | null> {
  const { chartCache } = tablesOf(db)
  const [row] = await db.select().from(chartCache).where(eq(chartCache.region, region))
  if (!row) return null
  try {
    const raw = JSON.parse(row.payload) as Partial<ChartPayload>
    if (typeof raw.updated !== 'string' || !Array.isArray(raw.tracks)) return null
    const tracks = raw.tracks
      .filter((t) => t && typeof t.title === 'string')
      .map((t, i) => ({
        rank: i + 1,
        title: t.title,
        artist: typeof t.artist === 'string' ? t.artist : '',
        art: safeArtUrl(t.art, artOrigin),
        explicit: t.explicit === true,
      }))
    return { payload: { updated: raw.updated, tracks }, fetchedAt: row.fetchedAt }
  } catch {
    return null
  }
}

async function store(db: Db, region: RegionCode, payload: ChartPayload, now: Date) {
  const { chartCache } = tablesOf(db)
  const values = { region, payload: JSON.stringify(payload), fetchedAt: now }
  await db
    .insert(chartCache)
    .values(values)
    .onConflictDoUpdate({ target: chartCache.region, set: { payload: values.payload, fetchedAt: now } })
}

/** One upstream request per region at a time; concurrent callers share it. A failure is logged
 *  and starts the back-off. */
function refresh(db: Db, template: string, region: RegionCode, now: Date, hadCopy: boolean, policy: AddressPolicy | undefined): Promise<ChartPayload> {
  let pending = inFlight.get(region)
  if (!pending) {
    pending = fetchFeed(template, region, now, { policy })
      .then(async (payload) => {
        await store(db, region, payload, new Date())
        failedAt.delete(region)
        return payload
      })
      .catch((error: unknown) => {
        failedAt.set(region, Date.now())
        logger.warn({ region, err: error instanceof Error ? error.message : String(error), servedCopy: hadCopy }, 'chart upstream failed')
        throw error
      })
      .finally(() => inFlight.delete(region))
    inFlight.set(region, pending)
  }
  return pending
}

const wait = (ms: number) => new Promise<null>((resolve) => setTimeout(resolve, ms, null))

export async function chartFor(
  db: Db,
  code: string,
  opts: { sourceUrl?: string; policy?: AddressPolicy; now?: Date; staleWaitMs?: number } = {},
): Promise<Chart> {
  if (!isChartRegion(code)) throw new NotFoundError(notFoundMessage(code))
  const now = opts.now ?? new Date()
  if (code === WORLDWIDE) return { region: code, source: 'local', ...(await cachedLocalChart(db, code, now)) }
  const region = code
  if (!opts.sourceUrl) return { region, source: 'local', ...(await cachedLocalChart(db, region, now)) }

  const copy = await cached(db, region, feedOrigin(opts.sourceUrl))
  if (copy && now.getTime() - copy.fetchedAt.getTime() < CACHE_MS) return { region, source: 'feed', ...copy.payload }

  const lastFailure = failedAt.get(region)
  if (lastFailure === undefined || now.getTime() - lastFailure >= FAILURE_BACKOFF_MS) {
    const pending = refresh(db, opts.sourceUrl, region, now, copy !== null, opts.policy)
    try {
      // No copy: wait for the upstream (its own timeout bounds this). A copy: wait a little, then
      // answer from it and let the refresh land in the cache for the next caller.
      const fresh = copy ? await Promise.race([pending, wait(opts.staleWaitMs ?? STALE_WAIT_MS)]) : await pending
      if (fresh) return { region, source: 'feed', ...fresh }
      pending.catch(() => {})
    } catch {
      // logged by refresh; fall through to the copy or the local chart
    }
  }
  if (copy) return { region, source: 'feed', ...copy.payload }
  return { region, source: 'local', ...(await cachedLocalChart(db, region, now)) }
}
