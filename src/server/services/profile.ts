// The member's own account (/profile): username, e-mail and password
// changes, the list of their sessions with revoke, and deleting the account. Every change is
// confirmed with the current password, so a session left open on a shared computer cannot take
// the account over. Ownership of a session is part of each WHERE clause: another member's session
// id is simply "not found".
import { ConflictError, InvalidError, NotFoundError } from '../errors'
import { and, count, desc, eq, gt, ne } from 'drizzle-orm'
import { type Db, isUniqueViolation, tablesOf, transaction } from '~/db/engine'
import { deviceName } from '~/shared/player/device'
import type { ChangeEmailInput, ChangePasswordInput, ChangeUsernameInput } from '~/shared/validators'
import { confirmPassword } from '../auth/confirm-password'
import { hashPassword } from '../auth/password'
import { type AuthUser, createSession, deleteOtherSessions, deleteSession } from '../auth/sessions'
import { revokeAllAppKeys } from './app-keys'

export { WRONG_PASSWORD } from '../auth/confirm-password'
export const USERNAME_TAKEN = 'Username is already taken'
export const EMAIL_TAKEN = 'Email is already registered'
export const SESSION_NOT_FOUND = 'Session not found'
export const LAST_ADMIN = 'You are the only admin: make another member an admin before deleting your account.'

/** Two members racing for the same name or address: the unique index decides. */
async function updateUnique(db: Db, userId: string, values: { username: string } | { email: string }, takenMessage: string) {
  const { users } = tablesOf(db)
  try {
    await db.update(users).set(values).where(eq(users.id, userId))
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(takenMessage)
    throw error
  }
}

export async function changeUsername(db: Db, user: AuthUser, input: ChangeUsernameInput) {
  await confirmPassword(db, user.id, input.currentPassword)
  const { users } = tablesOf(db)
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, input.username), ne(users.id, user.id)))
  if (taken) throw new ConflictError(USERNAME_TAKEN)
  await updateUnique(db, user.id, { username: input.username }, USERNAME_TAKEN)
  return { ...user, username: input.username }
}

/**
 * The token carries the e-mail, so the current session is swapped for a fresh one whose token
 * says the new address (the page stores it); the member's other sessions keep working.
 */
export async function changeEmail(db: Db, user: AuthUser, input: ChangeEmailInput, secret: string, userAgent: string) {
  await confirmPassword(db, user.id, input.currentPassword)
  const { users } = tablesOf(db)
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, input.email), ne(users.id, user.id)))
  if (taken) throw new ConflictError(EMAIL_TAKEN)
  await updateUnique(db, user.id, { email: input.email }, EMAIL_TAKEN)
  const updated = { ...user, email: input.email }
  const { token } = await createSession(db, updated, secret, userAgent)
  await deleteSession(db, user.sessionId)
  return { token, user: updated, previousEmail: user.email }
}

/**
 * A new password ends every other session (a thief's included); this device stays signed in. App
 * keys end too unless the member keeps them (`revokeAppKeys: false`): a key does not carry the
 * password, so only revoking it shuts out whoever minted one with the old password.
 */
export async function changePassword(db: Db, user: AuthUser, input: ChangePasswordInput) {
  await confirmPassword(db, user.id, input.currentPassword)
  const passwordHash = await hashPassword(input.newPassword)
  const { users } = tablesOf(db)
  await transaction(db, async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id))
    await deleteOtherSessions(tx, user.id, user.sessionId)
    if (input.revokeAppKeys) await revokeAllAppKeys(tx, user.id)
  })
  return { appKeysRevoked: input.revokeAppKeys }
}

export type SessionDto = { id: string; device: string; userAgent: string; createdAt: string; lastSeenAt: string; current: boolean }

/** A name for the session's device: "Chrome on Linux", else the client's own product token ("DSub/5.5"). */
function sessionDevice(userAgent: string): string {
  const named = deviceName(userAgent)
  if (named !== 'another device') return named
  return userAgent.split(' ')[0]?.slice(0, 60) || 'Unknown device'
}

/** The member's unexpired sessions, most recently used first. */
export async function listSessions(db: Db, user: AuthUser): Promise<SessionDto[]> {
  const { sessions } = tablesOf(db)
  const rows = await db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
  const names = distinctDeviceNames(rows.map((s) => ({ device: sessionDevice(s.userAgent), signedInAt: s.createdAt.getTime() })))
  return rows.map((s, i) => ({
    id: s.id,
    device: names[i],
    userAgent: s.userAgent,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
    current: s.id === user.sessionId,
  }))
}

/**
 * Two browsers of one kind ("Chrome on Linux" twice) would read the same in the list and in the
 * revoke button's name: such sessions are numbered in the order they signed in ("Chrome on Linux
 * #1", "#2"), which does not change while both stay signed in. A name of its own stays as it is.
 */
export function distinctDeviceNames(list: ReadonlyArray<{ device: string; signedInAt: number }>): string[] {
  const byName = new Map<string, number[]>()
  for (const [i, s] of list.entries()) byName.set(s.device, [...(byName.get(s.device) ?? []), i])
  const names = list.map((s) => s.device)
  for (const [device, indexes] of byName) {
    if (indexes.length < 2) continue
    const order = [...indexes].sort((a, b) => list[a].signedInAt - list[b].signedInAt || a - b)
    for (const [n, i] of order.entries()) names[i] = `${device} #${n + 1}`
  }
  return names
}

/** Ends one of the member's own sessions (its tokens answer 401 from now on). */
export async function revokeSession(db: Db, user: AuthUser, id: string) {
  const { sessions } = tablesOf(db)
  const [gone] = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, user.id)))
    .returning({ id: sessions.id })
  if (!gone) throw new NotFoundError(SESSION_NOT_FOUND)
  return { id, revoked: true as const }
}

/**
 * Deletes the account as an admin deletion does (the foreign keys remove folders, sessions, likes
 * and reset tokens; analytics rows stay with the user set to null). The check for another admin and
 * the delete share one transaction, so two admins deleting themselves at once cannot both succeed.
 */
export async function deleteAccount(db: Db, user: AuthUser, currentPassword: string) {
  await confirmPassword(db, user.id, currentPassword)
  const { users } = tablesOf(db)
  await transaction(db, async (tx) => {
    const [me] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, user.id))
    if (me?.isAdmin) {
      const [admins] = await tx.select({ n: count() }).from(users).where(eq(users.isAdmin, true))
      if (Number(admins?.n ?? 0) <= 1) throw new InvalidError(LAST_ADMIN)
    }
    await tx.delete(users).where(eq(users.id, user.id))
  })
  return { deleted: true as const }
}
