// The request context. createContextInner builds one without a request (tests, the REST
// adapter); createContext reads identity from the Authorization header or the session cookie, or
// takes the stand-in user serve.ts renders a member page template as (http/stand-in.ts).
import type { Db } from '~/db/client'
import { authenticate, type AuthUser } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { clientInfo, forwardedHttps, withPeerAddress, type ClientInfo } from '../http/client-info'
import { readCookie, SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from '../http/cookies'
import { requestToken } from '../http/request-token'
import { standInOf } from '../http/stand-in'

export type Context = {
  db: Db
  user: AuthUser | null
  /** A token was sent but failed (bad signature, expired, revoked): 401 says so. */
  invalidToken: boolean
  client: ClientInfo
  /** Where procedures put Set-Cookie and other headers for the HTTP answer. */
  resHeaders: Headers
  /** Whether the caller reached us over https (decides the cookie Secure flag). */
  secure: boolean
  /** How a write shows it was not forged by another site's page: 'proven' (a Bearer token, or the
   *  XSRF header matching the XSRF cookie), 'unproven' (our cookies without that header), 'none'
   *  (no credentials at all: what a cross-site form post carries, SameSite=Lax keeping the cookies back). */
  writeProof: WriteProof
}

export type WriteProof = 'proven' | 'unproven' | 'none'

export function createContextInner(opts: Partial<Context> & { db: Db }): Context {
  // Defaults made only when missing: a Headers object per request is not free (decision 042).
  return {
    db: opts.db,
    user: opts.user ?? null,
    invalidToken: opts.invalidToken ?? false,
    client: opts.client ?? { ip: '127.0.0.1', userAgent: '', country: null, region: null, city: null },
    resHeaders: opts.resHeaders ?? new Headers(),
    secure: opts.secure ?? false,
    writeProof: opts.writeProof ?? 'none',
  }
}

function writeProofOf(request: Request): WriteProof {
  if (request.headers.get('authorization')?.toLowerCase().startsWith('bearer ')) return 'proven'
  const expected = readCookie(request.headers, XSRF_COOKIE)
  if (expected === undefined && readCookie(request.headers, SESSION_COOKIE) === undefined) return 'none'
  return expected && request.headers.get(XSRF_HEADER) === expected ? 'proven' : 'unproven'
}

/** The request's context: at once on SQLite, a promise on PostgreSQL (its session read is a round trip). */
export function createContext(request: Request, resHeaders = new Headers()): Context | Promise<Context> {
  const db = getDb()
  const standIn = standInOf(request)
  const token = standIn ? null : requestToken(request)
  const user = standIn ?? (token ? authenticate(db, token, config.AUTH_SECRET) : null)
  return user instanceof Promise ? user.then((found) => contextOf(request, resHeaders, db, token, found)) : contextOf(request, resHeaders, db, token, user)
}

function contextOf(request: Request, resHeaders: Headers, db: Db, token: string | null, user: AuthUser | null): Context {
  const secure =
    request.url.startsWith('https:') || config.APP_URL.startsWith('https:') || (config.TRUST_PROXY.kind !== 'none' && forwardedHttps(withPeerAddress(request)))
  let client: ClientInfo | undefined
  return {
    db,
    user,
    invalidToken: token !== null && user === null,
    resHeaders,
    secure,
    // Worked out when a procedure first reads it (most reads never do): it may ask the socket.
    get client() {
      client ??= clientInfo(withPeerAddress(request))
      return client
    },
    // Read by the one procedure that needs it (logout).
    get writeProof() {
      return writeProofOf(request)
    },
  }
}
