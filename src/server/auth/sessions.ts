// Server-side sessions after the Lucia guide: a random secret goes into the token, its SHA-256
// is the row id. Logout, password reset, deletion and role changes delete rows, which revokes
// every token that points at them.
import { createHash } from 'node:crypto'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { and, eq, lte, ne } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { reusedWhileUnchanged } from '~/db/change-counter'
import { isPostgres, postgresPool, tablesOf } from '~/db/engine'
import { preparedFor } from '~/db/prepared'
import type { User } from '~/db/schema'
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

export async function createSession(db: Db, user: Pick<User, 'id' | 'email' | 'isAdmin'>, secret: string, userAgent = '') {
  const sid = randomSecret()
  const now = Date.now()
  const expiresAt = new Date(now + SESSION_DAYS * DAY_MS)
  const { sessions } = tablesOf(db)
  await db.insert(sessions).values({ id: hashSecret(sid), userId: user.id, expiresAt, userAgent: userAgent.slice(0, 512), lastSeenAt: new Date(now) })
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

/**
 * The user behind a token, if its signature, expiry, session row and admin flag all hold. On
 * SQLite it answers at once (prepared statements, rows reused while no write has committed). On
 * PostgreSQL another node may have revoked the session a moment ago, so the rows are read fresh
 * on every request: nothing outlives a write made elsewhere (docs/decisions/083).
 */
export function authenticate(db: Db, token: string, secret: string, now = Date.now()): AuthUser | null | Promise<AuthUser | null> {
  return isPostgres(db) ? validateTokenFresh(db, token, secret, now) : validateToken(db, token, secret, now)
}

/** SQLite: `authenticate`'s answer without a promise (prepared statements, rows reused while unchanged). */
export function validateToken(db: Db, token: string, secret: string, now = Date.now()): AuthUser | null {
  const verified = verifiedToken(token, secret, now)
  if (!verified) return null
  const { sessionId } = verified
  const found = sessionRows(db)(sessionId, () => loadSession(db, sessionId))
  const user = acceptSession(found, verified.claims, sessionId, now)
  if (user && needsLastSeen(found, now)) {
    const { sessions } = tablesOf(db)
    db.update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, sessionId))
      .run()
  }
  return user
}

async function validateTokenFresh(db: Db, token: string, secret: string, now: number): Promise<AuthUser | null> {
  const verified = verifiedToken(token, secret, now)
  if (!verified) return null
  const { sessionId } = verified
  // One round trip, the session and its user together, as one statement the connection prepared
  // once (docs/decisions/103). The times are bigint milliseconds (int8 as BigInt).
  const [row] = await postgresPool(db)<PostgresSessionRow[]>`
    SELECT s.user_id, s.expires_at, s.last_seen_at, u.id, u.username, u.email, u.is_admin, u.created_at
    FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ${sessionId}`
  const found = row
    ? {
        session: { userId: row.user_id, expiresAt: Number(row.expires_at), lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at) },
        user:
          row.id === null || row.username === null || row.email === null || row.is_admin === null || row.created_at === null
            ? null
            : { id: row.id, username: row.username, email: row.email, isAdmin: row.is_admin ? 1 : 0, createdAt: Number(row.created_at) },
      }
    : null
  const user = acceptSession(found, verified.claims, sessionId, now)
  if (user && needsLastSeen(found, now)) {
    const { sessions } = tablesOf(db)
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.id, sessionId))
  }
  return user
}

type PostgresSessionRow = {
  user_id: string
  expires_at: bigint
  last_seen_at: bigint | null
  id: string | null
  username: string | null
  email: string | null
  is_admin: boolean | null
  created_at: bigint | null
}

type SessionRows = { session: SessionRow; user: SessionUserRow | null } | null

/** The checks of both engines' session reads: expiry, owner, and an admin flag no role change has made stale. */
function acceptSession(found: SessionRows, claims: JwtClaims, sessionId: string, now: number): AuthUser | null {
  if (!found) return null
  // expiresAt and lastSeenAt are stored as milliseconds (timestamp_ms).
  const { session, user: row } = found
  if (session.expiresAt <= now || session.userId !== claims.userId) return null
  // A token minted before a role change carries a stale flag: it no longer counts.
  if (!row || row.isAdmin !== Number(claims.isAdmin)) return null
  return { id: row.id, username: row.username, email: row.email, isAdmin: row.isAdmin === 1, createdAt: new Date(row.createdAt), sessionId }
}

const needsLastSeen = (found: SessionRows, now: number) => {
  const lastSeenAt = found?.session.lastSeenAt
  return !lastSeenAt || now - lastSeenAt >= LAST_SEEN_INTERVAL_MS
}

export async function deleteSession(db: Db, sessionId: string) {
  const { sessions } = tablesOf(db)
  await db.delete(sessions).where(eq(sessions.id, sessionId))
}

export async function deleteUserSessions(db: Db, userId: string) {
  const { sessions } = tablesOf(db)
  await db.delete(sessions).where(eq(sessions.userId, userId))
}

/** Every session of the user but the one given (a password change keeps the device that made it). */
export async function deleteOtherSessions(db: Db, userId: string, keepSessionId: string) {
  const { sessions } = tablesOf(db)
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
}

/** Housekeeping: expired sessions are refused anyway; returns how many were deleted. */
export async function deleteExpiredSessions(db: Db): Promise<number> {
  const { sessions } = tablesOf(db)
  return (await db.delete(sessions).where(lte(sessions.expiresAt, new Date())).returning({ id: sessions.id })).length
}
