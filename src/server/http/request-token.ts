// The session token a request carries, read one way by the tRPC context and the member page
// cache: the Authorization header first, else the session cookie.
import { readCookie, SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from './cookies'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The token a request carries: Bearer first, else the session cookie (with its XSRF rule). */
export function requestToken(request: Request): string | null {
  const auth = request.headers.get('authorization')
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || null
  const cookie = readCookie(request.headers, SESSION_COOKIE)
  if (!cookie) return null
  // Cookie-only writes must prove they come from our pages (double-submit XSRF).
  if (!SAFE_METHODS.has(request.method)) {
    const expected = readCookie(request.headers, XSRF_COOKIE)
    if (!expected || request.headers.get(XSRF_HEADER) !== expected) return null
  }
  return cookie
}
