// Server-side sessions after the Lucia guide: a random secret goes into the token, its SHA-256
// is the row id. Logout, password reset, deletion and role changes delete rows, which revokes
// every token that points at them.
import { createHash } from 'node:crypto'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { and, eq, lte, ne, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { reusedWhileUnchanged } from '~/db/change-counter'
import { preparedFor } from '~/db/prepared'
import { sessions, type User } from '~/db/schema'
import { type JwtClaims, signJwt, verifyJwt } from './jwt'

export const SESSION_DAYS = 30
const DAY_MS = 86_400_000
/** "Last seen" is this coarse: a busy session writes its row at most once per interval, not per request. */
export const LAST_SEEN_INTERVAL_MS = 5 * 60_000

export type AuthUser = Pick<User, 'id' | 'username' | 'email' | 'isAdmin' | 'createdAt'> & { sessionId: string }

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

export function randomSecret(bytes = 20): string {
  const b = new Uint8Array(bytes)
  crypto.getRandomValues(b)
  return encodeBase32LowerCaseNoPadding(b)
}

export function createSession(db: Db, user: Pick<User, 'id' | 'email' | 'isAdmin'>, secret: string, userAgent = '') {
  const sid = randomSecret()
  const now = Date.now()
  const expiresAt = new Date(now + SESSION_DAYS * DAY_MS)
  db.insert(sessions)
    .values({ id: hashSecret(sid), userId: user.id, expiresAt, userAgent: userAgent.slice(0, 512), lastSeenAt: new Date(now) })
    .run()
  const token = signJwt(
    { userId: user.id, email: user.email, isAdmin: user.isAdmin, sid, iat: Math.floor(now / 1000), exp: Math.floor(expiresAt.getTime() / 1000) },
    secret,
  )
  return { token, expiresAt }
}

// Every signed-in request needs these rows: bun:sqlite statements prepared per database, no
// Drizzle query object or row mapping per call (decision 034), two primary-key lookups rather than
// one JOIN (decision 038), and their answer reused while no write has committed since (decision
// 040), so a logout, a role change or a deletion still counts at the next request.
type SessionRow = { userId: string; expiresAt: number; lastSeenAt: number | null }
type SessionUserRow = { id: string; username: string; email: string; isAdmin: number; createdAt: number }
const sessionQuery = preparedFor((db) =>
  db.$client.prepare<SessionRow, [string]>('SELECT user_id AS userId, expires_at AS expiresAt, last_seen_at AS lastSeenAt FROM sessions WHERE id = ?'),
)
const sessionUserQuery = preparedFor((db) =>
  db.$client.prepare<SessionUserRow, [string]>('SELECT id, username, email, is_admin AS isAdmin, created_at AS createdAt FROM users WHERE id = ?'),
)
const sessionRows = preparedFor((db) => reusedWhileUnchanged<{ session: SessionRow; user: SessionUserRow | null } | null>(db))

function loadSession(db: Db, sessionId: string) {
  const session = sessionQuery(db).get(sessionId)
  return session ? { session, user: sessionUserQuery(db).get(session.userId) } : null
}

// A token's signature check and its session id's hash depend only on the token and the secret:
// done once per token, not on every request (decision 038). The expiry and the row lookups below
// run every time, so a logout, a role change or an expired token still counts at once. Bounded:
// the map starts over when full.
const MAX_VERIFIED_TOKENS = 1024
const verifiedTokens = new Map<string, { secret: string; claims: JwtClaims; sessionId: string }>()

function verifiedToken(token: string, secret: string, now: number) {
  let known = verifiedTokens.get(token)
  if (known === undefined || known.secret !== secret) {
    const claims = verifyJwt(token, secret, now)
    if (!claims) return null
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.clear()
    known = { secret, claims, sessionId: hashSecret(claims.sid) }
    verifiedTokens.set(token, known)
  }
  return known.claims.exp * 1000 > now ? known : null
}

/** The user behind a token, if its signature, expiry, session row and admin flag all hold. */
export function validateToken(db: Db, token: string, secret: string, now = Date.now()): AuthUser | null {
  const verified = verifiedToken(token, secret, now)
  if (!verified) return null
  const { claims, sessionId } = verified
  const found = sessionRows(db)(sessionId, () => loadSession(db, sessionId))
  if (!found) return null
  // expiresAt and lastSeenAt are stored as milliseconds (timestamp_ms).
  const { session, user: row } = found
  if (session.expiresAt <= now || session.userId !== claims.userId) return null
  // A token minted before a role change carries a stale flag: it no longer counts.
  if (!row || row.isAdmin !== Number(claims.isAdmin)) return null
  const { lastSeenAt } = session
  if (!lastSeenAt || now - lastSeenAt >= LAST_SEEN_INTERVAL_MS) {
    db.update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, sessionId))
      .run()
  }
  return { id: row.id, username: row.username, email: row.email, isAdmin: row.isAdmin === 1, createdAt: new Date(row.createdAt), sessionId }
}

export function deleteSession(db: Db, sessionId: string) {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run()
}

export function deleteUserSessions(db: Db, userId: string) {
  db.delete(sessions).where(eq(sessions.userId, userId)).run()
}

/** Every session of the user but the one given (a password change keeps the device that made it). */
export function deleteOtherSessions(db: Db, userId: string, keepSessionId: string) {
  db.delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .run()
}

/** Housekeeping: expired sessions are refused anyway; returns how many were deleted. */
export function deleteExpiredSessions(db: Db): number {
  return db.delete(sessions).where(lte(sessions.expiresAt, new Date())).returning({ id: sessions.id }).all().length
}
