// Podcasts (docs/decisions/078): members subscribe to feeds by URL; a channel is shared by every
// subscriber (one row per feed URL, refreshed once for all), progress is each member's own. Feeds
// and episode audio are fetched under the remote-folder address policy (remote/fetch.ts): private
// and loopback hosts refused unless the operator allows them, redirects checked, time and size
// capped. Every door (tRPC and REST for the web, /rest for apps) goes through these functions;
// their refusals are the domain errors of src/server/errors.ts.
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { tablesOf, type Tables } from '~/db/engine'
import type { PodcastChannel, PodcastEpisode } from '~/db/schema'
import { config } from '../config'
import { oncePerSchedule } from '../jobs/once-per-schedule'
import { ForbiddenError, InvalidError, NotFoundError } from '../errors'
import { logger } from '../logger'
import { FeedError, type Feed, parseFeed } from '../podcasts/feed'
import { remotePolicy } from '../remote'
import { fetchRemote, openRemoteStream, REMOTE_TIMEOUT_MS, RemoteError } from '../remote/fetch'

export const PODCAST_FEED_MAX_BYTES = 10 * 1024 * 1024
export const PODCAST_FEED_TIMEOUT_MS = 10_000
export const MAX_SUBSCRIPTIONS_PER_MEMBER = 500
export const CHANNEL_NOT_FOUND = 'Podcast not found'
export const EPISODE_NOT_FOUND = 'Episode not found'
export const FEEDS_BY = ['everyone', 'admins'] as const
export type FeedsBy = (typeof FEEDS_BY)[number]
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5'
const INSERT_CHUNK = 500

type Member = { id: string; isAdmin: boolean }

export type ChannelSummary = Pick<PodcastChannel, 'id' | 'feedUrl' | 'title' | 'author' | 'description' | 'artworkUrl' | 'siteUrl' | 'lastError'> & {
  checkedAt: number | null
  /** When the member last opened the channel (ms). */
  visitedAt: number
  episodeCount: number
  /** Episodes published since the member last opened the channel. */
  newCount: number
}

export type EpisodeView = {
  id: string
  channelId: string
  title: string
  publishedAt: number | null
  durationSec: number
  description: string
  enclosureType: string
  enclosureSize: number
  downloaded: boolean
  positionMs: number
  played: boolean
}

const newChannelId = () => `pc-${randomBytes(9).toString('hex')}`
/** Stable per feed item: a refresh updates the same row, a member's progress stays on it. */
const episodeIdOf = (channelId: string, guid: string) => `pe-${createHash('sha256').update(`${channelId}\n${guid}`).digest('hex').slice(0, 24)}`

// ---- settings ------------------------------------------------------------------------------

export async function feedsBy(db: Db): Promise<FeedsBy> {
  const { siteSettings } = tablesOf(db)
  const [row] = await db.select({ by: siteSettings.podcastFeedsBy }).from(siteSettings).where(eq(siteSettings.id, 1))
  return row?.by === 'admins' ? 'admins' : 'everyone'
}

export async function setFeedsBy(db: Db, by: FeedsBy): Promise<{ feedsBy: FeedsBy }> {
  const { siteSettings } = tablesOf(db)
  await db
    .insert(siteSettings)
    .values({ id: 1, podcastFeedsBy: by })
    .onConflictDoUpdate({ target: siteSettings.id, set: { podcastFeedsBy: by } })
  return { feedsBy: by }
}

// ---- fetching and storing ------------------------------------------------------------------

function normalisedFeedUrl(raw: string): string {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new InvalidError('Please enter a valid feed URL starting with http:// or https://', 'url')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidError('Only http:// and https:// feed URLs can be followed', 'url')
  url.hash = ''
  return url.href
}

type Fetched = { feed: Feed; etag: string | null; lastModified: string | null } | { notModified: true }

/** The feed at `url`, or notModified when the validators we hold still match. Refusals are 400s naming why. */
async function fetchFeed(url: string, conditional?: { etag: string | null; lastModified: string | null }): Promise<Fetched> {
  try {
    const res = await fetchRemote(url, remotePolicy(), {
      maxBytes: PODCAST_FEED_MAX_BYTES,
      timeoutMs: PODCAST_FEED_TIMEOUT_MS,
      accept: FEED_ACCEPT,
      what: 'feed',
      conditional,
    })
    if (res.notModified) return { notModified: true }
    return { feed: parseFeed(res.body, res.url), etag: res.etag, lastModified: res.lastModified }
  } catch (error) {
    if (error instanceof RemoteError || error instanceof FeedError) throw new InvalidError(error.message, 'url')
    throw error
  }
}

/** Writes the feed's episodes (new ones added, known ones updated in place) in chunks. */
async function storeEpisodes(db: Db, channelId: string, feed: Feed): Promise<void> {
  const { podcastEpisodes } = tablesOf(db)
  const rows = feed.episodes.map((e) => ({ id: episodeIdOf(channelId, e.guid), channelId, ...e }))
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insert(podcastEpisodes)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .onConflictDoUpdate({
        target: podcastEpisodes.id,
        set: {
          title: sql`excluded.title`,
          publishedAt: sql`excluded.published_at`,
          durationSec: sql`excluded.duration_sec`,
          description: sql`excluded.description`,
          enclosureUrl: sql`excluded.enclosure_url`,
          enclosureType: sql`excluded.enclosure_type`,
          enclosureSize: sql`excluded.enclosure_size`,
        },
      })
  }
}

const channelFields = (feed: Feed) => ({
  title: feed.title,
  author: feed.author,
  description: feed.description,
  artworkUrl: feed.artworkUrl,
  siteUrl: feed.siteUrl,
})

/** Adds a channel from a fetched feed (or finds it, when another member added the same URL meanwhile). */
async function addChannel(db: Db, feedUrl: string, fetched: Extract<Fetched, { feed: Feed }>): Promise<string> {
  const { podcastChannels } = tablesOf(db)
  const id = newChannelId()
  const inserted = await db
    .insert(podcastChannels)
    .values({ id, feedUrl, ...channelFields(fetched.feed), etag: fetched.etag, lastModified: fetched.lastModified, checkedAt: new Date() })
    .onConflictDoNothing({ target: podcastChannels.feedUrl })
    .returning({ id: podcastChannels.id })
  if (!inserted.length) return (await channelIdByUrl(db, feedUrl)) as string
  await storeEpisodes(db, id, fetched.feed)
  return id
}

async function channelIdByUrl(db: Db, feedUrl: string): Promise<string | null> {
  const { podcastChannels } = tablesOf(db)
  const [row] = await db.select({ id: podcastChannels.id }).from(podcastChannels).where(eq(podcastChannels.feedUrl, feedUrl))
  return row?.id ?? null
}

/**
 * Subscribes the member to the feed at `url`: a feed no one follows yet is fetched and stored
 * first (a refused address, an unreadable or hostile feed is a 400 and stores nothing).
 */
export async function subscribe(db: Db, member: Member, url: string): Promise<ChannelSummary> {
  const { podcastSubscriptions } = tablesOf(db)
  const feedUrl = normalisedFeedUrl(url)
  let channelId = await channelIdByUrl(db, feedUrl)
  if (!channelId) {
    if (!member.isAdmin && (await feedsBy(db)) === 'admins') throw new ForbiddenError('Only admins may add new podcast feeds on this server')
    const fetched = await fetchFeed(feedUrl)
    if ('notModified' in fetched) throw new InvalidError('The feed answered without content', 'url')
    channelId = await addChannel(db, feedUrl, fetched)
  }
  const [{ n }] = await db.select({ n: count() }).from(podcastSubscriptions).where(eq(podcastSubscriptions.userId, member.id))
  if (n >= MAX_SUBSCRIPTIONS_PER_MEMBER) throw new InvalidError(`You can follow at most ${MAX_SUBSCRIPTIONS_PER_MEMBER} podcasts`, 'url')
  await db.insert(podcastSubscriptions).values({ userId: member.id, channelId }).onConflictDoNothing()
  return channelSummary(db, member.id, channelId)
}

/** Ends the member's subscription; a channel no one follows any more goes, with its downloads. */
export async function unsubscribe(db: Db, userId: string, channelId: string): Promise<{ ok: true }> {
  const { podcastChannels, podcastEpisodes, podcastSubscriptions } = tablesOf(db)
  const gone = await db
    .delete(podcastSubscriptions)
    .where(and(eq(podcastSubscriptions.userId, userId), eq(podcastSubscriptions.channelId, channelId)))
    .returning({ channelId: podcastSubscriptions.channelId })
  if (!gone.length) throw new NotFoundError(CHANNEL_NOT_FOUND)
  const [{ n }] = await db.select({ n: count() }).from(podcastSubscriptions).where(eq(podcastSubscriptions.channelId, channelId))
  if (n === 0) {
    const files = await db
      .select({ file: podcastEpisodes.downloadFile })
      .from(podcastEpisodes)
      .where(and(eq(podcastEpisodes.channelId, channelId), isNotNull(podcastEpisodes.downloadFile)))
    for (const { file } of files) if (file) removeDownloadFile(file)
    await db.delete(podcastChannels).where(eq(podcastChannels.id, channelId))
  }
  return { ok: true }
}

export type RefreshResult = { channelId: string; changed: boolean; error: string | null }

/** Checks one channel's feed with the validators of the last answer; a failure is kept on the channel. */
export async function refreshChannel(db: Db, channelId: string): Promise<RefreshResult> {
  const { podcastChannels } = tablesOf(db)
  const [channel] = await db.select().from(podcastChannels).where(eq(podcastChannels.id, channelId))
  if (!channel) throw new NotFoundError(CHANNEL_NOT_FOUND)
  try {
    const fetched = await fetchFeed(channel.feedUrl, { etag: channel.etag, lastModified: channel.lastModified })
    if ('notModified' in fetched) {
      await db.update(podcastChannels).set({ checkedAt: new Date(), lastError: null }).where(eq(podcastChannels.id, channelId))
      return { channelId, changed: false, error: null }
    }
    await storeEpisodes(db, channelId, fetched.feed)
    await db
      .update(podcastChannels)
      .set({ ...channelFields(fetched.feed), etag: fetched.etag, lastModified: fetched.lastModified, checkedAt: new Date(), lastError: null })
      .where(eq(podcastChannels.id, channelId))
    return { channelId, changed: true, error: null }
  } catch (error) {
    if (!(error instanceof InvalidError)) throw error
    await db.update(podcastChannels).set({ checkedAt: new Date(), lastError: error.message }).where(eq(podcastChannels.id, channelId))
    return { channelId, changed: false, error: error.message }
  }
}

/** A member's "refresh": their own channels (an admin's: every channel). */
export async function refreshForMember(db: Db, member: Member, channelId?: string): Promise<RefreshResult[]> {
  const { podcastChannels, podcastSubscriptions } = tablesOf(db)
  if (channelId) {
    await requireAccess(db, member, channelId)
    return [await refreshChannel(db, channelId)]
  }
  const ids = member.isAdmin
    ? await db.select({ id: podcastChannels.id }).from(podcastChannels)
    : await db.select({ id: podcastSubscriptions.channelId }).from(podcastSubscriptions).where(eq(podcastSubscriptions.userId, member.id))
  return refreshMany(
    db,
    ids.map((r) => r.id),
  )
}

/** Refreshes channels a few at a time. */
export async function refreshMany(db: Db, ids: string[], concurrency = 4): Promise<RefreshResult[]> {
  const results: RefreshResult[] = []
  let next = 0
  const worker = async () => {
    while (next < ids.length) results.push(await refreshChannel(db, ids[next++]))
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker))
  return results
}

/**
 * The scheduled refresh: every channel, every PODCAST_REFRESH_MINUTES (0 turns it off), at the
 * start of each period on one node of all that share the database (jobs/once-per-schedule.ts,
 * docs/decisions/090), so a feed is fetched once per period however many nodes run.
 */
export function startPodcastRefresh(db: Db): void {
  const minutes = config.PODCAST_REFRESH_MINUTES
  if (!minutes) return
  const run = async () => {
    const { podcastChannels } = tablesOf(db)
    const ids = await db.select({ id: podcastChannels.id }).from(podcastChannels)
    const results = await refreshMany(
      db,
      ids.map((r) => r.id),
    )
    const failed = results.filter((r) => r.error).length
    if (results.length) logger.info({ channels: results.length, failed }, 'podcast feeds refreshed')
  }
  oncePerSchedule(db, { name: 'podcast-refresh', periodMs: minutes * 60_000, run })
}

// ---- reading -------------------------------------------------------------------------------

export async function requireAccess(db: Db, member: Member, channelId: string): Promise<void> {
  const { podcastChannels, podcastSubscriptions } = tablesOf(db)
  if (member.isAdmin) {
    const [row] = await db.select({ id: podcastChannels.id }).from(podcastChannels).where(eq(podcastChannels.id, channelId))
    if (row) return
  } else {
    const [row] = await db
      .select({ id: podcastSubscriptions.channelId })
      .from(podcastSubscriptions)
      .where(and(eq(podcastSubscriptions.userId, member.id), eq(podcastSubscriptions.channelId, channelId)))
    if (row) return
  }
  throw new NotFoundError(CHANNEL_NOT_FOUND)
}

const summarySelect = ({ podcastChannels, podcastSubscriptions }: Tables) => ({
  id: podcastChannels.id,
  feedUrl: podcastChannels.feedUrl,
  title: podcastChannels.title,
  author: podcastChannels.author,
  description: podcastChannels.description,
  artworkUrl: podcastChannels.artworkUrl,
  siteUrl: podcastChannels.siteUrl,
  lastError: podcastChannels.lastError,
  checkedAt: podcastChannels.checkedAt,
  visitedAt: podcastSubscriptions.visitedAt,
  episodeCount: sql<number>`(SELECT count(*) FROM podcast_episodes e WHERE e.channel_id = ${podcastChannels.id})`.mapWith(Number),
  newCount:
    sql<number>`(SELECT count(*) FROM podcast_episodes e WHERE e.channel_id = ${podcastChannels.id} AND e.published_at > ${podcastSubscriptions.visitedAt})`.mapWith(
      Number,
    ),
})

type SummaryRow = { checkedAt: Date | null; visitedAt: Date } & Omit<ChannelSummary, 'checkedAt' | 'visitedAt'>
const toSummary = ({ checkedAt, visitedAt, ...row }: SummaryRow): ChannelSummary => ({
  ...row,
  checkedAt: checkedAt ? checkedAt.getTime() : null,
  visitedAt: visitedAt.getTime(),
})

/** The member's podcasts, by title. */
export async function listChannels(db: Db, userId: string): Promise<ChannelSummary[]> {
  const { podcastChannels, podcastSubscriptions } = tablesOf(db)
  const rows = await db
    .select(summarySelect(tablesOf(db)))
    .from(podcastSubscriptions)
    .innerJoin(podcastChannels, eq(podcastChannels.id, podcastSubscriptions.channelId))
    .where(eq(podcastSubscriptions.userId, userId))
    .orderBy(asc(sql`lower(${podcastChannels.title})`))
  return rows.map(toSummary)
}

export async function channelSummary(db: Db, userId: string, channelId: string): Promise<ChannelSummary> {
  const { podcastChannels, podcastSubscriptions } = tablesOf(db)
  const [row] = await db
    .select(summarySelect(tablesOf(db)))
    .from(podcastSubscriptions)
    .innerJoin(podcastChannels, eq(podcastChannels.id, podcastSubscriptions.channelId))
    .where(and(eq(podcastSubscriptions.userId, userId), eq(podcastSubscriptions.channelId, channelId)))
  if (!row) throw new NotFoundError(CHANNEL_NOT_FOUND)
  return toSummary(row)
}

/** The member has opened the channel: its episodes so far are no longer new to them. */
export async function markVisited(db: Db, userId: string, channelId: string, at = new Date()): Promise<{ ok: true }> {
  const { podcastSubscriptions } = tablesOf(db)
  const done = await db
    .update(podcastSubscriptions)
    .set({ visitedAt: at })
    .where(and(eq(podcastSubscriptions.userId, userId), eq(podcastSubscriptions.channelId, channelId)))
    .returning({ id: podcastSubscriptions.channelId })
  if (!done.length) throw new NotFoundError(CHANNEL_NOT_FOUND)
  return { ok: true }
}

const episodeSelect = ({ podcastEpisodes, podcastProgress }: Tables) => ({
  id: podcastEpisodes.id,
  channelId: podcastEpisodes.channelId,
  title: podcastEpisodes.title,
  publishedAt: podcastEpisodes.publishedAt,
  durationSec: podcastEpisodes.durationSec,
  description: podcastEpisodes.description,
  enclosureType: podcastEpisodes.enclosureType,
  enclosureSize: podcastEpisodes.enclosureSize,
  downloadFile: podcastEpisodes.downloadFile,
  positionMs: sql<number | null>`${podcastProgress.positionMs}`,
  played: sql<unknown>`${podcastProgress.played}`,
})

type EpisodeRow = { publishedAt: Date | null; downloadFile: string | null; positionMs: number | null; played: unknown } & Omit<
  EpisodeView,
  'publishedAt' | 'downloaded' | 'positionMs' | 'played'
>

const toEpisode = ({ publishedAt, downloadFile, positionMs, played, ...row }: EpisodeRow): EpisodeView => ({
  ...row,
  publishedAt: publishedAt ? publishedAt.getTime() : null,
  downloaded: downloadFile !== null,
  positionMs: Number(positionMs ?? 0),
  played: played === true || played === 1 || played === '1',
})

function episodesQuery(db: Db, userId: string) {
  const { podcastEpisodes, podcastProgress } = tablesOf(db)
  return db
    .select(episodeSelect(tablesOf(db)))
    .from(podcastEpisodes)
    .leftJoin(podcastProgress, and(eq(podcastProgress.episodeId, podcastEpisodes.id), eq(podcastProgress.userId, userId)))
}

export const EPISODE_PAGE_MAX = 500

/** A page of the channel's episodes, newest first; `search` keeps those whose title or description holds it. */
export async function listEpisodes(
  db: Db,
  member: Member,
  input: { channelId: string; search?: string; offset?: number; limit?: number },
): Promise<{ total: number; episodes: EpisodeView[] }> {
  const { podcastEpisodes } = tablesOf(db)
  await requireAccess(db, member, input.channelId)
  const words = input.search?.trim().toLowerCase()
  const pattern = words ? `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
  const where = and(
    eq(podcastEpisodes.channelId, input.channelId),
    pattern
      ? or(sql`lower(${podcastEpisodes.title}) LIKE ${pattern} ESCAPE '\\'`, sql`lower(${podcastEpisodes.description}) LIKE ${pattern} ESCAPE '\\'`)
      : undefined,
  )
  const [{ total }] = await db.select({ total: count() }).from(podcastEpisodes).where(where)
  const rows = await episodesQuery(db, member.id)
    .where(where)
    .orderBy(sql`${podcastEpisodes.publishedAt} IS NULL`, desc(podcastEpisodes.publishedAt), asc(podcastEpisodes.id))
    .limit(Math.min(input.limit ?? 100, EPISODE_PAGE_MAX))
    .offset(input.offset ?? 0)
  return { total, episodes: rows.map(toEpisode) }
}

/** The newest episodes across the member's podcasts. */
export async function newestEpisodes(db: Db, userId: string, limit: number): Promise<EpisodeView[]> {
  const { podcastEpisodes, podcastSubscriptions } = tablesOf(db)
  const rows = await episodesQuery(db, userId)
    .innerJoin(podcastSubscriptions, and(eq(podcastSubscriptions.channelId, podcastEpisodes.channelId), eq(podcastSubscriptions.userId, userId)))
    .where(isNotNull(podcastEpisodes.publishedAt))
    .orderBy(desc(podcastEpisodes.publishedAt))
    .limit(limit)
  return rows.map(toEpisode)
}

/** One episode the member may reach (their channel's; an admin's: any), with their progress. */
export async function episodeFor(db: Db, member: Member, episodeId: string): Promise<EpisodeView & { enclosureUrl: string; downloadFile: string | null }> {
  const { podcastEpisodes } = tablesOf(db)
  const [row] = await episodesQuery(db, member.id).where(eq(podcastEpisodes.id, episodeId))
  const [raw] = await db.select().from(podcastEpisodes).where(eq(podcastEpisodes.id, episodeId))
  if (!row || !raw) throw new NotFoundError(EPISODE_NOT_FOUND)
  await requireAccess(db, member, raw.channelId).catch(() => {
    throw new NotFoundError(EPISODE_NOT_FOUND)
  })
  return { ...toEpisode(row), enclosureUrl: raw.enclosureUrl, downloadFile: raw.downloadFile }
}

/** Episodes of several channels for the member (getPodcasts with episodes). */
export async function episodesOfChannels(db: Db, userId: string, channelIds: string[]): Promise<EpisodeView[]> {
  const { podcastEpisodes } = tablesOf(db)
  if (!channelIds.length) return []
  const rows = await episodesQuery(db, userId).where(inArray(podcastEpisodes.channelId, channelIds)).orderBy(desc(podcastEpisodes.publishedAt))
  return rows.map(toEpisode)
}

// ---- progress ------------------------------------------------------------------------------

export const POSITION_MAX_MS = 7 * 86_400_000

/** Saves where the member is in an episode (and whether they finished it); any device resumes there. */
export async function saveProgress(
  db: Db,
  member: Member,
  input: { episodeId: string; positionMs: number; played?: boolean },
): Promise<{ positionMs: number; played: boolean }> {
  const { podcastProgress } = tablesOf(db)
  await episodeFor(db, member, input.episodeId)
  const positionMs = Math.round(input.positionMs)
  if (!Number.isFinite(positionMs) || positionMs < 0 || positionMs > POSITION_MAX_MS)
    throw new InvalidError(`position must be between 0 and ${POSITION_MAX_MS} ms`, 'positionMs')
  const set = { positionMs, updatedAt: new Date(), ...(input.played === undefined ? {} : { played: input.played }) }
  await db
    .insert(podcastProgress)
    .values({ userId: member.id, episodeId: input.episodeId, played: input.played ?? false, ...set })
    .onConflictDoUpdate({ target: [podcastProgress.userId, podcastProgress.episodeId], set })
  const [row] = await db
    .select({ positionMs: podcastProgress.positionMs, played: podcastProgress.played })
    .from(podcastProgress)
    .where(and(eq(podcastProgress.userId, member.id), eq(podcastProgress.episodeId, input.episodeId)))
  return row
}

/** The episodes the member is part way through, most recently moved first (apps see them as bookmarks). */
export async function episodesInProgress(
  db: Db,
  userId: string,
): Promise<Array<EpisodeView & { updatedAt: number; channel: { title: string; author: string } }>> {
  const { podcastChannels, podcastEpisodes, podcastProgress, podcastSubscriptions } = tablesOf(db)
  const rows = await db
    .select({
      ...episodeSelect(tablesOf(db)),
      updatedAt: podcastProgress.updatedAt,
      channelTitle: podcastChannels.title,
      channelAuthor: podcastChannels.author,
    })
    .from(podcastProgress)
    .innerJoin(podcastEpisodes, eq(podcastEpisodes.id, podcastProgress.episodeId))
    .innerJoin(podcastChannels, eq(podcastChannels.id, podcastEpisodes.channelId))
    .innerJoin(podcastSubscriptions, and(eq(podcastSubscriptions.channelId, podcastEpisodes.channelId), eq(podcastSubscriptions.userId, userId)))
    .where(and(eq(podcastProgress.userId, userId), sql`${podcastProgress.positionMs} > 0`, eq(podcastProgress.played, false)))
    .orderBy(desc(podcastProgress.updatedAt))
  return rows.map(({ updatedAt, channelTitle, channelAuthor, ...row }) => ({
    ...toEpisode(row),
    updatedAt: updatedAt.getTime(),
    channel: { title: channelTitle, author: channelAuthor },
  }))
}

/** Forgets the member's place in an episode (it starts from the beginning again). */
export async function clearProgress(db: Db, member: Member, episodeId: string): Promise<void> {
  const { podcastProgress } = tablesOf(db)
  await episodeFor(db, member, episodeId)
  await db.delete(podcastProgress).where(and(eq(podcastProgress.userId, member.id), eq(podcastProgress.episodeId, episodeId)))
}

// ---- audio: relayed from the source, or the download -----------------------------------------

export const downloadsDir = () => path.join(config.DATA_DIR, 'podcasts')

function removeDownloadFile(file: string) {
  rmSync(path.join(downloadsDir(), path.basename(file)), { force: true })
}

const RELAYED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag']

/** The episode's audio for a listener: its download when there is one, else relayed from its source with the listener's Range. */
export async function episodeAudio(db: Db, member: Member, episodeId: string, request: Request): Promise<Response> {
  const episode = await episodeFor(db, member, episodeId)
  const range = request.headers.get('range')
  if (episode.downloadFile) {
    const file = Bun.file(path.join(downloadsDir(), path.basename(episode.downloadFile)))
    if (await file.exists()) return fileAnswer(file, episode.enclosureType, range)
  }
  let remote: Awaited<ReturnType<typeof openRemoteStream>>
  try {
    const headers: Record<string, string> = { accept: '*/*', ...(range ? { range } : {}) }
    remote = await openRemoteStream(episode.enclosureUrl, remotePolicy(), headers, { connectMs: REMOTE_TIMEOUT_MS, signal: request.signal })
  } catch (error) {
    if (error instanceof RemoteError) throw new InvalidError(error.message, 'episode')
    throw error
  }
  const headers = new Headers({ 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' })
  for (const name of RELAYED_HEADERS) {
    const value = remote.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  // Only audio and video reach the page: a source answering HTML is not played as anything else.
  const type = headers.get('content-type') ?? ''
  if (!/^(audio|video)\//i.test(type) && !/octet-stream/i.test(type)) headers.set('content-type', episode.enclosureType)
  request.signal?.addEventListener('abort', () => remote.body.destroy(), { once: true })
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      remote.body.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)))
      remote.body.on('end', () => controller.close())
      remote.body.on('error', () => controller.error(new Error('The source closed the connection')))
    },
    cancel() {
      remote.body.destroy()
    },
  })
  return new Response(request.method === 'HEAD' ? null : body, { status: remote.status, headers })
}

function fileAnswer(file: ReturnType<typeof Bun.file>, type: string, range: string | null): Response {
  const size = file.size
  const headers = { 'content-type': type, 'accept-ranges': 'bytes', 'cache-control': 'private, no-store' }
  const m = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null
  if (!m || (!m[1] && !m[2])) return new Response(file, { headers: { ...headers, 'content-length': String(size) } })
  let start = m[1] ? Number(m[1]) : Math.max(0, size - Number(m[2]))
  let end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1
  if (start >= size || start > end) return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } })
  start = Math.max(0, start)
  end = Math.max(start, end)
  return new Response(file.slice(start, end + 1), {
    status: 206,
    headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end - start + 1) },
  })
}

/** Bytes the downloads may take (PODCAST_DOWNLOAD_QUOTA_MB). */
export const downloadQuotaBytes = () => config.PODCAST_DOWNLOAD_QUOTA_MB * 1024 * 1024

/**
 * Downloads an episode into DATA_DIR/podcasts (a member of its channel or an admin asks); beyond
 * the quota, the downloads played longest ago go first, then the oldest unplayed ones.
 */
export async function downloadEpisode(db: Db, member: Member, episodeId: string): Promise<{ downloaded: true; size: number }> {
  const { podcastEpisodes } = tablesOf(db)
  const episode = await episodeFor(db, member, episodeId)
  if (episode.downloadFile) return { downloaded: true, size: statSync(path.join(downloadsDir(), episode.downloadFile), { throwIfNoEntry: false })?.size ?? 0 }
  const quota = downloadQuotaBytes()
  if (quota <= 0) throw new InvalidError('Podcast downloads are turned off on this server (PODCAST_DOWNLOAD_QUOTA_MB=0)', 'episode')
  mkdirSync(downloadsDir(), { recursive: true, mode: 0o700 })
  const file = `${episodeId}.audio`
  const target = path.join(downloadsDir(), file)
  try {
    const remote = await openRemoteStream(episode.enclosureUrl, remotePolicy(), { accept: '*/*' }, { connectMs: REMOTE_TIMEOUT_MS })
    const declared = Number(remote.headers['content-length'] ?? NaN)
    if (declared > quota) {
      remote.body.destroy()
      throw new RemoteError('The episode is larger than the download quota')
    }
    let written = 0
    remote.body.on('data', (chunk: Buffer) => {
      written += chunk.length
      if (written > quota) remote.body.destroy(new RemoteError('The episode is larger than the download quota'))
    })
    await pipeline(remote.body, createWriteStream(target, { mode: 0o600 }))
  } catch (error) {
    rmSync(target, { force: true })
    if (error instanceof RemoteError) throw new InvalidError(error.message, 'episode')
    throw new InvalidError('The episode could not be downloaded: the source closed the connection', 'episode')
  }
  await db.update(podcastEpisodes).set({ downloadFile: file, downloadedAt: new Date() }).where(eq(podcastEpisodes.id, episodeId))
  await enforceQuota(db, episodeId)
  return { downloaded: true, size: statSync(target, { throwIfNoEntry: false })?.size ?? 0 }
}

/** Removes a download (the episode then streams from its source again). */
export async function deleteDownload(db: Db, member: Member, episodeId: string): Promise<{ downloaded: false }> {
  const { podcastEpisodes } = tablesOf(db)
  const episode = await episodeFor(db, member, episodeId)
  if (episode.downloadFile) removeDownloadFile(episode.downloadFile)
  await db.update(podcastEpisodes).set({ downloadFile: null, downloadedAt: null }).where(eq(podcastEpisodes.id, episodeId))
  return { downloaded: false }
}

/** Drops downloads until they fit the quota: played ones first (longest ago first), then the oldest downloads; never `keep`. */
async function enforceQuota(db: Db, keep: string): Promise<void> {
  const { podcastEpisodes } = tablesOf(db)
  const quota = downloadQuotaBytes()
  const rows = await db
    .select({
      id: podcastEpisodes.id,
      file: podcastEpisodes.downloadFile,
      downloadedAt: podcastEpisodes.downloadedAt,
      lastPlayed: sql<number | null>`(SELECT max(p.updated_at) FROM podcast_progress p WHERE p.episode_id = ${podcastEpisodes.id} AND p.played)`,
    })
    .from(podcastEpisodes)
    .where(isNotNull(podcastEpisodes.downloadFile))
  const sized = rows.map((r) => ({ ...r, size: statSync(path.join(downloadsDir(), r.file ?? ''), { throwIfNoEntry: false })?.size ?? 0 }))
  let total = sized.reduce((sum, r) => sum + r.size, 0)
  const order = sized
    .filter((r) => r.id !== keep)
    .sort((a, b) => {
      if ((a.lastPlayed === null) !== (b.lastPlayed === null)) return a.lastPlayed === null ? 1 : -1
      if (a.lastPlayed !== null && b.lastPlayed !== null) return Number(a.lastPlayed) - Number(b.lastPlayed)
      return (a.downloadedAt?.getTime() ?? 0) - (b.downloadedAt?.getTime() ?? 0)
    })
  for (const r of order) {
    if (total <= quota) break
    if (r.file) removeDownloadFile(r.file)
    await db.update(podcastEpisodes).set({ downloadFile: null, downloadedAt: null }).where(eq(podcastEpisodes.id, r.id))
    total -= r.size
  }
}

export type { PodcastEpisode }
