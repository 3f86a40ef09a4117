// Fixed-window limits per key and bucket, in memory (one process serves the app). The key is a
// client address (IPv6 by /64, see addressKey) or, for the login buckets, the account (its e-mail)
// or the account and address together; how the login buckets combine: auth/login-throttle.ts.
// RATE_LIMIT=off turns them off for tests of other things. Numbers: docs/decisions/013.
//
// Memory is bounded with O(1) work per request: windows live in two generations of Maps. New
// and touched keys go to the current one; it becomes the previous one when it is as old as the
// longest window or holds MAX_KEYS keys, and the previous one is dropped whole. A key untouched
// for a full generation is forgotten only after its window has ended, unless a flood of new keys
// (MAX_KEYS within one window) rotates early; that flood costs the attacker the limit of a
// forgotten key at most, never the server's memory.
import { config } from '../config'

export type Bucket = 'auth' | LoginBucket | 'contact' | 'events' | 'remote' | 'hits' | 'shares'
/** Failed password checks, one set per door (web login, /rest): docs/decisions/046. */
export type LoginBucket = 'login-pair' | 'login-account' | 'rest-pair' | 'rest-account' | 'rest-address'

// Requests allowed per window, per key.
export const LIMITS: Record<Bucket, { max: number; windowMs: number }> = {
  // Per address: sign-up, login, forgot and reset. Generous, so one NAT of people signing in is
  // not locked out; the account bucket is what stops grinding one password.
  auth: { max: 30, windowMs: 60_000 },
  // Failed password checks per (account, address): what stops grinding one password from one place.
  'login-pair': { max: 10, windowMs: 15 * 60_000 },
  'rest-pair': { max: 10, windowMs: 15 * 60_000 },
  // Failed password checks per account from anywhere: once used up, only addresses that have not
  // failed for the account may still try (so the owner is not locked out with the guessers).
  'login-account': { max: 10, windowMs: 15 * 60_000 },
  'rest-account': { max: 10, windowMs: 15 * 60_000 },
  // Failed /rest checks per address, any account (the web's per-address limit is 'auth').
  'rest-address': { max: 30, windowMs: 60_000 },
  contact: { max: 5, windowMs: 10 * 60_000 },
  events: { max: 600, windowMs: 60_000 },
  remote: { max: 60, windowMs: 60_000 },
  hits: { max: 120, windowMs: 60_000 },
  // Visitors of share links (no account): opening a link and reporting its plays, per address.
  // A listener skipping through an album stays far below it; a script hammering a link does not.
  shares: { max: 60, windowMs: 60_000 },
}

const GENERATION_MS = Math.max(...Object.values(LIMITS).map((l) => l.windowMs))
const MAX_KEYS = 100_000

type Window = { start: number; count: number }

export function createLimiter(limits: Record<string, { max: number; windowMs: number }>, opts = { generationMs: GENERATION_MS, maxKeys: MAX_KEYS }) {
  let current = new Map<string, Window>()
  let previous = new Map<string, Window>()
  let generationStart = 0

  function windowFor(key: string, now: number): Window | undefined {
    if (now - generationStart >= opts.generationMs || current.size >= opts.maxKeys) {
      previous = current
      current = new Map()
      generationStart = now
    }
    let w = current.get(key)
    if (!w) {
      w = previous.get(key)
      if (w) current.set(key, w)
    }
    return w
  }

  return {
    /** Seconds to wait, or 0 when the request may go ahead (and is counted). */
    take(bucket: string, client: string, now = Date.now()): number {
      const { max, windowMs } = limits[bucket]
      const key = `${bucket}:${client}`
      let w = windowFor(key, now)
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0 }
        current.set(key, w)
      }
      if (w.count >= max) return Math.max(1, Math.ceil((w.start + windowMs - now) / 1000))
      w.count++
      return 0
    },
    /** Seconds to wait, or 0, without counting: for callers that count only failures (/rest). */
    peek(bucket: string, client: string, now = Date.now()): number {
      const { max, windowMs } = limits[bucket]
      const w = windowFor(`${bucket}:${client}`, now)
      if (!w || now - w.start >= windowMs || w.count < max) return 0
      return Math.max(1, Math.ceil((w.start + windowMs - now) / 1000))
    },
    /** Requests counted in the key's current window (0 once it has ended), without counting one. */
    count(bucket: string, client: string, now = Date.now()): number {
      const w = windowFor(`${bucket}:${client}`, now)
      return !w || now - w.start >= limits[bucket].windowMs ? 0 : w.count
    },
    /** Starts the key over (a right password clears that address's failures for the account). */
    forget(bucket: string, client: string): void {
      current.delete(`${bucket}:${client}`)
      previous.delete(`${bucket}:${client}`)
    },
    /** Keys held in memory (both generations): for tests and the benchmark. */
    size: () => current.size + previous.size,
  }
}

// One limiter per process: a /rest scrobble counts where the web player's play events do.
const limiter = createLimiter(LIMITS)

/** Seconds to wait, or 0 when the request may go ahead (and is counted). */
export function takeToken(bucket: Bucket, client: string, now = Date.now()): number {
  if (!config.RATE_LIMIT) return 0
  return limiter.take(bucket, client, now)
}

/** Seconds until the client may try again in this bucket (0: now), without counting a request. */
export function waitFor(bucket: Bucket, client: string, now = Date.now()): number {
  if (!config.RATE_LIMIT) return 0
  return limiter.peek(bucket, client, now)
}

/** Requests counted in the client's current window of this bucket (0 when limits are off). */
export function countIn(bucket: Bucket, client: string, now = Date.now()): number {
  if (!config.RATE_LIMIT) return 0
  return limiter.count(bucket, client, now)
}

/** Starts the client's window in this bucket over. */
export function forget(bucket: Bucket, client: string): void {
  limiter.forget(bucket, client)
}
