// Reverse-proxy authentication (docs/decisions/080): with AUTH_PROXY_HEADER (e.g. Remote-User),
// a proxy that TRUST_PROXY lists and that already checked who is calling (Authelia, Authentik,
// oauth2-proxy…) names the member in that header. The front calls this first, for every request:
//   - the header is always removed, so nothing after this (handlers, logs) ever sees it;
//   - from any other address it counts for nothing: anyone can send a header;
//   - from the proxy, the request becomes that member's: the member is found by username (or by
//     e-mail, for a name with an @) and made on first sight, and the request carries that
//     member's session cookie, which the answer also sets, so the browser holds a normal session.
//     A name that is neither a valid username nor an e-mail is ignored.
//     Cookie rules stay as they are: a write still needs the XSRF header the page sends.
import { type AuthUser, authenticate, createSession } from '../auth/sessions'
import type { TrustProxy } from '../config-env'
import { getDb } from '../db'
import { authCookies, readCookie, SESSION_COOKIE } from '../http/cookies'
import { isTrustedProxy } from '../http/trust-proxy'
import { logger } from '../logger'
import { memberForProxyName } from '../services/sign-in'

/** What serve.ts calls: null when the request stays as it came, else the Set-Cookie lines its answer carries. */
export type ProxyAuth = (request: Request, socketAddress: () => string) => Promise<string[]> | null

const MAX_NAME = 254
/** Sessions made for callers without cookies (scripts) are reused, not made per request: bounded. */
const MAX_REMEMBERED = 1000

export function createProxyAuth(options: { header: string; trust: TrustProxy; secret: string; secureCookies: boolean }): ProxyAuth {
  const tokens = new Map<string, string>()

  function withSessionCookie(request: Request, token: string) {
    const others = (request.headers.get('cookie') ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part && !part.startsWith(`${SESSION_COOKIE}=`))
    request.headers.set('cookie', [...others, `${SESSION_COOKIE}=${encodeURIComponent(token)}`].join('; '))
    // The proxy's word decides who calls, not a token some other member's page kept.
    request.headers.delete('authorization')
  }

  async function signInAs(request: Request, name: string): Promise<string[]> {
    const db = getDb()
    const member = await memberForProxyName(db, name)
    if (!member) {
      logger.warn('the authenticating proxy sent a name that is neither a username nor an e-mail: ignored')
      return []
    }
    let token = tokens.get(member.id)
    if (!token || (await authenticate(db, token, options.secret))?.id !== member.id) {
      token = (await createSession(db, member, options.secret, request.headers.get('user-agent') ?? '')).token
      if (tokens.size >= MAX_REMEMBERED) tokens.clear()
      tokens.set(member.id, token)
      logger.info({ userId: member.id }, 'signed in by the authenticating proxy')
    }
    withSessionCookie(request, token)
    return authCookies(token, options.secureCookies || request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https')
  }

  return (request, socketAddress) => {
    const raw = request.headers.get(options.header)
    if (raw === null) return null
    request.headers.delete(options.header)
    const name = raw.trim()
    if (!name || name.length > MAX_NAME || !isTrustedProxy(options.trust, socketAddress())) return null
    // Already this member's session: nothing to change (the usual case once the browser has it).
    const current = readCookie(request.headers, SESSION_COOKIE)
    const user = current ? authenticate(getDb(), current, options.secret) : null
    const isNamed = (found: AuthUser | null) => found !== null && (found.username === name || found.email === name.toLowerCase())
    // SQLite answers at once; PostgreSQL with a promise (the session is read fresh there).
    if (user instanceof Promise)
      return user.then((found) => {
        if (!isNamed(found)) return signInAs(request, name)
        request.headers.delete('authorization')
        return []
      })
    if (!isNamed(user)) return signInAs(request, name)
    request.headers.delete('authorization')
    return null
  }
}
