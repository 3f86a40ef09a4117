// Members' listening records, stored per member with server time: play events and their updates,
// interactions and likes. Every door writes through the one function of each here, supplying only
// what is its own: the web player's tRPC procedure and its REST path (POST /api/playlist/plays) and
// an app's /rest scrobble all call recordPlay; updates, interactions and likes have one writer each.
// Both plays and their updates queue what the member's scrobbling services get (services/scrobbling.ts).
// The rules live here, not at the doors: times are server time (a reported play's own time only
// within REPORTED_PLAY_MAX_AGE_MS), the device class comes from the User-Agent (the door's guess
// only when it names none), the place from trusted request data, and every track is stored under
// its track key (catalog/track-key.ts), never under a signed media link.
//
// A like is one fact however it arrives: the player's like call, a /rest
// star, a `like` interaction and a play update with `liked` all write the one likes row of that
// member and track title (`recordLike`), and the list shows only what is liked now. Play events and
// interactions still keep their own record of the moment, which is what the admin analytics count.
import { NotFoundError } from '../errors'
import { and, desc, eq, sql } from 'drizzle-orm'
import { type Db, isPostgres, tablesOf, transaction } from '~/db/engine'
import { preparedFor } from '~/db/prepared'
import { playEvents } from '~/db/schema'
import { newId } from '~/db/schema/columns'
import { classifyDevice, type DeviceType } from '~/shared/player/device'
import type { z } from 'zod'
import type { InteractionSchema, LikeSetSchema, PlayEventUpdateFields } from '~/shared/validators'
import { addressKey, type ClientInfo } from '../http/client-info'
import { trackKey } from '../catalog/track-key'
import { takeToken } from '../http/rate-limit'
import { sharedLimiter } from '../http/shared-rate-limit'
import { queueScrobblesInBackground } from './scrobbling'

type UpdateInput = z.output<typeof PlayEventUpdateFields>

export const PLAY_EVENT_NOT_FOUND = 'Play event not found'

/**
 * A play as a door hands it over: the track and what the door knows of the moment. The web
 * player's validated create input is one as it is; an app's scrobble sets `app`, its `deviceType`
 * guess and `finishedAt`.
 */
export type PlayFacts = {
  trackUrl: string
  title: string
  duration: number
  genre?: string | null
  artist?: string | null
  album?: string | null
  year?: number | null
  /** The player's source (repeat, shuffle, direct, playlist), SCROBBLE_SOURCE or SHARE_SOURCE. */
  source: string
  /** The door's guess of the device class, used only when the User-Agent names none. */
  deviceType?: DeviceType | null
  /** The app that reported the play (OpenSubsonic `c`); none for the web player. */
  app?: string | null
  playlistId?: string | null
  previousTrack?: string | null
  nextTrack?: string | null
  sessionId?: string | null
  sessionPosition?: number | null
  networkType?: string
  /** When a play still under way began by the client's clock (a play queued offline arrives
   *  late): kept when reportedPlayTime finds it plausible, else the server's time. */
  startedAt?: Date
  /** A play reported once it was over (from reportedPlayTime): listened through, at that time. */
  finishedAt?: Date
  /** The client's key for this play: a second send with the same key (its answer was lost) is
   *  not a second play; it answers the first one's id (docs/decisions/107). */
  clientPlayId?: string | null
}

// Recording a play is the busiest write (a row and its roll-up triggers; the goal is < 2 ms): on
// SQLite its statement is prepared once per database (decision 028's preparedFor), since preparing
// one also compiles the triggers (0.16 ms each time, measured in decision 036). Every column is a
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
  'client',
  'playlistId',
  'previousTrack',
  'nextTrack',
  'sessionId',
  'sessionPosition',
  'networkType',
  'country',
  'region',
  'city',
  'listenDuration',
  'completed',
  'startedAt',
  'updatedAt',
  'clientPlayId',
] as const
type PlayRow = { [K in Exclude<(typeof PLAY_COLUMNS)[number], 'id'>]: (typeof playEvents.$inferInsert)[K] | null } & { id: string; endedAt: Date | null }

// A play whose member already has one with its client key is not inserted (ON CONFLICT DO
// NOTHING: the only unique index a new row can meet is the member's key's, its id being new), so
// no roll-up trigger counts it, and nothing is returned. Atomic on both engines: of two sends
// racing on two nodes, PostgreSQL makes the second wait for the first to commit, then skips it.
// SQLite: the end time is bound as epoch ms, past the column's encoder, which fails on the null of
// a play still under way.
const insertSqlitePlay = preparedFor((db) =>
  db
    .insert(playEvents)
    .values({
      ...(Object.fromEntries(PLAY_COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as typeof playEvents.$inferInsert),
      endedAt: sql`${sql.placeholder('endedAtMs')}`,
    })
    .onConflictDoNothing()
    .returning({ id: playEvents.id })
    .prepare(),
)

/**
 * Writes one play row, unless the member already has the play of its client key: the id of the
 * play stored. The roll-up triggers of either engine count a new row in the same statement.
 */
async function insertPlay(db: Db, row: PlayRow): Promise<string> {
  let inserted: { id: string } | undefined
  if (isPostgres(db)) {
    // PostgreSQL: a plain insert (the pool prepares and keeps the statement itself).
    const { playEvents: plays } = tablesOf(db)
    ;[inserted] = await db
      .insert(plays)
      .values(row as typeof playEvents.$inferInsert)
      .onConflictDoNothing()
      .returning({ id: plays.id })
  }
  // SQLite: the prepared statement.
  else inserted = insertSqlitePlay(db).get({ ...row, endedAtMs: row.endedAt?.getTime() ?? null })
  if (inserted) return inserted.id
  const existing = row.userId && row.clientPlayId ? await playOfClientKey(db, row.userId, row.clientPlayId) : undefined
  // Only a key can meet an existing play; an id of our own making that did would be a bug.
  if (!existing) throw new Error(`Play ${row.id} was not recorded: its id is taken`)
  return existing
}

/** The id of the member's play sent with this client key, if there is one. */
async function playOfClientKey(db: Db, userId: string, clientPlayId: string): Promise<string | undefined> {
  const { playEvents: plays } = tablesOf(db)
  const [row] = await db
    .select({ id: plays.id })
    .from(plays)
    .where(and(eq(plays.userId, userId), eq(plays.clientPlayId, clientPlayId)))
  return row?.id
}

const trackKeyOrNull = (url: string | null | undefined) => (url ? trackKey(url) : null)

/** The row of a play as a door hands it over, with the server's rules applied. */
function playRow(userId: string | null, play: PlayFacts, client: ClientInfo, id: string = newId()): PlayRow {
  const fromAgent = classifyDevice(client.userAgent)
  const at = play.finishedAt ?? (play.startedAt && reportedPlayTime(play.startedAt.getTime(), Date.now())) ?? new Date()
  return {
    id,
    userId,
    trackUrl: trackKey(play.trackUrl),
    title: play.title,
    duration: play.duration,
    deviceType: fromAgent === 'unknown' && play.deviceType ? play.deviceType : fromAgent,
    genre: play.genre ?? null,
    artist: play.artist ?? null,
    album: play.album ?? null,
    year: play.year ?? null,
    source: play.source,
    client: play.app ?? null,
    playlistId: play.playlistId ?? null,
    previousTrack: trackKeyOrNull(play.previousTrack),
    nextTrack: trackKeyOrNull(play.nextTrack),
    sessionId: play.sessionId ?? null,
    sessionPosition: play.sessionPosition ?? null,
    networkType: play.networkType ?? 'unknown',
    country: client.country,
    region: client.region,
    city: client.city,
    listenDuration: play.finishedAt ? play.duration : 0,
    completed: play.finishedAt !== undefined,
    startedAt: at,
    updatedAt: at,
    endedAt: play.finishedAt ?? null,
    // Keys are per member; a visitor without an account has none to be matched under.
    clientPlayId: userId ? (play.clientPlayId ?? null) : null,
  }
}

/**
 * The one writer of play events, whichever door the play came in by; `client` is the request's.
 * `userId` is null for a visitor without an account (a play through a share link).
 */
export async function recordPlay(
  db: Db,
  userId: string | null,
  play: PlayFacts,
  client: ClientInfo,
  /** Chosen by the caller when it claimed the id before writing (an app's playback session, decision 100). */
  playEventId: string = newId(),
): Promise<{ playEventId: string }> {
  const row = playRow(userId, play, client, playEventId)
  const stored = await insertPlay(db, row)
  // A repeat of a play already recorded: that play's answer, nothing new to send anywhere.
  if (stored !== row.id) return { playEventId: stored }
  // After the write: a play is sent to the member's scrobbling services from the queue, in the
  // background, never holding up the play or the request.
  queueScrobblesInBackground(db, userId, row.id, play.finishedAt === undefined)
  return { playEventId: row.id }
}

/** Records a batch of plays (an app's queued scrobbles) all or none. */
export async function recordPlays(db: Db, userId: string, plays: PlayFacts[], client: ClientInfo): Promise<void> {
  const written = plays.map((play) => playRow(userId, play, client))
  await transaction(db, async (tx) => {
    for (const row of written) await insertPlay(tx, row)
  })
  // Once committed, so that another connection (PostgreSQL's pool) finds the rows.
  for (const [i, row] of written.entries()) queueScrobblesInBackground(db, userId, row.id, plays[i].finishedAt === undefined)
}

/**
 * Counts `plays` plays against the play-event limit of the client's address (the `events` bucket,
 * which the web player's event calls count in one a request): the seconds to wait, or 0 when all
 * were counted. Counted before anything is looked up, so a flood costs the server no query.
 */
export async function takePlayTokens(db: Db, client: ClientInfo, plays: number, now = Date.now()): Promise<number> {
  const address = addressKey(client.ip)
  // PostgreSQL: the limit is shared by every node (rate_limits rows, docs/decisions/083).
  const shared = isPostgres(db) ? sharedLimiter(db) : null
  for (let i = 0; i < plays; i++) {
    const wait = shared ? await shared.take('events', address, now) : takeToken('events', address, now)
    if (wait > 0) return wait
  }
  return 0
}

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

type UpdateSet = Partial<typeof playEvents.$inferInsert>
type UpdatedPlay = { id: string; updatedAt: Date; title: string; trackUrl: string }
/**
 * SQLite: one prepared update per shape of change: which columns, and which of them are cleared (a
 * null is written as such, not through the column's encoder: a timestamp's would fail on it).
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

/** Updates the member's own play event: the row as it now is, or undefined when there is none. */
async function updatePlay(db: Db, userId: string, playEventId: string, set: UpdateSet): Promise<UpdatedPlay | undefined> {
  // SQLite: the prepared statement of this shape.
  if (!isPostgres(db)) return updateStatement(db, set).get({ ...set, playEventId, userId }) as UpdatedPlay | undefined
  // PostgreSQL: a plain update.
  const { playEvents: plays } = tablesOf(db)
  const [row] = await db
    .update(plays)
    .set(set)
    .where(and(eq(plays.id, playEventId), eq(plays.userId, userId)))
    .returning({ id: plays.id, updatedAt: plays.updatedAt, title: plays.title, trackUrl: plays.trackUrl })
  return row
}

/** Applies an update to the caller's own play event; anyone else's is NOT_FOUND. */
export async function updatePlayEvent(db: Db, userId: string, playEventId: string, input: UpdateInput) {
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
  const row = await transaction(db, async (tx) => {
    const updated = await updatePlay(tx, userId, playEventId, set)
    if (updated && input.liked !== undefined) await recordLike(tx, userId, { title: updated.title, trackUrl: updated.trackUrl, liked: input.liked, at: now })
    return updated
  })
  if (!row) throw new NotFoundError(PLAY_EVENT_NOT_FOUND)
  // Time listened may now make the play a listen at the member's scrobbling services.
  if (input.listenDuration !== undefined) queueScrobblesInBackground(db, userId, row.id, false)
  return { playEventId: row.id, updatedAt: row.updatedAt.toISOString() }
}

/** The one writer of interactions (the web player's like, share and repeat). */
export async function createInteraction(db: Db, userId: string, input: z.output<typeof InteractionSchema>) {
  const now = Date.now()
  // A client clock far off (or a replayed queue) cannot put interactions in the future.
  const at = input.timestamp ? Math.min(input.timestamp.getTime(), now) : now
  const trackId = trackKey(input.trackId)
  const row = await transaction(db, async (tx) => {
    if (input.interactionType === 'like')
      await recordLike(tx, userId, { title: await likedTitle(tx, userId, trackId), trackUrl: trackId, liked: true, at: new Date(now) })
    const { interactions } = tablesOf(tx)
    const [inserted] = await tx
      .insert(interactions)
      .values({ userId, trackId, interactionType: input.interactionType, timestamp: new Date(at) })
      .returning({ id: interactions.id })
    return inserted
  })
  return { interactionId: row.id }
}

/**
 * Likes are keyed by title, an interaction names only its track id (the play event's trackUrl):
 * the title is that of the member's latest play of it, else the id itself (a track never played).
 */
async function likedTitle(db: Db, userId: string, trackId: string): Promise<string> {
  const { playEvents: plays } = tablesOf(db)
  const [play] = await db
    .select({ title: plays.title })
    .from(plays)
    .where(and(eq(plays.userId, userId), eq(plays.trackUrl, trackId)))
    .orderBy(desc(plays.startedAt))
    .limit(1)
  return play?.title ?? trackId
}

/**
 * The one writer of the likes table, whichever door a like comes by (the player's like, a /rest
 * star, a like interaction, a play update): the member's row for that title, switched on or off,
 * with the track's key as its URL.
 */
async function recordLike(db: Db, userId: string, like: { title: string; trackUrl?: string | null; liked: boolean; at: Date }) {
  const { title: trackKey, liked, at } = like
  const trackUrl = trackKeyOrNull(like.trackUrl)
  const { likes } = tablesOf(db)
  await db
    .insert(likes)
    .values({ userId, trackKey, trackUrl, liked, updatedAt: at })
    .onConflictDoUpdate({ target: [likes.userId, likes.trackKey], set: { liked, updatedAt: at, ...(trackUrl ? { trackUrl } : {}) } })
}

/** What the member likes now; an unliked title is not listed. */
export async function listLikes(db: Db, userId: string) {
  const { likes } = tablesOf(db)
  const rows = await db
    .select({ trackKey: likes.trackKey, liked: likes.liked, updatedAt: likes.updatedAt })
    .from(likes)
    .where(and(eq(likes.userId, userId), eq(likes.liked, true)))
  // fromEntries defines own keys: assigning into {} would turn a title "__proto__" into the
  // object's prototype, dropping that like from the answer.
  return { likes: Object.fromEntries(rows.map((r) => [r.trackKey, { liked: r.liked, timestamp: r.updatedAt.getTime() }])) }
}

/** A like by title: the player's heart (PUT /api/playlist/likes) and a /rest star or unstar. */
export async function setLike(db: Db, userId: string, input: z.output<typeof LikeSetSchema>) {
  const now = new Date()
  await recordLike(db, userId, { title: input.title, trackUrl: input.trackUrl, liked: input.liked, at: now })
  return { title: input.title, liked: input.liked, timestamp: now.getTime() }
}
