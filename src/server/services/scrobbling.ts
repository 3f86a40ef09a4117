// Scrobbling: each member may connect ListenBrainz (their user token, checked with the service) and
// Last.fm (web auth: the member allows Vibes on Last.fm's page, which sends them back to /profile
// with a token that auth.getSession trades for a session key). The credential is kept sealed
// (auth/sealed-secret.ts). Every play is queued here, in the database, through the one writer of
// plays (listening.ts), and services/scrobble-sender.ts sends it in the background: queueing never
// waits for a service, so playback and the request that recorded the play never do either.
//
// What is sent follows each service's rules. Last.fm: a track longer than 30 seconds, listened to
// for half its length or 4 minutes, whichever comes first. ListenBrainz: half the track or 4
// minutes, whichever is lower, whatever its length. A play being started is sent as "now playing"
// to both. A play without an artist is not sent: neither service takes one.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import { newId } from '~/db/schema/columns'
import type { ScrobbleService } from '~/shared/validators'
import { openSecret, SEAL_PURPOSE, sealSecret } from '../auth/sealed-secret'
import { config } from '../config'
import { InvalidError } from '../errors'
import { logger } from '../logger'
import { type LastfmApp, lastfmAuthPage, lastfmSession } from '../scrobbling/lastfm'
import { validateListenBrainzToken } from '../scrobbling/listenbrainz'
import { wakeScrobbleSender } from './scrobble-sender'

export const SERVICE_NAMES: Record<ScrobbleService, string> = { listenbrainz: 'ListenBrainz', lastfm: 'Last.fm' }
export const LASTFM_NOT_SET_UP = 'Last.fm is not set up on this server: the admin sets LASTFM_API_KEY and LASTFM_API_SECRET'
export const LASTFM_STATE_INVALID = 'This Last.fm sign-in link has expired or was not started here: connect Last.fm again'
/** How long a member has to allow Vibes on Last.fm's page. */
const LASTFM_STATE_TTL_MS = 30 * 60_000
const RECENT_SUBMISSIONS = 20

/** Whether a play listened to for `listened` of `duration` seconds counts as a listen at `service`. */
export function countsAsListen(service: ScrobbleService, duration: number, listened: number): boolean {
  if (service === 'lastfm' && duration <= 30) return false
  return duration > 0 && listened >= Math.min(duration / 2, 240)
}

/** The Last.fm API account the admin set, or null when scrobbling to Last.fm is off. */
export function lastfmApp(): LastfmApp | null {
  if (!config.LASTFM_API_KEY || !config.LASTFM_API_SECRET) return null
  return { apiUrl: config.LASTFM_API_URL, apiKey: config.LASTFM_API_KEY, apiSecret: config.LASTFM_API_SECRET }
}

const seal = (userId: string, credential: string) => sealSecret(config.AUTH_SECRET, SEAL_PURPOSE.scrobbling, userId, credential)
/** The connection's token or session key, or null when it cannot be opened (AUTH_SECRET changed). */
export const openCredential = (userId: string, sealed: string) => openSecret(config.AUTH_SECRET, SEAL_PURPOSE.scrobbling, userId, sealed)

async function saveConnection(db: Db, userId: string, service: ScrobbleService, account: string, credential: string) {
  const { scrobbleConnections } = tablesOf(db)
  const row = { account, credential: seal(userId, credential), connectedAt: new Date() }
  await db
    .insert(scrobbleConnections)
    .values({ userId, service, ...row })
    .onConflictDoUpdate({ target: [scrobbleConnections.userId, scrobbleConnections.service], set: row })
  logger.info({ userId, service }, 'scrobbling connected')
  return { service, account }
}

/** Connects ListenBrainz with the member's user token, once ListenBrainz says whose it is. */
export async function connectListenBrainz(db: Db, userId: string, token: string) {
  let account: string | null
  try {
    account = await validateListenBrainzToken(config.LISTENBRAINZ_API_URL, token)
  } catch (error) {
    logger.warn({ err: error }, 'ListenBrainz token check failed')
    throw new InvalidError('ListenBrainz could not be reached to check the token. Please try again later.', 'token')
  }
  if (!account) throw new InvalidError('ListenBrainz did not accept this token: copy it again from listenbrainz.org/settings', 'token')
  return saveConnection(db, userId, 'listenbrainz', account, token)
}

// The state sent along to Last.fm's page names the member and when it was made, signed with
// AUTH_SECRET: a token coming back is only taken from the member who started, and only for a while.
const stateMac = (userId: string, madeAt: number) => createHmac('sha256', config.AUTH_SECRET).update(`lastfm-connect\n${userId}\n${madeAt}`).digest('base64url')

/** Where to send the member to allow Vibes on Last.fm; Last.fm brings them back to /profile. */
export function lastfmConnectUrl(userId: string, now = Date.now()): { url: string } {
  const app = lastfmApp()
  if (!app) throw new InvalidError(LASTFM_NOT_SET_UP)
  const callback = new URL('/profile', config.APP_URL)
  callback.searchParams.set('lastfm', `${now}.${stateMac(userId, now)}`)
  return { url: lastfmAuthPage(config.LASTFM_AUTH_URL, app.apiKey, callback.toString()) }
}

function stateIsValid(userId: string, state: string, now: number): boolean {
  const [madeAt, mac] = state.split('.')
  const at = Number(madeAt)
  if (!Number.isSafeInteger(at) || !mac || now - at > LASTFM_STATE_TTL_MS || at > now + 60_000) return false
  const expected = new TextEncoder().encode(stateMac(userId, at))
  const given = new TextEncoder().encode(mac)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** Finishes connecting Last.fm with the token its page sent back. */
export async function completeLastfm(db: Db, userId: string, input: { token: string; state: string }, now = Date.now()) {
  const app = lastfmApp()
  if (!app) throw new InvalidError(LASTFM_NOT_SET_UP)
  if (!stateIsValid(userId, input.state, now)) throw new InvalidError(LASTFM_STATE_INVALID)
  const session = await lastfmSession(app, input.token)
  if (!session.ok) {
    logger.warn({ error: session.error }, 'Last.fm session refused')
    throw new InvalidError('Last.fm did not confirm the connection. Please connect Last.fm again.')
  }
  return saveConnection(db, userId, 'lastfm', session.name, session.key)
}

/** Disconnects a service: its credential is deleted and what was still waiting is never sent. */
export async function disconnectScrobbling(db: Db, userId: string, service: ScrobbleService) {
  const { scrobbleConnections, scrobbleQueue } = tablesOf(db)
  await db.delete(scrobbleConnections).where(and(eq(scrobbleConnections.userId, userId), eq(scrobbleConnections.service, service)))
  await db
    .update(scrobbleQueue)
    .set({ status: 'cancelled', lastError: 'Disconnected before it was sent' })
    .where(and(eq(scrobbleQueue.userId, userId), eq(scrobbleQueue.service, service), eq(scrobbleQueue.status, 'queued')))
  logger.info({ userId, service }, 'scrobbling disconnected')
  return { service }
}

export type ScrobbleSubmission = {
  id: string
  service: ScrobbleService
  kind: 'now_playing' | 'listen'
  artist: string
  title: string
  album: string | null
  playedAt: number
  status: 'queued' | 'sent' | 'failed' | 'expired' | 'cancelled'
  attempts: number
  sentAt: number | null
  lastError: string | null
}

/** The member's connections, whether Last.fm can be connected here, and the latest submissions. */
export async function scrobblingStatus(db: Db, userId: string) {
  const { scrobbleConnections, scrobbleQueue } = tablesOf(db)
  const connections = await db
    .select({ service: scrobbleConnections.service, account: scrobbleConnections.account, connectedAt: scrobbleConnections.connectedAt })
    .from(scrobbleConnections)
    .where(eq(scrobbleConnections.userId, userId))
  const rows = await db
    .select()
    .from(scrobbleQueue)
    .where(eq(scrobbleQueue.userId, userId))
    .orderBy(desc(scrobbleQueue.createdAt), desc(scrobbleQueue.id))
    .limit(RECENT_SUBMISSIONS)
  return {
    lastfmAvailable: lastfmApp() !== null,
    connections: connections.map((c) => ({ service: c.service as ScrobbleService, account: c.account, connectedAt: c.connectedAt.getTime() })),
    submissions: rows.map(
      (r): ScrobbleSubmission => ({
        id: r.id,
        service: r.service as ScrobbleService,
        kind: r.kind as ScrobbleSubmission['kind'],
        artist: r.artist,
        title: r.title,
        album: r.album,
        playedAt: r.playedAt.getTime(),
        status: r.status as ScrobbleSubmission['status'],
        attempts: r.attempts,
        sentAt: r.sentAt?.getTime() ?? null,
        lastError: r.lastError,
      }),
    ),
  }
}

type PlayedTrack = { artist: string | null; title: string; album: string | null; duration: number; playedAt: Date }

/** Queues one row per service and kind the rule gives; rows already queued for the play stay as they are. */
async function queueFor(db: Db, userId: string, playId: string, track: PlayedTrack, kindsOf: (service: ScrobbleService) => string[]) {
  const { scrobbleConnections, scrobbleQueue } = tablesOf(db)
  if (!track.artist) return
  const services = await db.select({ service: scrobbleConnections.service }).from(scrobbleConnections).where(eq(scrobbleConnections.userId, userId))
  const facts = { userId, playId, artist: track.artist, title: track.title, album: track.album, duration: track.duration, playedAt: track.playedAt }
  const rows = services.flatMap(({ service }) => kindsOf(service as ScrobbleService).map((kind) => ({ ...facts, service, kind })))
  if (rows.length === 0) return
  const queued = await db.insert(scrobbleQueue).values(rows).onConflictDoNothing().returning({ id: scrobbleQueue.id })
  if (queued.length > 0) wakeScrobbleSender()
}

/**
 * Queues what a play gives each of the member's services: "now playing" when it has just started
 * (`started`), a listen once it counts as one. Called by the writer of plays after each write;
 * queueing twice is harmless (one row per play, service and kind).
 */
export async function queueScrobbles(db: Db, userId: string, playEventId: string, started: boolean): Promise<void> {
  const { playEvents, scrobbleConnections } = tablesOf(db)
  const [connection] = await db.select({ userId: scrobbleConnections.userId }).from(scrobbleConnections).where(eq(scrobbleConnections.userId, userId)).limit(1)
  if (!connection) return
  const [play] = await db
    .select({
      artist: playEvents.artist,
      title: playEvents.title,
      album: playEvents.album,
      duration: playEvents.duration,
      listened: playEvents.listenDuration,
      playedAt: playEvents.startedAt,
    })
    .from(playEvents)
    .where(and(eq(playEvents.id, playEventId), eq(playEvents.userId, userId)))
  if (!play) return
  await queueFor(db, userId, playEventId, play, (service) => [
    ...(started ? ['now_playing'] : []),
    ...(countsAsListen(service, play.duration, play.listened) ? ['listen'] : []),
  ])
}

const inBackground = (work: Promise<void>, context: object) => void work.catch((error) => logger.error({ err: error, ...context }, 'queueing scrobbles failed'))

/** queueScrobbles for a caller that must not wait or fail: a play is recorded whatever happens here. */
export function queueScrobblesInBackground(db: Db, userId: string | null, playEventId: string, started: boolean): void {
  if (userId !== null) inBackground(queueScrobbles(db, userId, playEventId, started), { playEventId })
}

/** An app says what it is playing without recording a play yet (scrobble with submission=false): "now playing" only. */
export function queueNowPlayingInBackground(db: Db, userId: string, track: Omit<PlayedTrack, 'playedAt'>): void {
  inBackground(
    queueFor(db, userId, `now-playing:${newId()}`, { ...track, playedAt: new Date() }, () => ['now_playing']),
    { userId },
  )
}
