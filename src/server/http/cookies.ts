// The session cookie (httpOnly, SameSite=Lax) and the XSRF double-submit cookie (readable by JS).
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

type CookieOptions = { maxAgeSec: number; httpOnly: boolean; secure: boolean }

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return [`${name}=${encodeURIComponent(value)}`, 'Path=/', `Max-Age=${o.maxAgeSec}`, 'SameSite=Lax', o.httpOnly ? 'HttpOnly' : '', o.secure ? 'Secure' : '']
    .filter(Boolean)
    .join('; ')
}
