// The background sender of scrobbles (services/scrobbling.ts queues them). It takes the rows that
// are due, claims them (a claim is a time in the row, so two nodes sharing a database never send
// one both), sends them, and marks each sent only once the service accepted it. A service that is
// down (unreachable, 5xx, rate limited) gets the rows again after SCROBBLE_RETRY_SECONDS, doubled
// at each failure up to 6 hours; a listen still unsent after 14 days is given up (Last.fm takes
// none older). A "now playing" is only worth sending while its track could still be playing.
// A sender that dies between the service's answer and marking the row sends it again after the
// claim runs out: at least once, never twice otherwise (both services ignore a listen they have
// at the same time). The queue is read again when a play is queued and at least once a minute.
// When the service takes one row, the member's other rows waiting for it are due at once, and a
// restart makes every waiting row due: an outage's backlog goes as soon as the service is back.
import { and, asc, eq, gt, inArray, isNull, lte, min, notInArray, or } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { isPostgres, tablesOf } from '~/db/engine'
import type { ScrobbleQueueRow } from '~/db/schema'
import { config } from '../config'
import { logger } from '../logger'
import { lastfmNowPlaying, lastfmScrobble } from '../scrobbling/lastfm'
import { submitListens } from '../scrobbling/listenbrainz'
import { type Scrobble, type SendOutcome, SERVICE_TIMEOUT_MS } from '../scrobbling/outcome'
import { lastfmApp, openCredential } from './scrobbling'

const BATCH = 50
/** ListenBrainz takes up to 1000 listens in one import; a smaller batch keeps a request short. */
const IMPORT_BATCH = 100
// Three times a call's time limit: a sender that stopped mid-call lets go of its rows soon after.
const CLAIM_MS = 3 * SERVICE_TIMEOUT_MS
const MAX_BACKOFF_MS = 6 * 3600_000
const LISTEN_MAX_AGE_MS = 14 * 86_400_000
const IDLE_CHECK_MS = 60_000

let sender: { db: Db; timer: ReturnType<typeof setTimeout> | null; running: boolean; again: boolean; stopped: boolean } | null = null

/** Starts the sender (once per process); it keeps no process alive. */
export function startScrobbleSender(db: Db) {
  const { scrobbleQueue } = tablesOf(db)
  if (sender) return
  sender = { db, timer: null, running: false, again: false, stopped: false }
  // A restart is often the end of an outage: what waited is tried at once, not after its backoff.
  void db
    .update(scrobbleQueue)
    .set({ nextAttemptAt: new Date() })
    .where(and(eq(scrobbleQueue.status, 'queued'), gt(scrobbleQueue.nextAttemptAt, new Date())))
    .catch((error: unknown) => logger.error({ err: error }, 'scrobble queue not read'))
    .finally(() => schedule(0))
}

export function stopScrobbleSender() {
  if (sender?.timer) clearTimeout(sender.timer)
  if (sender) sender.stopped = true
  sender = null
}

/** Something was queued: send it now rather than at the next check. */
export function wakeScrobbleSender() {
  if (!sender) return
  if (sender.running) sender.again = true
  else schedule(0)
}

function schedule(ms: number) {
  const s = sender
  if (!s || s.stopped) return
  if (s.timer) clearTimeout(s.timer)
  s.timer = setTimeout(() => void run(s), Math.max(0, Math.min(ms, IDLE_CHECK_MS)))
  s.timer.unref?.()
}

async function run(s: NonNullable<typeof sender>) {
  s.timer = null
  s.running = true
  s.again = false
  let next = IDLE_CHECK_MS
  try {
    while ((await sendDue(s.db, Date.now())) > 0 && !s.stopped) {}
    next = await untilNextDue(s.db, Date.now())
  } catch (error) {
    logger.error({ err: error }, 'scrobble sender failed')
  } finally {
    s.running = false
  }
  schedule(s.again ? 0 : next)
}

/** How long until a waiting row is due: its next attempt, or when another sender's claim on it runs out. */
export async function untilNextDue(db: Db, now: number): Promise<number> {
  const { scrobbleQueue } = tablesOf(db)
  const at = new Date(now)
  const queued = eq(scrobbleQueue.status, 'queued')
  const [free] = await db
    .select({ at: min(scrobbleQueue.nextAttemptAt) })
    .from(scrobbleQueue)
    .where(and(queued, or(isNull(scrobbleQueue.claimedUntil), lte(scrobbleQueue.claimedUntil, at))))
  const [held] = await db
    .select({ at: min(scrobbleQueue.claimedUntil) })
    .from(scrobbleQueue)
    .where(and(queued, gt(scrobbleQueue.claimedUntil, at)))
  const next = Math.min(free?.at?.getTime() ?? Infinity, held?.at?.getTime() ?? Infinity)
  return next === Infinity ? IDLE_CHECK_MS : Math.max(0, next - now)
}

const backoff = (attempts: number) => Math.min(config.SCROBBLE_RETRY_SECONDS * 1000 * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS)

/** Sends one batch of due rows; returns how many it handled (0: nothing is due). */
export async function sendDue(db: Db, now: number): Promise<number> {
  const claimed = await claimDue(db, now)
  if (claimed.length === 0) return 0
  const groups = new Map<string, ScrobbleQueueRow[]>()
  for (const row of claimed) {
    const key = `${row.userId}\n${row.service}`
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  for (const rows of groups.values()) {
    // Sent in the order they were played: rows played after one that waits outside this batch
    // (backing off, or held by another sender) wait for it and go with it.
    const waiting = await oldestWaiting(db, rows)
    const first = waiting ? rows.filter((r) => playedBefore(r, waiting)) : rows
    await deferBehind(db, rows.slice(first.length), waiting, now)
    if (first.length > 0) await sendGroup(db, first, now)
  }
  return claimed.length
}

const playedBefore = (a: ScrobbleQueueRow, b: ScrobbleQueueRow) => (a.playedAt.getTime() - b.playedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) < 0

/** The member's oldest row for this service still queued outside this batch. */
async function oldestWaiting(db: Db, rows: ScrobbleQueueRow[]): Promise<ScrobbleQueueRow | undefined> {
  const { scrobbleQueue } = tablesOf(db)
  const [row] = await db
    .select()
    .from(scrobbleQueue)
    .where(
      and(
        eq(scrobbleQueue.userId, rows[0].userId),
        eq(scrobbleQueue.service, rows[0].service),
        eq(scrobbleQueue.status, 'queued'),
        notInArray(
          scrobbleQueue.id,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(scrobbleQueue.playedAt), asc(scrobbleQueue.id))
    .limit(1)
  return row
}

/** Lets `rows` go from this sender's claim, due when `waiting` is next tried (or its holder's claim runs out). */
async function deferBehind(db: Db, rows: ScrobbleQueueRow[], waiting: ScrobbleQueueRow | undefined, now: number) {
  if (rows.length === 0 || !waiting) return
  const { scrobbleQueue } = tablesOf(db)
  const due = Math.max(waiting.nextAttemptAt.getTime(), waiting.claimedUntil?.getTime() ?? 0, now)
  await db
    .update(scrobbleQueue)
    .set({ nextAttemptAt: new Date(due), claimedUntil: null })
    .where(
      and(
        inArray(
          scrobbleQueue.id,
          rows.map((r) => r.id),
        ),
        eq(scrobbleQueue.status, 'queued'),
        eq(scrobbleQueue.claimedUntil, claimEnd(now)),
      ),
    )
}

/** The end of the claim a sender takes at `now`: it names the claim, so a sender settles only its own rows. */
const claimEnd = (now: number) => new Date(now + CLAIM_MS)

/**
 * Takes up to a batch of due rows no other sender holds, in one statement, oldest play first;
 * only these are sent (docs/decisions/090). The batch is chosen once, in a WITH (PostgreSQL may
 * run a sub-select of the WHERE again for every row it updates, and a LIMIT there would then not
 * hold), and the update's own WHERE repeats the test, so of two senders reaching one row the second
 * finds it claimed: SQLite runs one write at a time, and PostgreSQL re-reads a row another
 * transaction changed before updating it. On PostgreSQL the batch also skips the rows another
 * node is claiming at that moment (FOR UPDATE SKIP LOCKED), so two nodes take different rows
 * instead of waiting on each other.
 */
async function claimDue(db: Db, now: number): Promise<ScrobbleQueueRow[]> {
  const { scrobbleQueue } = tablesOf(db)
  const at = new Date(now)
  const due = and(
    eq(scrobbleQueue.status, 'queued'),
    lte(scrobbleQueue.nextAttemptAt, at),
    or(isNull(scrobbleQueue.claimedUntil), lte(scrobbleQueue.claimedUntil, at)),
  )
  const batch = db.select({ id: scrobbleQueue.id }).from(scrobbleQueue).where(due).orderBy(asc(scrobbleQueue.playedAt), asc(scrobbleQueue.id)).limit(BATCH)
  // SQLite: its one writer needs no row locks. PostgreSQL: lock the chosen rows, skipping locked ones.
  const chosen = db.$with('chosen').as(isPostgres(db) ? ((batch as unknown as PgSelectWithFor).for('update', { skipLocked: true }) as typeof batch) : batch)
  const taken = await db
    .with(chosen)
    .update(scrobbleQueue)
    .set({ claimedUntil: claimEnd(now) })
    .where(and(inArray(scrobbleQueue.id, db.select({ id: chosen.id }).from(chosen)), due))
    .returning()
  return taken.sort((a, b) => a.playedAt.getTime() - b.playedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

type PgSelectWithFor = { for: (strength: 'update', config: { skipLocked: boolean }) => unknown }

async function settle(db: Db, rows: ScrobbleQueueRow[], outcome: SendOutcome | { final: 'expired' | 'failed' | 'cancelled'; error: string }, now: number) {
  const { scrobbleQueue } = tablesOf(db)
  if (rows.length === 0) return
  const ids = rows.map((r) => r.id)
  const attempts = Math.max(...rows.map((r) => r.attempts)) + 1
  let set: Partial<ScrobbleQueueRow>
  if ('final' in outcome) set = { status: outcome.final, lastError: outcome.error, claimedUntil: null }
  else if (outcome.ok) set = { status: 'sent', sentAt: new Date(now), attempts, lastError: null, claimedUntil: null }
  else if (outcome.retry) set = { attempts, lastError: outcome.error, nextAttemptAt: new Date(now + backoff(attempts)), claimedUntil: null }
  else set = { status: 'failed', attempts, lastError: outcome.error, claimedUntil: null }
  // Only rows still queued under this sender's claim: a member who disconnected meanwhile keeps
  // them cancelled, and a row another sender claimed after this claim ran out is that sender's.
  await db
    .update(scrobbleQueue)
    .set(set)
    .where(and(inArray(scrobbleQueue.id, ids), eq(scrobbleQueue.status, 'queued'), eq(scrobbleQueue.claimedUntil, claimEnd(now))))
  // The service took this: it is back, so what waits for it there need not wait out its backoff.
  if (!('final' in outcome) && outcome.ok) {
    await db
      .update(scrobbleQueue)
      .set({ nextAttemptAt: new Date(now) })
      .where(
        and(
          eq(scrobbleQueue.userId, rows[0].userId),
          eq(scrobbleQueue.service, rows[0].service),
          eq(scrobbleQueue.status, 'queued'),
          gt(scrobbleQueue.nextAttemptAt, new Date(now)),
        ),
      )
  }
  if (!('final' in outcome) && !outcome.ok)
    logger.warn({ service: rows[0].service, rows: ids.length, retry: outcome.retry, error: outcome.error }, 'scrobbles not sent')
}

const asScrobble = (r: ScrobbleQueueRow): Scrobble => ({ artist: r.artist, title: r.title, album: r.album, duration: r.duration, playedAt: r.playedAt })

/** One member's rows for one service. */
async function sendGroup(db: Db, rows: ScrobbleQueueRow[], now: number) {
  const { scrobbleConnections } = tablesOf(db)
  const { userId, service } = rows[0]
  const [connection] = await db
    .select({ credential: scrobbleConnections.credential })
    .from(scrobbleConnections)
    .where(and(eq(scrobbleConnections.userId, userId), eq(scrobbleConnections.service, service)))
  if (!connection) return settle(db, rows, { final: 'cancelled', error: 'Disconnected before it was sent' }, now)
  const credential = openCredential(userId, connection.credential)
  if (credential === null) return settle(db, rows, { final: 'failed', error: 'The connection can no longer be read here: connect again' }, now)

  // A "now playing" whose track has ended by now is stale: only the latest one still playing goes.
  const nowPlaying = rows.filter((r) => r.kind === 'now_playing')
  const playing = nowPlaying.filter((r) => r.playedAt.getTime() + r.duration * 1000 > now).at(-1)
  await settle(
    db,
    nowPlaying.filter((r) => r !== playing),
    { final: 'expired', error: 'The track had ended before it could be sent' },
    now,
  )
  const listens = rows.filter((r) => r.kind === 'listen')
  const tooOld = listens.filter((r) => now - r.playedAt.getTime() > LISTEN_MAX_AGE_MS)
  await settle(db, tooOld, { final: 'failed', error: 'Not sent within 14 days: the services take no older listens' }, now)
  const toSend = listens.filter((r) => !tooOld.includes(r))

  if (service === 'listenbrainz') {
    const base = config.LISTENBRAINZ_API_URL
    if (playing) await settle(db, [playing], await submitListens(base, credential, 'playing_now', [asScrobble(playing)]), now)
    for (let i = 0; i < toSend.length; i += IMPORT_BATCH) {
      const batch = toSend.slice(i, i + IMPORT_BATCH)
      await settle(db, batch, await submitListens(base, credential, batch.length === 1 ? 'single' : 'import', batch.map(asScrobble)), now)
    }
    return
  }
  const app = lastfmApp()
  if (!app) return settle(db, [...(playing ? [playing] : []), ...toSend], { final: 'failed', error: 'Last.fm is no longer set up on this server' }, now)
  if (playing) await settle(db, [playing], await lastfmNowPlaying(app, credential, asScrobble(playing)), now)
  for (const row of toSend) {
    const outcome = await lastfmScrobble(app, credential, asScrobble(row))
    await settle(db, [row], outcome, now)
    // The service is down: the rest wait for the next try rather than each failing now.
    if (!outcome.ok && outcome.retry) {
      await settle(db, toSend.slice(toSend.indexOf(row) + 1), outcome, now)
      return
    }
  }
}
