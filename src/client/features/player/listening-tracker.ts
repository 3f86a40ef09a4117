// Members' listening events (§3, §4 "Listening session", §9): one listening session per visit, a
// play event when a track starts, cumulative updates, interactions. Calls that hit 429 are retried
// (3 tries, 1 s doubling). Anything that still fails, or happens while signed out, goes to a queue
// in localStorage (so a reload loses nothing) that is retried (2 tries, 5 s doubling) and flushed
// again on the next page load, on login and when the network comes back.
import { authStore, LOGIN_EVENT, LOGOUT_EVENT } from '~/client/features/auth/auth-store'
import { httpStatusOf } from '~/client/global-errors'
import { addTrack, newSession, nextTrackOf, previousTrackOf, type ListeningSession } from '~/shared/player/listening'
import type { InteractionInput, InteractionType, NetworkType, PlayEventCreateInput, PlayEventUpdateFieldsInput, PlaySource } from '~/shared/validators'

export type EventClient = {
  createPlay: (input: PlayEventCreateInput) => Promise<{ playEventId: string }>
  updatePlay: (input: PlayEventUpdateFieldsInput & { playEventId: string }) => Promise<unknown>
  createInteraction: (input: InteractionInput) => Promise<unknown>
}

type Update = PlayEventUpdateFieldsInput
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

let client: EventClient | null = null
let session: ListeningSession = newSession()
const livePlays = new Map<string, PlayHandle>()
let flushing = false
let flushTimer: ReturnType<typeof setTimeout> | null = null

const isSignedIn = () => authStore.get().isAuthenticated
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// ---- queue storage -------------------------------------------------------------------------

function readQueue(): QueueItem[] {
  try {
    const raw = localStorage.getItem(QUEUE_KEY)
    const parsed = raw ? (JSON.parse(raw) as unknown) : []
    return Array.isArray(parsed) ? (parsed as QueueItem[]) : []
  } catch {
    return []
  }
}

function writeQueue(items: QueueItem[]) {
  try {
    if (items.length === 0) localStorage.removeItem(QUEUE_KEY)
    else localStorage.setItem(QUEUE_KEY, JSON.stringify(items.slice(-QUEUE_MAX)))
  } catch {}
}

const me = () => authStore.get().user?.id ?? null
const mine = (i: QueueItem) => !i.userId || i.userId === me()

function enqueue(item: QueueItem) {
  item.userId ??= me()
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

// ---- sending ---------------------------------------------------------------------------------

/** Runs a call, retrying on 429 (3 tries in all, 1 s then 2 s apart). */
export async function with429Retry<T>(call: () => Promise<T>, opts = RETRY_429, wait: (ms: number) => Promise<unknown> = sleep): Promise<T> {
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

// ---- plays -----------------------------------------------------------------------------------

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

export class PlayHandle {
  readonly localId = crypto.randomUUID()
  playEventId: string | null = null
  private chain: Promise<unknown>
  private queued = false

  constructor(event: PlayEventCreateInput) {
    livePlays.set(this.localId, this)
    if (!isSignedIn() || !client) {
      this.queued = true
      enqueue({ kind: 'play', localId: this.localId, event, attempts: 0 })
      this.chain = Promise.resolve()
      return
    }
    const c = client
    this.chain = with429Retry(() => c.createPlay(event))
      .then((r) => {
        this.playEventId = r.playEventId
      })
      .catch((error) => {
        if (isPermanent(error)) return
        this.queued = true
        enqueue({ kind: 'play', localId: this.localId, event, attempts: 0 })
      })
  }

  /** Sends a cumulative update (later updates overwrite earlier fields). */
  update(update: Update): Promise<unknown> {
    this.chain = this.chain.then(async () => {
      if (this.playEventId === null) {
        // Not on the server yet: ride along with the queued play.
        if (this.queued && mergeQueued((i) => i.kind === 'play' && i.localId === this.localId, update)) return
        if (this.playEventId === null) return
      }
      const id = this.playEventId
      if (!isSignedIn() || !client) return queueUpdate(id, update)
      const c = client
      try {
        await with429Retry(() => c.updatePlay({ ...update, playEventId: id }))
      } catch (error) {
        if (!isPermanent(error)) queueUpdate(id, update)
      }
    })
    return this.chain
  }

  /**
   * The page is going away (reload, tab closed): an async call would be cancelled, so the final
   * update is written to the queue at once (sent on the next page load; updates are idempotent)
   * and also sent now with a keepalive request that outlives the page.
   */
  exitUpdate(update: Update) {
    if (this.playEventId === null) {
      // Still queued from earlier: ride along. (A create still in flight cannot be helped.)
      if (this.queued) mergeQueued((i) => i.kind === 'play' && i.localId === this.localId, update)
      return
    }
    queueUpdate(this.playEventId, update)
    if (isSignedIn()) sendKeepalive(this.playEventId, update)
  }

  /** Stops tracking this play in memory (its queued parts stay queued). */
  close() {
    livePlays.delete(this.localId)
  }
}

/** PUT /api/playlist/plays/{id} with fetch keepalive (the request survives the page). */
function sendKeepalive(playEventId: string, update: Update) {
  const token = authStore.get().token
  if (!token) return
  try {
    void fetch(`/api/playlist/plays/${encodeURIComponent(playEventId)}`, {
      method: 'PUT',
      keepalive: true,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(update),
    }).catch(() => {})
  } catch {}
}

function queueUpdate(playEventId: string, update: Update) {
  if (!mergeQueued((i) => i.kind === 'update' && i.playEventId === playEventId, update)) enqueue({ kind: 'update', playEventId, update, attempts: 0 })
}

/** Records the start of a play: session position, neighbours, network type. */
export function startPlay(ctx: PlayContext): PlayHandle {
  session = addTrack(session, ctx.trackId)
  const next = nextTrackOf(ctx.list, ctx.url)
  return new PlayHandle({
    trackUrl: ctx.trackId.slice(0, 2048),
    title: ctx.title.slice(0, 500) || 'Unknown Title',
    duration: Number.isFinite(ctx.duration) && ctx.duration > 0 ? Math.round(ctx.duration * 100) / 100 : 0,
    artist: ctx.artist?.slice(0, 300) || null,
    album: ctx.album?.slice(0, 300) || null,
    genre: ctx.genre?.slice(0, 200) || null,
    year: ctx.year && ctx.year >= 1000 && ctx.year <= 2999 ? ctx.year : null,
    source: ctx.source,
    playlistId: ctx.playlistId?.slice(0, 200) || null,
    previousTrack: previousTrackOf(session)?.slice(0, 2048) ?? null,
    nextTrack: next ? ctx.idOf(next).slice(0, 2048) : null,
    sessionId: session.id,
    sessionPosition: session.position,
    networkType: networkType(),
  })
}

export function recordInteraction(trackId: string, interactionType: InteractionType) {
  const input: InteractionInput = { trackId: trackId.slice(0, 2048), interactionType, timestamp: Date.now() }
  if (!isSignedIn() || !client) return enqueue({ kind: 'interaction', input, attempts: 0 })
  const c = client
  void with429Retry(() => c.createInteraction(input)).catch((error) => {
    if (!isPermanent(error)) enqueue({ kind: 'interaction', input, attempts: 0 })
  })
}

/** The Network Information API's answer, in the spec's values. */
export function networkType(): NetworkType {
  const conn = (navigator as Navigator & { connection?: { type?: string; effectiveType?: string } }).connection
  if (!conn) return 'unknown'
  if (conn.type === 'wifi' || conn.type === 'ethernet') return conn.type
  const effective = conn.effectiveType
  if (effective === '4g' || effective === '3g' || effective === '2g') return effective
  if (effective === 'slow-2g') return '2g'
  return 'unknown'
}

export function resetSession() {
  session = newSession()
}

// ---- flushing --------------------------------------------------------------------------------

function scheduleFlush(delayMs: number) {
  if (typeof window === 'undefined' || !isSignedIn() || !client) return
  if (flushTimer) clearTimeout(flushTimer)
  flushTimer = setTimeout(() => {
    flushTimer = null
    void flushQueue()
  }, delayMs)
}

async function sendItem(c: EventClient, item: QueueItem): Promise<QueueItem | null> {
  if (item.kind === 'interaction') {
    const input = item.input
    await with429Retry(() => c.createInteraction(input))
    return null
  }
  if (item.kind === 'play') {
    const event = item.event
    const { playEventId } = await with429Retry(() => c.createPlay(event))
    const live = livePlays.get(item.localId)
    if (live) live.playEventId = playEventId
    // From here on, a failure only needs the update re-sent.
    if (!item.update) return null
    item = { kind: 'update', playEventId, update: item.update, attempts: item.attempts, userId: me() }
  }
  const u = item
  await with429Retry(() => c.updatePlay({ ...u.update, playEventId: u.playEventId }))
  return null
}

/** Sends queued events (signed in only). Items that fail again wait 5 s, then 10 s. */
export async function flushQueue(): Promise<void> {
  if (flushing || !isSignedIn() || !client) return
  flushing = true
  const c = client
  try {
    for (;;) {
      const items = readQueue()
      const next = items.find((i) => mine(i) && i.attempts < QUEUE_RETRY.tries)
      if (!next) break
      let replacement: QueueItem | null = null
      let failed = false
      try {
        replacement = await sendItem(c, structuredClone(next))
      } catch (error) {
        if (!isPermanent(error)) {
          failed = true
          replacement = { ...next, attempts: next.attempts + 1 }
        }
      }
      // Re-read: the player may have merged updates into this item meanwhile.
      const now = readQueue()
      const at = now.findIndex((i) => sameItem(i, next))
      if (at >= 0) {
        const merged = now[at]
        if (replacement) {
          if (replacement.kind !== 'interaction' && merged.kind !== 'interaction') replacement.update = { ...replacement.update, ...merged.update }
          now[at] = replacement
        } else now.splice(at, 1)
        writeQueue(now)
      }
      if (failed) {
        const attempts = replacement?.attempts ?? 1
        if (attempts < QUEUE_RETRY.tries) scheduleFlush(QUEUE_RETRY.delayMs * 2 ** (attempts - 1))
        // Retrying the rest now would hit the same outage: wait for the timer.
        break
      }
    }
  } finally {
    flushing = false
  }
}

function sameItem(a: QueueItem, b: QueueItem): boolean {
  if (a.kind === 'play' && b.kind === 'play') return a.localId === b.localId
  if (a.kind === 'update' && b.kind === 'update') return a.playEventId === b.playEventId
  if (a.kind === 'interaction' && b.kind === 'interaction') return a.input.timestamp === b.input.timestamp && a.input.trackId === b.input.trackId && a.input.interactionType === b.input.interactionType
  return false
}

/** A new chance for every stored item (page load, login, back online). */
function rearm() {
  const items = readQueue()
  if (items.some((i) => i.attempts > 0)) writeQueue(items.map((i) => ({ ...i, attempts: 0 })))
  void flushQueue()
}

let installed = false

/** Wires the tracker to the API client and to login/logout/online events (once per page). */
export function installTracker(c: EventClient) {
  client = c
  if (installed || typeof window === 'undefined') return
  installed = true
  window.addEventListener(LOGIN_EVENT, resetSession)
  window.addEventListener(LOGOUT_EVENT, resetSession)
  window.addEventListener('online', rearm)
  // Flush whenever someone becomes signed in (start-up hydration or a login).
  let signedIn = isSignedIn()
  authStore.subscribe(() => {
    const now = isSignedIn()
    if (now && !signedIn) rearm()
    signedIn = now
  })
  rearm()
}
