// Members' listening records (§3, CONTRACT §3 "Analytics"): play events and their updates,
// interactions and likes. The one writer of play events, whichever door a play comes in by: the
// web player's (createPlayEvent, then updates) and an app's scrobbles (recordReportedPlays). Times are server time; the device class comes from the User-Agent and
// the place from trusted request data, never from the client's word.
//
// A like is one fact however it arrives (CONTRACT §6 "Likes"): the player's like call, a `like`
// interaction and a play update with `liked` all write the one likes row of that member and track
// title (`recordLike`), and the list shows only what is liked now. Play events and interactions
// still keep their own record of the moment, which is what the admin analytics count.
import { TRPCError } from '@trpc/server'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { preparedFor } from '~/db/prepared'
import { interactions, likes, playEvents } from '~/db/schema'
import { newId } from '~/db/schema/columns'
import { classifyDevice } from '~/shared/player/device'
import type { z } from 'zod'
import { type InteractionSchema, type LikeSetSchema, type PlayEventCreateSchema, type PlayEventUpdateFields, SCROBBLE_SOURCE } from '~/shared/validators'
import type { ClientInfo } from '../http/client-info'

type CreateInput = z.output<typeof PlayEventCreateSchema>
type UpdateInput = z.output<typeof PlayEventUpdateFields>

export const PLAY_EVENT_NOT_FOUND = 'Play event not found'

// Recording a play is the busiest write (a row and its roll-up triggers, issue 13: < 2 ms): its
// statements are prepared once per database (decision 028's preparedFor), since preparing one
// also compiles the triggers (0.16 ms each time, measured in decision 036). Every column is a
// placeholder, the id too: a $defaultFn would run once, at preparation.
const PLAY_COLUMNS = [
  'id',
  'userId',
  'trackUrl',
  'title',
  'duration',
  'deviceType',
  'genre',
  'artist',
  'album',
  'year',
  'source',
  'playlistId',
  'previousTrack',
  'nextTrack',
  'sessionId',
  'sessionPosition',
  'networkType',
  'country',
  'region',
  'city',
  'startedAt',
  'updatedAt',
] as const
type PlayRow = { [K in (typeof PLAY_COLUMNS)[number]]: (typeof playEvents.$inferInsert)[K] | null }

const insertPlay = preparedFor((db) =>
  db
    .insert(playEvents)
    .values(Object.fromEntries(PLAY_COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as typeof playEvents.$inferInsert)
    .returning({ id: playEvents.id })
    .prepare(),
)

export function createPlayEvent(db: Db, userId: string, input: CreateInput, client: ClientInfo): { playEventId: string } {
  const fromAgent = classifyDevice(client.userAgent)
  const now = new Date()
  const row: PlayRow = {
    id: newId(),
    userId,
    trackUrl: input.trackUrl,
    title: input.title,
    duration: input.duration,
    deviceType: fromAgent === 'unknown' && input.deviceType ? input.deviceType : fromAgent,
    genre: input.genre ?? null,
    artist: input.artist ?? null,
    album: input.album ?? null,
    year: input.year ?? null,
    source: input.source,
    playlistId: input.playlistId ?? null,
    previousTrack: input.previousTrack ?? null,
    nextTrack: input.nextTrack ?? null,
    sessionId: input.sessionId ?? null,
    sessionPosition: input.sessionPosition ?? null,
    networkType: input.networkType,
    country: client.country,
    region: client.region,
    city: client.city,
    startedAt: now,
    updatedAt: now,
  }
  const inserted = insertPlay(db).get(row) as { id: string }
  return { playEventId: inserted.id }
}

// A play an app reports after the fact (an OpenSubsonic scrobble): a finished listen at the app's
// time. Its own statement, so the web player's insert above stays exactly as it is.
const REPORTED_COLUMNS = [...PLAY_COLUMNS, 'client', 'listenDuration', 'completed', 'endedAt'] as const
type ReportedRow = { [K in (typeof REPORTED_COLUMNS)[number]]: (typeof playEvents.$inferInsert)[K] | null }
const insertReported = preparedFor((db) =>
  db
    .insert(playEvents)
    .values(Object.fromEntries(REPORTED_COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as typeof playEvents.$inferInsert)
    .prepare(),
)

/**
 * How far an app's clock is believed. An app offline for a while sends its plays later with their
 * own times; two weeks covers a long trip (Last.fm keeps the same window), and anything older, a
 * time of 0 (1970) included, is not a play we can place. A clock a few minutes ahead is brought
 * back to now; further ahead is refused.
 */
export const REPORTED_PLAY_MAX_AGE_MS = 14 * 86_400_000
export const REPORTED_PLAY_FUTURE_SKEW_MS = 5 * 60_000
export const REPORTED_PLAY_TIME_RULE = 'must be within the last 14 days and not in the future (milliseconds since 1970)'

/** The time to record for a play reported at `at` (ms), or null when it is not plausible. */
export function reportedPlayTime(at: number, now: number): Date | null {
  if (at < now - REPORTED_PLAY_MAX_AGE_MS || at > now + REPORTED_PLAY_FUTURE_SKEW_MS) return null
  return new Date(Math.min(at, now))
}

export type ReportedPlay = {
  trackUrl: string
  title: string
  duration: number
  genre: string | null
  artist: string | null
  album: string | null
  year: number | null
  /** From reportedPlayTime. */
  at: Date
}

/** Records an app's plays in one transaction; `app` is its name (OpenSubsonic `c`), the place the request's. */
export function recordReportedPlays(db: Db, userId: string, plays: ReportedPlay[], from: { app: string | null; deviceType: string; client: ClientInfo }): void {
  const statement = insertReported(db)
  db.transaction(() => {
    for (const play of plays) {
      const row: ReportedRow = {
        id: newId(),
        userId,
        trackUrl: play.trackUrl,
        title: play.title,
        duration: play.duration,
        deviceType: from.deviceType,
        genre: play.genre,
        artist: play.artist,
        album: play.album,
        year: play.year,
        source: SCROBBLE_SOURCE,
        playlistId: null,
        previousTrack: null,
        nextTrack: null,
        sessionId: null,
        sessionPosition: null,
        networkType: 'unknown',
        country: from.client.country,
        region: from.client.region,
        city: from.client.city,
        startedAt: play.at,
        updatedAt: play.at,
        client: from.app,
        listenDuration: play.duration,
        completed: true,
        endedAt: play.at,
      }
      // Prepared on the same connection, so it runs inside this transaction.
      statement.run(row)
    }
  })
}

type UpdateSet = Partial<typeof playEvents.$inferInsert>
/**
 * One prepared update per shape of change: which columns, and which of them are cleared (a null is
 * written as such, not through the column's encoder: a timestamp's would fail on it).
 */
const updatesByShape = preparedFor(() => new Map<string, ReturnType<typeof prepareUpdate>>())
function prepareUpdate(db: Db, set: UpdateSet) {
  const shape = Object.fromEntries(Object.entries(set).map(([c, v]) => [c, v === null ? null : sql.placeholder(c)]))
  return db
    .update(playEvents)
    .set(shape as UpdateSet)
    .where(and(eq(playEvents.id, sql.placeholder('playEventId')), eq(playEvents.userId, sql.placeholder('userId'))))
    .returning({ id: playEvents.id, updatedAt: playEvents.updatedAt, title: playEvents.title, trackUrl: playEvents.trackUrl })
    .prepare()
}
function updateStatement(db: Db, set: UpdateSet) {
  const key = Object.keys(set)
    .sort()
    .map((c) => (set[c as keyof UpdateSet] === null ? `${c}=null` : c))
    .join(',')
  const statements = updatesByShape(db)
  let statement = statements.get(key)
  if (!statement) statements.set(key, (statement = prepareUpdate(db, set)))
  return statement
}

/** Applies an update to the caller's own play event; anyone else's is NOT_FOUND. */
export function updatePlayEvent(db: Db, userId: string, playEventId: string, input: UpdateInput) {
  const now = new Date()
  const set: UpdateSet = { updatedAt: now }
  if (input.listenDuration !== undefined) set.listenDuration = input.listenDuration
  if (input.completed !== undefined) set.completed = input.completed
  if (input.skipped !== undefined) set.skipped = input.skipped
  if (input.skipTime !== undefined) set.skipTime = input.skipTime
  if (input.liked !== undefined) set.liked = input.liked
  if (input.shared !== undefined) set.shared = input.shared
  if (input.repeated !== undefined) set.repeated = input.repeated
  if (input.bufferCount !== undefined) set.bufferCount = input.bufferCount
  if (input.qualityDrops !== undefined) set.qualityDrops = input.qualityDrops
  // The client's end time (queued updates arrive late) but never in the future.
  if (input.endedAt !== undefined) set.endedAt = input.endedAt === null ? null : new Date(Math.min(input.endedAt.getTime(), now.getTime()))
  const statement = updateStatement(db, set)
  const row = db.transaction((tx) => {
    // Prepared on the same connection as tx, so it runs inside this transaction.
    const updated = statement.get({ ...set, playEventId, userId })
    if (updated && input.liked !== undefined) recordLike(tx, userId, { trackKey: updated.title, trackUrl: updated.trackUrl, liked: input.liked, at: now })
    return updated
  })
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: PLAY_EVENT_NOT_FOUND })
  return { playEventId: row.id, updatedAt: row.updatedAt.toISOString() }
}

export function createInteraction(db: Db, userId: string, input: z.output<typeof InteractionSchema>) {
  const now = Date.now()
  // A client clock far off (or a replayed queue) cannot put interactions in the future.
  const at = input.timestamp ? Math.min(input.timestamp.getTime(), now) : now
  const row = db.transaction((tx) => {
    if (input.interactionType === 'like')
      recordLike(tx, userId, { trackKey: likedTitle(tx, userId, input.trackId), trackUrl: input.trackId, liked: true, at: new Date(now) })
    return tx
      .insert(interactions)
      .values({ userId, trackId: input.trackId, interactionType: input.interactionType, timestamp: new Date(at) })
      .returning({ id: interactions.id })
      .get()
  })
  return { interactionId: row.id }
}

/**
 * Likes are keyed by title, an interaction names only its track id (the play event's trackUrl):
 * the title is that of the member's latest play of it, else the id itself (a track never played).
 */
function likedTitle(db: Tx, userId: string, trackId: string): string {
  const play = db
    .select({ title: playEvents.title })
    .from(playEvents)
    .where(and(eq(playEvents.userId, userId), eq(playEvents.trackUrl, trackId)))
    .orderBy(desc(playEvents.startedAt))
    .limit(1)
    .get()
  return play?.title ?? trackId
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** The one writer of the likes table: the member's row for that title, switched on or off. */
function recordLike(db: Db | Tx, userId: string, like: { trackKey: string; trackUrl?: string | null; liked: boolean; at: Date }) {
  const { trackKey, trackUrl, liked, at } = like
  db.insert(likes)
    .values({ userId, trackKey, trackUrl, liked, updatedAt: at })
    .onConflictDoUpdate({ target: [likes.userId, likes.trackKey], set: { liked, updatedAt: at, ...(trackUrl ? { trackUrl } : {}) } })
    .run()
}

/** What the member likes now; an unliked title is not listed. */
export function listLikes(db: Db, userId: string) {
  const rows = db
    .select({ trackKey: likes.trackKey, liked: likes.liked, updatedAt: likes.updatedAt })
    .from(likes)
    .where(and(eq(likes.userId, userId), eq(likes.liked, true)))
    .all()
  // fromEntries defines own keys: assigning into {} would turn a title "__proto__" into the
  // object's prototype, dropping that like from the answer.
  return { likes: Object.fromEntries(rows.map((r) => [r.trackKey, { liked: r.liked, timestamp: r.updatedAt.getTime() }])) }
}

export function setLike(db: Db, userId: string, input: z.output<typeof LikeSetSchema>) {
  const now = new Date()
  recordLike(db, userId, { trackKey: input.title, trackUrl: input.trackUrl, liked: input.liked, at: now })
  return { title: input.title, liked: input.liked, timestamp: now.getTime() }
}
