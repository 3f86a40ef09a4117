// Limits on password guessing that lock out the guesses, not the owner (docs/decisions/046).
//
// Threat: someone who knows only a member's username or e-mail. With one budget per account, ten
// wrong passwords from anywhere locked the member's own web login and apps out for 15 minutes, and
// repeating them kept it so. Guessing must stay slow all the same, from one address or from many.
//
// Rule, per door (the web login and /rest count apart, so guesses at one do not close the other):
//   - per (account, address): 10 failures in 15 minutes, then that address waits for that account,
//     even with the right password (else the limit would tell a right guess from a wrong one);
//   - per account: 10 failures in 15 minutes from anywhere; once used up, an address that has
//     failed for the account waits too, but an address that has not (the owner at home, her phone)
//     still has its password checked: a guesser with many addresses gets one try per address;
//   - per address, any account (/rest only; the web's is the 'auth' limit on every call): spraying
//     one password over many accounts;
//   - a right password clears that address's failures for the account (the owner who mistyped).
// Only failures count: an app sends its password with every request.
import { countIn, forget, type LoginBucket, takeToken, waitFor } from '../http/rate-limit'

export type Door = 'web' | 'rest'

/** A number now (the in-memory limits) or once the database answers (the limits shared on PostgreSQL). */
type Maybe<T> = T | Promise<T>

type Limiter = {
  /** Counts one; seconds to wait when the window was already full (then nothing is counted). */
  take(bucket: LoginBucket, key: string, now: number): Maybe<number>
  /** Seconds to wait, or 0, without counting. */
  peek(bucket: LoginBucket, key: string, now: number): Maybe<number>
  count(bucket: LoginBucket, key: string, now: number): Maybe<number>
  forget(bucket: LoginBucket, key: string): Maybe<void>
}

/** The in-memory limiter: every answer at once. */
type LimiterNow = { [K in keyof Limiter]: (...args: Parameters<Limiter[K]>) => Awaited<ReturnType<Limiter[K]>> }

type Throttle<Wait, Done> = {
  wait(attempt: Attempt, now?: number): Wait
  failed(attempt: Attempt, now?: number): Done
  succeeded(attempt: Attempt): Done
}

/** The values, at once when none is a promise (the in-memory limiter keeps its path without promises). */
function whenAll<T, R>(values: Maybe<T>[], combine: (ready: T[]) => R): Maybe<R> {
  return values.some((v) => v instanceof Promise) ? Promise.all(values).then(combine) : combine(values as T[])
}

const BUCKETS: Record<Door, { pair: LoginBucket; account: LoginBucket; address: LoginBucket | null }> = {
  web: { pair: 'login-pair', account: 'login-account', address: null },
  rest: { pair: 'rest-pair', account: 'rest-account', address: 'rest-address' },
}

/** Who is trying: the account (its e-mail; null for an app key, which names none) from an address. */
export type Attempt = { door: Door; account: string | null; address: string }

const pairKey = (account: string, address: string) => `${account}\n${address}`

export function createLoginThrottle(limiter: LimiterNow): Throttle<number, void>
export function createLoginThrottle(limiter: Limiter): Throttle<Maybe<number>, Maybe<void>>
export function createLoginThrottle(limiter: Limiter): Throttle<Maybe<number>, Maybe<void>> {
  return {
    /** Seconds this attempt must wait before any password is checked; 0: check it. */
    wait({ door, account, address }: Attempt, now = Date.now()): Maybe<number> {
      const b = BUCKETS[door]
      const fromAddress = b.address === null ? 0 : limiter.peek(b.address, address, now)
      if (account === null) return fromAddress
      const pair = pairKey(account, address)
      return whenAll(
        [fromAddress, limiter.peek(b.pair, pair, now), limiter.count(b.pair, pair, now), limiter.peek(b.account, account, now)],
        ([fromAddr, fromPair, pairFailures, fromAccount]) => Math.max(fromAddr, fromPair, pairFailures > 0 ? fromAccount : 0),
      )
    },
    /** A wrong password (or unknown account, or bad key): counted in every bucket of the door. */
    failed({ door, account, address }: Attempt, now = Date.now()): Maybe<void> {
      const b = BUCKETS[door]
      const taken = b.address === null ? [] : [limiter.take(b.address, address, now)]
      if (account !== null) taken.push(limiter.take(b.pair, pairKey(account, address), now), limiter.take(b.account, account, now))
      return whenAll(taken, () => undefined)
    },
    /** A right password: this address's earlier failures for the account no longer count. */
    succeeded({ door, account, address }: Attempt): Maybe<void> {
      if (account !== null) return limiter.forget(BUCKETS[door].pair, pairKey(account, address))
    },
  }
}

/** The server's throttle, on the shared in-memory limits (off with RATE_LIMIT=off). */
export const loginThrottle = createLoginThrottle({ take: takeToken, peek: waitFor, count: countIn, forget })
