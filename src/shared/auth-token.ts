// Client-side token rules: cleaned of quotes and whitespace, 3 base64url parts, not expired. The server verifies signatures;
// the browser only cleans what it stored and drops tokens that cannot be valid.

export type TokenPayload = { userId: string; email: string; isAdmin: boolean; exp: number; sid?: string }

const PART = /^[A-Za-z0-9_-]+$/

/** Strips surrounding quotes and whitespace; at start-up also trailing '=' padding. */
export function cleanToken(raw: string, atStartup = false): string {
  let token = raw
    .trim()
    .replace(/^["']+|["']+$/g, '')
    .trim()
  if (atStartup) token = token.replace(/=+$/, '')
  return token
}

export function isWellFormedToken(token: string): boolean {
  const parts = token.split('.')
  return parts.length === 3 && parts.every((p) => PART.test(p))
}

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/')
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4)
  const binary = atob(padded)
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/** The payload of a well-formed, unexpired token, or null. */
export function readToken(token: string, nowMs = Date.now()): TokenPayload | null {
  if (!isWellFormedToken(token)) return null
  try {
    const payload = JSON.parse(base64UrlDecode(token.split('.')[1]))
    if (typeof payload?.userId !== 'string' || typeof payload?.exp !== 'number') return null
    if (payload.exp * 1000 <= nowMs) return null
    return { userId: payload.userId, email: String(payload.email ?? ''), isAdmin: payload.isAdmin === true, exp: payload.exp, sid: payload.sid }
  } catch {
    return null
  }
}
