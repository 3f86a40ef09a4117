// Who is calling /rest. OpenSubsonic clients authenticate on every request, with one of:
//   u + p        the password, plain or `enc:` + hex; checked against the argon2id hash. An app
//                key of u's account works as the password too (older apps ask for a password).
//   apiKey       an app key from /profile (the apiKeyAuthentication extension); u must be absent
//   u + t + s    md5(secret + salt): needs the secret in clear on the server. Vibes keeps app keys
//                encrypted (auth/sealed-secret.ts) but never the account password, so a token
//                made from an app key passes and any other answers error 41, after which the
//                app falls back to p or apiKey (decision 066).
// `u` is the username (or the e-mail the web login uses).
//
// argon2id costs tens of milliseconds by design, and a streaming app sends its password with every
// request (cover art, stream, scrobble…). A successful check is remembered for a few minutes under
// a SHA-256 of user id, password and stored hash: a changed password (new hash) misses it, and
// the cache holds no password. Failures are never cached and count toward the /rest door's
// guessing limits (auth/login-throttle.ts: per account and address, per account, per address; the
// web login counts apart); an attempt the limits refuse gets 429 before any password is checked.
// Successes are not counted: an app authenticates on every request. A failed token is not counted
// either: an app that keeps the account password tries token login first on every request, and
// an app key (256 random bits) cannot be guessed through it.
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'
import { eq, or } from 'drizzle-orm'
import { type Db, tablesOf } from '~/db/engine'
import { verifyPassword, timingDummyHash } from '../auth/password'
import { addressKey } from '../http/client-info'
import { RateLimitedError } from '../errors'
import { type Attempt, loginThrottle } from '../auth/login-throttle'
import { config } from '../config'
import { APP_KEY_PREFIX, verifyAppKey, verifyAppKeyToken, type AppKeyUser } from '../services/app-keys'
import { textProblem } from '../http/nul-text'
import { ErrorCode, SubsonicError } from './response'

export type SubsonicUser = AppKeyUser

const VERIFIED_TTL_MS = 10 * 60_000
const VERIFIED_MAX = 10_000
const verified = new Map<string, number>()

const digest = (s: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(s)))

/** `enc:` + hex is the password's UTF-8 bytes in hex; anything else is the password itself. */
export function decodePassword(p: string): string | null {
  if (!p.startsWith('enc:')) return p
  const hex = p.slice(4)
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null
  return new TextDecoder().decode(Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16)))
}

/** Refuses the attempt, before any check, when the limits say this address may not try now. */
function refuseIfLimited(attempt: Attempt, now: number) {
  const wait = loginThrottle.wait(attempt, now)
  if (wait > 0) throw new RateLimitedError(wait)
}

export async function authenticate(db: Db, params: URLSearchParams, clientIp: string): Promise<SubsonicUser> {
  const now = Date.now()
  const address = addressKey(clientIp)
  const u = params.get('u')
  const apiKey = params.get('apiKey')
  if (apiKey !== null) {
    if (u !== null) throw new SubsonicError(ErrorCode.conflictingAuth, 'Multiple conflicting authentication mechanisms provided')
    const attempt: Attempt = { door: 'rest', account: null, address }
    refuseIfLimited(attempt, now)
    const user = await verifyAppKey(db, apiKey, now)
    if (user) return user
    loginThrottle.failed(attempt, now)
    throw new SubsonicError(ErrorCode.invalidApiKey, 'Invalid API key')
  }
  if (u === null) throw new SubsonicError(ErrorCode.missingParameter, 'Required parameter is missing: u')
  const p = params.get('p')
  const token = params.get('t')
  const salt = params.get('s')
  if (p === null && token === null && salt === null) throw new SubsonicError(ErrorCode.missingParameter, 'Required parameter is missing: p')
  const { users } = tablesOf(db)
  // No account's name holds a NUL or non-Unicode text (nor can PostgreSQL compare one): such a name is simply unknown.
  const [row] = textProblem(u)
    ? []
    : await db
        .select({ id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin, passwordHash: users.passwordHash })
        .from(users)
        .where(or(eq(users.username, u), eq(users.email, u.trim().toLowerCase())))
        .limit(1)
  // The account is keyed by its e-mail: the same count whichever name the app sends.
  const attempt: Attempt = { door: 'rest', account: row?.email ?? u.trim().toLowerCase(), address }
  refuseIfLimited(attempt, now)
  if (p === null) {
    if (row && token !== null && salt !== null && (await verifyAppKeyToken(db, config.AUTH_SECRET, row.id, token, salt, now))) return publicUser(row)
    throw new SubsonicError(
      ErrorCode.tokenAuthNotSupported,
      'Token authentication works only with an app key (create one on your profile): send the password (p) or an app key (apiKey)',
    )
  }
  const password = decodePassword(p)
  if (row && password?.startsWith(APP_KEY_PREFIX)) {
    // An app key as the password: it must be a live key of this very account.
    const owner = await verifyAppKey(db, password, now, row.id)
    if (owner) return owner
  }
  if (row && password !== null) {
    const key = digest(`${row.id}\0${password}\0${row.passwordHash}`)
    const until = verified.get(key)
    if (until !== undefined && until > now) return publicUser(row)
    if (await verifyPassword(password, row.passwordHash)) {
      if (verified.size >= VERIFIED_MAX) verified.clear()
      verified.set(key, now + VERIFIED_TTL_MS)
      loginThrottle.succeeded(attempt)
      return publicUser(row)
    }
  } else {
    // The same work as a wrong password, so timing does not tell which accounts exist.
    await verifyPassword(password ?? '', await timingDummyHash())
  }
  loginThrottle.failed(attempt, now)
  throw new SubsonicError(ErrorCode.wrongCredentials, 'Wrong username or password')
}

const publicUser = ({ passwordHash: _, ...user }: SubsonicUser & { passwordHash: string }): SubsonicUser => user
