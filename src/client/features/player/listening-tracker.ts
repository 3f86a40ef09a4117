// Members' listening events: one listening session per visit, a
// play event when a track starts, cumulative updates, interactions. Calls that hit 429 are retried
// (3 tries, 1 s doubling). Anything that still fails, or happens while signed out, goes to a queue
// in storage (so a reload loses nothing) that is retried (2 tries, 5 s doubling) and flushed
// again on the next page load, on login and when the network comes back.
//
// `createTracker({ client, storage, auth, now })` holds all of it, so the rules are unit-tested
// with fakes (tests/unit/listening-tracker.retry.test.ts); the page makes one (pageTracker) and
// the player host connects it to the API client. Text is trimmed to the limits the shared
// play-event schema enforces (PLAY_EVENT_LIMITS), never to copied numbers. Every send of one play
// carries the same client key, so a re-sent play whose first answer was lost is recorded once.
import { authStore, LOGIN_EVENT, LOGOUT_EVENT } from '~/client/features/auth/auth-store'
import { httpStatusOf } from '~/client/global-errors'
import { addTrack, CLIENT_PLAY_ID_PATTERN, newSession, nextTrackOf, previousTrackOf, PLAY_EVENT_LIMITS, type ListeningSession } from '~/shared/player/listening'
import type { InteractionInput, InteractionType, NetworkType, PlayEventCreateInput, PlayEventUpdateFieldsInput, PlaySource } from '~/shared/validators'

type Update = PlayEventUpdateFieldsInput

export type EventClient = {
  createPlay: (input: PlayEventCreateInput) => Promise<{ playEventId: string }>
  /** `keepalive`: the page is going away; the request must outlive it. */
  updatePlay: (input: Update & { playEventId: string }, options?: { keepalive: true }) => Promise<unknown>
  createInteraction: (input: InteractionInput) => Promise<unknown>
}

export type TrackerDeps = {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  auth: { signedIn: () => boolean; userId: () => string | null }
  now: () => number
  client?: EventClient
  /** Waits between 429 retries. */
  sleep?: (ms: number) => Promise<unknown>
  /** Schedules a queue flush. */
  schedule?: (fn: () => void, ms: number) => () => void
  network?: () => NetworkType
}

// userId: who made the item (null = signed out). Signed-out items go to whoever signs in next;
// a member's items wait for that member.
type QueueItem = { userId?: string | null; attempts: number } & (
  | { kind: 'play'; localId: string; event: PlayEventCreateInput; update?: Update }
  | { kind: 'update'; playEventId: string; update: Update }
  | { kind: 'interaction'; input: InteractionInput }
)

export const QUEUE_KEY = 'vibes:event-queue'
const QUEUE_MAX = 1000
export const RETRY_429 = { tries: 3, delayMs: 1000 }
export const QUEUE_RETRY = { tries: 2, delayMs: 5000 }

const defaultSleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const defaultSchedule = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms)
  return () => clearTimeout(t)
}

/** Runs a call, retrying on 429 (3 tries in all, 1 s then 2 s apart). */
export async function with429Retry<T>(call: () => Promise<T>, opts = RETRY_429, wait: (ms: number) => Promise<unknown> = defaultSleep): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (error) {
      if (httpStatusOf(error) !== 429 || attempt >= opts.tries) throw error
      await wait(opts.delayMs * 2 ** (attempt - 1))
    }
  }
}

/** A 4xx other than 401/408/429 means the server will never take this item: drop it. */
function isPermanent(error: unknown): boolean {
  const status = httpStatusOf(error)
  return status !== undefined && status >= 400 && status < 500 && ![401, 408, 429].includes(status)
}

/**
 * The play as sent: its local id goes with every send of it as the client key, so a send whose
 * answer was lost (a timeout, a cut connection, a node gone after the write) and is sent again
 * is recorded once; the server answers the first send's id (docs/decisions/107).
 */
const keyed = (localId: string, event: PlayEventCreateInput): PlayEventCreateInput =>
  // A stored id the server would refuse (a queue edited by hand) must not cost the play itself.
  CLIENT_PLAY_ID_PATTERN.test(localId) ? { ...event, clientPlayId: localId } : event

const cut = (text: string | undefined | null, field: keyof typeof PLAY_EVENT_LIMITS) => (text ? text.slice(0, PLAY_EVENT_LIMITS[field]) : null)

export type PlayContext = {
  /** Stable id of the track (URL, or local:path for files picked from the device). */
  trackId: string
  title: string
  duration: number
  artist?: string
  album?: string
  genre?: string
  year?: number
  source: PlaySource
  playlistId?: string
  /** The play order, to name the next track. */
  list: readonly { url: string }[]
  url: string
  idOf: (url: string) => string
}

/** One play on its way to the server: created once, then cumulative updates in order. */
export type PlayHandle = {
  readonly localId: string
  playEventId: string | null
  update: (update: Update) => Promise<unknown>
  /** The page is going away: queue the final update at once and send it with keepalive. */
  exitUpdate: (update: Update) => void
  /** Stops tracking this play in memory (its queued parts stay queued). */
  close: () => void
}

export function createTracker(deps: TrackerDeps) {
  const { storage, auth, now } = deps
  const sleep = deps.sleep ?? defaultSleep
  const schedule = deps.schedule ?? defaultSchedule
  let client = deps.client ?? null
  let session: ListeningSession = newSession(now())
  const livePlays = new Map<string, PlayHandle>()
  let flushing = false
  let cancelFlush: (() => void) | null = null

  const retry = <T>(call: () => Promise<T>) => with429Retry(call, RETRY_429, sleep)

  // ---- queue storage -----------------------------------------------------------------------

  function readQueue(): QueueItem[] {
    try {
      const raw = storage.getItem(QUEUE_KEY)
      const parsed = raw ? (JSON.parse(raw) as unknown) : []
      return Array.isArray(parsed) ? (parsed as QueueItem[]) : []
    } catch {
      return []
    }
  }

  function writeQueue(items: QueueItem[]) {
    try {
      if (items.length === 0) storage.removeItem(QUEUE_KEY)
      else storage.setItem(QUEUE_KEY, JSON.stringify(items.slice(-QUEUE_MAX)))
    } catch {}
  }

  const mine = (i: QueueItem) => !i.userId || i.userId === auth.userId()

  function enqueue(item: QueueItem) {
    item.userId ??= auth.userId()
    writeQueue([...readQueue(), item])
    scheduleFlush(QUEUE_RETRY.delayMs)
  }

  /** Merges a cumulative update into a queued play (by local id) or queued update (by server id). */
  function mergeQueued(match: (i: QueueItem) => boolean, update: Update): boolean {
    const items = readQueue()
    const item = items.find(match)
    if (!item || item.kind === 'interaction') return false
    item.update = { ...item.update, ...update }
    writeQueue(items)
    return true
  }

  function queueUpdate(playEventId: string, update: Update) {
    if (!mergeQueued((i) => i.kind === 'update' && i.playEventId === playEventId, update)) enqueue({ kind: 'update', playEventId, update, attempts: 0 })
  }

  // ---- plays ---------------------------------------------------------------------------------

  function createHandle(event: PlayEventCreateInput): PlayHandle {
    let chain: Promise<unknown>
    let queued = false
    const handle: PlayHandle = {
      localId: crypto.randomUUID(),
      playEventId: null,
      update(update) {
        chain = chain.then(async () => {
          if (handle.playEventId === null) {
            // Not on the server yet: ride along with the queued play.
            if (queued && mergeQueued((i) => i.kind === 'play' && i.localId === handle.localId, update)) return
            if (handle.playEventId === null) return
          }
          const id = handle.playEventId
          const c = client
          if (!auth.signedIn() || !c) return queueUpdate(id, update)
          try {
            await retry(() => c.updatePlay({ ...update, playEventId: id }))
          } catch (error) {
            if (!isPermanent(error)) queueUpdate(id, update)
          }
        })
        return chain
      },
      exitUpdate(update) {
        if (handle.playEventId === null) {
          // Still queued from earlier: ride along. (A create still in flight cannot be helped.)
          if (queued) mergeQueued((i) => i.kind === 'play' && i.localId === handle.localId, update)
          return
        }
        // Written to the queue at once (sent on the next page load; updates are idempotent) and
        // sent now with a request that outlives the page.
        queueUpdate(handle.playEventId, update)
        if (auth.signedIn() && client) void client.updatePlay({ ...update, playEventId: handle.playEventId }, { keepalive: true }).catch(() => {})
      },
      close() {
        livePlays.delete(handle.localId)
      },
    }
    livePlays.set(handle.localId, handle)
    const c = client
    if (!auth.signedIn() || !c) {
      queued = true
      enqueue({ kind: 'play', localId: handle.localId, event, attempts: 0 })
      chain = Promise.resolve()
      return handle
    }
    chain = retry(() => c.createPlay(keyed(handle.localId, event)))
      .then((r) => {
        handle.playEventId = r.playEventId
      })
      .catch((error) => {
        if (isPermanent(error)) return
        queued = true
        enqueue({ kind: 'play', localId: handle.localId, event, attempts: 0 })
      })
    return handle
  }

  /** Records the start of a play: session position, neighbours, network type. */
  function startPlay(ctx: PlayContext): PlayHandle {
    session = addTrack(session, ctx.trackId)
    const next = nextTrackOf(ctx.list, ctx.url)
    return createHandle({
      trackUrl: ctx.trackId.slice(0, PLAY_EVENT_LIMITS.trackUrl),
      title: cut(ctx.title, 'title') || 'Unknown Title',
      duration: Number.isFinite(ctx.duration) && ctx.duration > 0 ? Math.round(ctx.duration * 100) / 100 : 0,
      artist: cut(ctx.artist, 'artist'),
      album: cut(ctx.album, 'album'),
      genre: cut(ctx.genre, 'genre'),
      year: ctx.year && ctx.year >= 1000 && ctx.year <= 2999 ? ctx.year : null,
      source: ctx.source,
      playlistId: cut(ctx.playlistId, 'playlistId'),
      previousTrack: cut(previousTrackOf(session), 'previousTrack'),
      nextTrack: next ? cut(ctx.idOf(next), 'nextTrack') : null,
      sessionId: session.id,
      sessionPosition: session.position,
      networkType: (deps.network ?? networkType)(),
      // Sent now or, queued while offline, later: the server keeps the time it began.
      startedAt: now(),
    })
  }

  function recordInteraction(trackId: string, interactionType: InteractionType) {
    const input: InteractionInput = { trackId: trackId.slice(0, PLAY_EVENT_LIMITS.trackId), interactionType, timestamp: now() }
    const c = client
    if (!auth.signedIn() || !c) return enqueue({ kind: 'interaction', input, attempts: 0 })
    void retry(() => c.createInteraction(input)).catch((error) => {
      if (!isPermanent(error)) enqueue({ kind: 'interaction', input, attempts: 0 })
    })
  }

  // ---- flushing ------------------------------------------------------------------------------

  function scheduleFlush(delayMs: number) {
    if (!auth.signedIn() || !client) return
    cancelFlush?.()
    cancelFlush = schedule(() => {
      cancelFlush = null
      void flushQueue()
    }, delayMs)
  }

  async function sendItem(c: EventClient, item: QueueItem): Promise<null> {
    if (item.kind === 'interaction') {
      const input = item.input
      await retry(() => c.createInteraction(input))
      return null
    }
    if (item.kind === 'play') {
      const event = keyed(item.localId, item.event)
      const { playEventId } = await retry(() => c.createPlay(event))
      const live = livePlays.get(item.localId)
      if (live) live.playEventId = playEventId
      // From here on, a failure only needs the update re-sent.
      if (!item.update) return null
      item = { kind: 'update', playEventId, update: item.update, attempts: item.attempts, userId: auth.userId() }
      const u = item
      try {
        await retry(() => c.updatePlay({ ...u.update, playEventId: u.playEventId }))
      } catch (error) {
        throw Object.assign(error as object, { replacement: u })
      }
      return null
    }
    const u = item
    await retry(() => c.updatePlay({ ...u.update, playEventId: u.playEventId }))
    return null
  }

  /** Sends queued events (signed in only). Items that fail again wait 5 s, then 10 s. */
  async function flushQueue(): Promise<void> {
    const c = client
    if (flushing || !auth.signedIn() || !c) return
    flushing = true
    try {
      for (;;) {
        const items = readQueue()
        const next = items.find((i) => mine(i) && i.attempts < QUEUE_RETRY.tries)
        if (!next) break
        let replacement: QueueItem | null = null
        let failed = false
        try {
          await sendItem(c, structuredClone(next))
        } catch (error) {
          if (!isPermanent(error)) {
            failed = true
            // A play created on the server whose update failed: only the update is retried.
            const base = (error as { replacement?: QueueItem }).replacement ?? next
            replacement = { ...base, attempts: next.attempts + 1 }
          }
        }
        // Re-read: the player may have merged updates into this item meanwhile.
        const current = readQueue()
        const at = current.findIndex((i) => sameItem(i, next))
        if (at >= 0) {
          const merged = current[at]
          if (replacement) {
            if (replacement.kind !== 'interaction' && merged.kind !== 'interaction') replacement.update = { ...replacement.update, ...merged.update }
            current[at] = replacement
          } else current.splice(at, 1)
          writeQueue(current)
        }
        if (failed) {
          const attempts = replacement?.attempts ?? 1
          // The first try came 5 s after queueing; the next waits twice as long (5 s, then 10 s).
          if (attempts < QUEUE_RETRY.tries) scheduleFlush(QUEUE_RETRY.delayMs * 2 ** attempts)
          // Retrying the rest now would hit the same outage: wait for the timer.
          break
        }
      }
    } finally {
      flushing = false
    }
  }

  /** A new chance for every stored item (page load, login, back online). */
  function rearm() {
    const items = readQueue()
    if (items.some((i) => i.attempts > 0)) writeQueue(items.map((i) => ({ ...i, attempts: 0 })))
    void flushQueue()
  }

  return {
    startPlay,
    recordInteraction,
    flushQueue,
    rearm,
    /** Hands the tracker its API client (the page's tRPC client, once it exists). */
    connect(c: EventClient) {
      client = c
    },
    queuedCount: () => readQueue().length,
    currentSession: () => session,
    resetSession() {
      session = newSession(now())
    },
  }
}

export type Tracker = ReturnType<typeof createTracker>

function sameItem(a: QueueItem, b: QueueItem): boolean {
  if (a.kind === 'play' && b.kind === 'play') return a.localId === b.localId
  if (a.kind === 'update' && b.kind === 'update') return a.playEventId === b.playEventId
  if (a.kind === 'interaction' && b.kind === 'interaction')
    return a.input.timestamp === b.input.timestamp && a.input.trackId === b.input.trackId && a.input.interactionType === b.input.interactionType
  return false
}

/** The Network Information API's answer, as 4g, 3g, 2g, ethernet, wifi or unknown. */
export function networkType(): NetworkType {
  const conn = (navigator as Navigator & { connection?: { type?: string; effectiveType?: string } }).connection
  if (!conn) return 'unknown'
  if (conn.type === 'wifi' || conn.type === 'ethernet') return conn.type
  const effective = conn.effectiveType
  if (effective === '4g' || effective === '3g' || effective === '2g') return effective
  if (effective === 'slow-2g') return '2g'
  return 'unknown'
}

let page: Tracker | null = null

/**
 * The page's tracker: localStorage, the auth store and the wall clock; a new listening session
 * on login and logout; flushed at start-up, on sign-in and when the network comes back.
 */
export function pageTracker(): Tracker {
  if (page) return page
  const t = createTracker({
    storage: localStorage,
    auth: { signedIn: () => authStore.get().isAuthenticated, userId: () => authStore.get().user?.id ?? null },
    now: Date.now,
  })
  page = t
  window.addEventListener(LOGIN_EVENT, t.resetSession)
  window.addEventListener(LOGOUT_EVENT, t.resetSession)
  window.addEventListener('online', t.rearm)
  let signedIn = authStore.get().isAuthenticated
  authStore.subscribe(() => {
    const now = authStore.get().isAuthenticated
    if (now && !signedIn) t.rearm()
    signedIn = now
  })
  return t
}
