// HS256 JSON Web Tokens signed with AUTH_SECRET. The token is only a pointer: the session row it
// names must still exist (see sessions.ts).
import { createHmac, timingSafeEqual } from 'node:crypto'

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

export type JwtClaims = { userId: string; email: string; isAdmin: boolean; sid: string; exp: number; iat: number }

function sign(data: string, secret: string) {
  return createHmac('sha256', secret).update(data).digest('base64url')
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  return `${body}.${sign(body, secret)}`
}

/** The claims of a correctly signed, unexpired token, or null. */
export function verifyJwt(token: string, secret: string, nowMs = Date.now()): JwtClaims | null {
  const parts = token.split('.')
  if (parts.length !== 3 || parts[0] !== HEADER) return null
  const expected = new TextEncoder().encode(sign(`${parts[0]}.${parts[1]}`, secret))
  const given = new TextEncoder().encode(parts[2])
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as JwtClaims
    if (typeof claims.userId !== 'string' || typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return null
    if (claims.exp * 1000 <= nowMs) return null
    return claims
  } catch {
    return null
  }
}
