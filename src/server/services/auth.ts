// Accounts: sign-up, login, logout, password reset and the first admin.
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'
import { ConflictError, ForbiddenError, InvalidError, UnauthorizedError } from '../errors'
import { and, eq, gt, isNotNull, isNull, lte, ne, or } from 'drizzle-orm'
import { type Db, isUniqueViolation, type Tables, tablesOf, transaction } from '~/db/engine'
import type { LoginInput, SignupInput } from '~/shared/validators'
import { hashPassword, timingDummyHash, verifyPassword } from '../auth/password'
import { createSession, deleteSession, deleteUserSessions, randomSecret, type AuthUser } from '../auth/sessions'
import { revokeAllAppKeys } from './app-keys'
import { logger } from '../logger'
import { sendMail } from '../mail/mailer'

const RESET_TTL_MS = 60 * 60 * 1000
export const INVALID_CREDENTIALS = 'Invalid email or password'
export const INVALID_RESET_TOKEN = 'Invalid or expired password reset token'

const publicColumnsOf = ({ users }: Tables) => ({
  id: users.id,
  username: users.username,
  email: users.email,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
})

export async function signup(db: Db, input: SignupInput) {
  const t = tablesOf(db)
  const { users } = t
  const [taken] = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(or(eq(users.email, input.email), eq(users.username, input.username)))
    .limit(1)
  if (taken?.email === input.email) throw new ConflictError('Email is already registered')
  if (taken) throw new ConflictError('Username is already taken')
  const passwordHash = await hashPassword(input.password)
  try {
    const [created] = await db.insert(users).values({ username: input.username, email: input.email, passwordHash }).returning(publicColumnsOf(t))
    return created
  } catch (error) {
    // Two sign-ups racing for the same e-mail: the unique index decides.
    if (isUniqueViolation(error)) throw new ConflictError('Email or username is already taken')
    throw error
  }
}

export const LOCAL_LOGIN_OFF = 'Password sign-in is turned off here. Please use your sign-in provider.'

/** `adminsOnly` (LOCAL_LOGIN=off): a member's right password is refused; an admin's still signs in, the way back in when the provider fails. */
export async function login(db: Db, input: LoginInput, secret: string, userAgent = '', { adminsOnly = false } = {}) {
  const t = tablesOf(db)
  const [user] = await db
    .select({ ...publicColumnsOf(t), passwordHash: t.users.passwordHash })
    .from(t.users)
    .where(eq(t.users.email, input.email))
  const ok = await verifyPassword(input.password, user?.passwordHash ?? (await timingDummyHash()))
  if (!user || !ok) throw new UnauthorizedError(INVALID_CREDENTIALS)
  if (adminsOnly && !user.isAdmin) throw new ForbiddenError(LOCAL_LOGIN_OFF)
  const { token, expiresAt } = await createSession(db, user, secret, userAgent)
  await db.insert(t.logins).values({ userId: user.id })
  const { passwordHash: _, ...publicUser } = user
  return { token, expiresAt, user: publicUser }
}

export async function logout(db: Db, user: AuthUser) {
  await deleteSession(db, user.sessionId)
}

const hashToken = (token: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(token)))

/**
 * Answers at once and does the work afterwards: looking the account up, minting the token and
 * talking to the mail server all happen off the request, so neither the answer nor its timing
 * tells whether the account exists, and a slow or failing mail server is not the caller's problem.
 */
export function requestPasswordReset(db: Db, email: string, appUrl: string): void {
  setTimeout(() => {
    issuePasswordReset(db, email, appUrl).catch((error) => logger.error({ err: error }, 'could not issue a password reset'))
  }, 0)
}

/** Mails a single-use reset link; the new token ends every earlier one of that account. */
async function issuePasswordReset(db: Db, email: string, appUrl: string) {
  const { users, passwordResetTokens } = tablesOf(db)
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email))
  if (!user) return
  const token = randomSecret(32)
  await transaction(db, async (tx) => {
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id))
    await tx.insert(passwordResetTokens).values({ id: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TTL_MS) })
  })
  const link = `${appUrl}/reset-password/${token}`
  await sendMail({
    to: user.email,
    subject: 'Reset your Vibes password',
    text: `Someone asked to reset the password of your Vibes account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
    html: `<p>Someone asked to reset the password of your Vibes account.</p><p><a href="${link}">Choose a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this e-mail.</p>`,
  })
}

/**
 * Sets a new password from a valid token, ends every other token of the user, every session and
 * every app key: whoever had the old password (or a session) may have minted a key with it.
 * Answers who reset, for the audit log.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<{ id: string; username: string }> {
  const passwordHash = await hashPassword(password)
  const id = hashToken(token)
  const { users, passwordResetTokens } = tablesOf(db)
  const userId = await transaction(db, async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.id, id), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, new Date())))
      .returning({ userId: passwordResetTokens.userId })
    if (!claimed) return null
    await tx.update(users).set({ passwordHash }).where(eq(users.id, claimed.userId))
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, claimed.userId), ne(passwordResetTokens.id, id)))
    await deleteUserSessions(tx, claimed.userId)
    await revokeAllAppKeys(tx, claimed.userId)
    return claimed.userId
  })
  if (!userId) throw new InvalidError(INVALID_RESET_TOKEN)
  const [user] = await db.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, userId))
  return user ?? { id: userId, username: '' }
}

/** Housekeeping: used and expired reset tokens open nothing any more. */
export async function deleteSpentResetTokens(db: Db): Promise<number> {
  const { passwordResetTokens } = tablesOf(db)
  const deleted = await db
    .delete(passwordResetTokens)
    .where(or(isNotNull(passwordResetTokens.usedAt), lte(passwordResetTokens.expiresAt, new Date())))
    .returning({ id: passwordResetTokens.id })
  return deleted.length
}

/** At start-up: create the configured admin if no user has that e-mail. */
export async function ensureAdmin(db: Db, email: string | undefined, password: string | undefined) {
  if (!email || !password) return false
  const normalized = email.toLowerCase()
  const { users } = tablesOf(db)
  const exists = async () => (await db.select({ id: users.id }).from(users).where(eq(users.email, normalized))).length > 0
  if (await exists()) return false
  let username = normalized
    .split('@')[0]
    .replace(/[^\p{L}\p{N}_.\- ]/gu, '')
    .slice(0, 32)
  if (username.length < 3) username = 'admin'
  if ((await db.select({ id: users.id }).from(users).where(eq(users.username, username))).length > 0) username = `${username}-${randomSecret(3)}`
  try {
    await db.insert(users).values({ username, email: normalized, passwordHash: await hashPassword(password), isAdmin: true })
  } catch (error) {
    // Nodes starting together on one database: another one created this admin first.
    if (isUniqueViolation(error) && (await exists())) return false
    throw error
  }
  return true
}
