// The session cookie (httpOnly, SameSite=Lax) and the XSRF double-submit cookie (readable by JS).
import { randomSecret, SESSION_DAYS } from '../auth/sessions'

export const SESSION_COOKIE = 'vibes_session'
export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'x-xsrf-token'

export function readCookie(headers: Headers, name: string): string | undefined {
  const header = headers.get('cookie')
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim())
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

type CookieOptions = { maxAgeSec: number; httpOnly: boolean; secure: boolean; path?: string }

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${o.path ?? '/'}`,
    `Max-Age=${o.maxAgeSec}`,
    'SameSite=Lax',
    o.httpOnly ? 'HttpOnly' : '',
    o.secure ? 'Secure' : '',
  ]
    .filter(Boolean)
    .join('; ')
}

/** The Set-Cookie lines that sign a browser in with `token` (or, with null, out): the session and its XSRF partner. */
export function authCookies(token: string | null, secure: boolean): string[] {
  const maxAgeSec = token ? SESSION_DAYS * 86_400 : 0
  return [
    serializeCookie(SESSION_COOKIE, token ?? '', { maxAgeSec, httpOnly: true, secure }),
    serializeCookie(XSRF_COOKIE, token ? randomSecret() : '', { maxAgeSec, httpOnly: false, secure }),
  ]
}
