// Members who sign in elsewhere: at an outside identity provider (OpenID Connect, GitHub, Google)
// or through a reverse proxy that already checked who they are. Rules (docs/decisions/079, 080):
//   - a provider account already linked opens its member;
//   - otherwise the provider must vouch for the e-mail (verified), or nothing happens at all;
//   - a verified e-mail that a member already has is linked only after that member confirms with
//     their password (linkIdentity), never by the e-mail alone;
//   - a new verified e-mail makes a new member without a password (they may set one with "Forgot
//     your password?");
//   - with an admin group configured, each sign-in through that provider sets the member's admin
//     flag from the groups it sends (granted and taken away), so the provider stays the one place
//     that decides.
// On /profile a member sees the provider accounts linked to them and may unlink one, unless it is
// their last way in (docs/decisions/106).
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { execute, isPostgres, tablesOf, transaction } from '~/db/engine'
import { ConflictError, NotFoundError } from '../errors'
import { hasPassword, NO_PASSWORD } from '../auth/password'
import { deleteUserSessions, randomSecret } from '../auth/sessions'
import type { ProviderId } from '../auth/sign-in-options'
import type { Identity } from '../auth/sign-in-providers'
import { emailField, usernameField } from '~/shared/validators/fields'

export type Member = { id: string; username: string; email: string; isAdmin: boolean; createdAt: Date }

export type SignInOutcome =
  | { kind: 'member'; member: Member; created: boolean }
  | { kind: 'confirm-link'; member: Member }
  | { kind: 'refused'; reason: 'unverified-email' | 'no-email' }

function memberColumns(db: Db) {
  const { users } = tablesOf(db)
  return { id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin, createdAt: users.createdAt }
}

/** Admin from the groups: null when no admin group applies to this sign-in (leave the flag as it is). */
export type AdminRule = { group: string } | null

function adminFrom(identity: Identity, rule: AdminRule): boolean | null {
  if (!rule || identity.groups === null) return null
  return identity.groups.includes(rule.group)
}

async function withAdminFlag(db: Db, member: Member, admin: boolean | null): Promise<Member> {
  if (admin === null || admin === member.isAdmin) return member
  const { users } = tablesOf(db)
  await db.update(users).set({ isAdmin: admin }).where(eq(users.id, member.id))
  // As when an admin changes a role: the member's sessions end (their tokens carry the old flag).
  await deleteUserSessions(db, member.id)
  return { ...member, isAdmin: admin }
}

export async function memberForIdentity(db: Db, identity: Identity, rule: AdminRule): Promise<SignInOutcome> {
  const { signInIdentities, users } = tablesOf(db)
  const [linked] = await db
    .select(memberColumns(db))
    .from(signInIdentities)
    .innerJoin(users, eq(users.id, signInIdentities.userId))
    .where(and(eq(signInIdentities.provider, identity.provider), eq(signInIdentities.subject, identity.subject)))
  if (linked) return { kind: 'member', member: await withAdminFlag(db, linked, adminFrom(identity, rule)), created: false }
  if (!identity.email) return { kind: 'refused', reason: 'no-email' }
  if (!identity.emailVerified) return { kind: 'refused', reason: 'unverified-email' }
  const [existing] = await db.select(memberColumns(db)).from(users).where(eq(users.email, identity.email))
  if (existing) return { kind: 'confirm-link', member: existing }
  const member = await createMember(db, identity.username ?? identity.email.split('@')[0], identity.email, adminFrom(identity, rule) ?? false)
  await db.insert(signInIdentities).values({ provider: identity.provider, subject: identity.subject, userId: member.id, email: identity.email })
  return { kind: 'member', member, created: true }
}

/** After the member confirmed their password: the provider account opens this member from now on. */
export async function linkIdentity(db: Db, identity: Identity, memberId: string, rule: AdminRule): Promise<Member | null> {
  const { signInIdentities, users } = tablesOf(db)
  const [member] = await db.select(memberColumns(db)).from(users).where(eq(users.id, memberId))
  if (!member) return null
  await db
    .insert(signInIdentities)
    .values({ provider: identity.provider, subject: identity.subject, userId: member.id, email: identity.email })
    .onConflictDoNothing()
  return withAdminFlag(db, member, adminFrom(identity, rule))
}

/**
 * The member a trusted proxy names: an e-mail matches the e-mail, anything else the username; made
 * on first sight. A name that is neither a valid e-mail nor a valid username is null: made into
 * one, it would no longer match itself and every request would make another member.
 */
export async function memberForProxyName(db: Db, name: string): Promise<Member | null> {
  const isEmail = name.includes('@')
  if (!(isEmail ? emailField : usernameField).safeParse(name).success) return null
  const wanted = isEmail ? name.toLowerCase() : name
  const { users } = tablesOf(db)
  const [found] = await db
    .select(memberColumns(db))
    .from(users)
    .where(isEmail ? eq(users.email, wanted) : eq(users.username, wanted))
  if (found) return found
  // A name without an e-mail gets an address that can never receive mail (RFC 2606's .invalid).
  const email = isEmail ? wanted : `${randomSecret(8)}@proxy.invalid`
  try {
    return await createMember(db, isEmail ? wanted.split('@')[0] : wanted, email, false)
  } catch (error) {
    // Two first requests at once: the other one made the member.
    const [made] = await db
      .select(memberColumns(db))
      .from(users)
      .where(isEmail ? eq(users.email, wanted) : eq(users.username, wanted))
    if (made) return made
    throw error
  }
}

/** A free username like `wanted`: its allowed characters, 3 to 32 long, a suffix when taken. */
export async function availableUsername(db: Db, wanted: string): Promise<string> {
  let base = wanted
    .replace(/[^\p{L}\p{N}_.\- ]/gu, '')
    .trim()
    .slice(0, 32)
  if (base.length < 3) base = 'member'
  let candidate = base
  const { users } = tablesOf(db)
  for (let attempt = 0; attempt < 5; attempt++) {
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.username, candidate))
    if (!taken) return candidate
    candidate = `${base.slice(0, 25)}-${randomSecret(4).slice(0, 6)}`
  }
  return candidate
}

async function createMember(db: Db, wantedName: string, email: string, isAdmin: boolean): Promise<Member> {
  const username = await availableUsername(db, wantedName)
  // No password: the member signs in through the provider, or sets one by e-mail.
  const { users } = tablesOf(db)
  const [member] = await db.insert(users).values({ username, email, passwordHash: NO_PASSWORD, isAdmin }).returning(memberColumns(db))
  return member
}

/** One row for the admin's sign-in counts, as a password login writes. */
export async function recordLogin(db: Db, memberId: string) {
  const { logins } = tablesOf(db)
  await db.insert(logins).values({ userId: memberId })
}

/** What decides which ways in a member has: the providers turned on, and whether members' passwords sign in (LOCAL_LOGIN). */
export type SignInSettings = { providers: ReadonlyArray<{ id: ProviderId; name: string }>; memberPasswords: boolean }

export type LinkedSignIn = {
  provider: ProviderId
  /** The provider's name as the login page's button says it. */
  providerName: string
  subject: string
  /** The e-mail the provider vouched for when the link was made. */
  email: string | null
  linkedAt: string
  /** Why this one cannot be unlinked (the member's last way in), or null. */
  unlinkRefusal: string | null
}

export const SIGN_IN_NOT_FOUND = 'Linked sign-in not found'
export const LAST_WAY_IN_NO_PASSWORD =
  'This is your only way to sign in: your account has no password. Set one first (“Forgot your password?” on the login page), then unlink this.'
export const LAST_WAY_IN_PASSWORDS_OFF = 'This is your only way to sign in: password sign-in is turned off here. Link another provider first, then unlink this.'

// A provider turned off since the link was made still has a name to show.
const FALLBACK_NAMES: Record<ProviderId, string> = { oidc: 'OpenID Connect', github: 'GitHub', google: 'Google' }

const providerName = (id: string, settings: SignInSettings) => settings.providers.find((p) => p.id === id)?.name ?? FALLBACK_NAMES[id as ProviderId] ?? id

type IdentityRow = { provider: string; subject: string; email: string | null; createdAt: Date }

async function identitiesOf(db: Db, userId: string): Promise<IdentityRow[]> {
  const { signInIdentities } = tablesOf(db)
  return db
    .select({ provider: signInIdentities.provider, subject: signInIdentities.subject, email: signInIdentities.email, createdAt: signInIdentities.createdAt })
    .from(signInIdentities)
    .where(eq(signInIdentities.userId, userId))
    .orderBy(asc(signInIdentities.createdAt), asc(signInIdentities.provider))
}

/**
 * Why `one` may not go: with it gone, the member needs a password that signs them in (members'
 * passwords on, or an admin's, which always does) or another link to a provider that is still on.
 */
function lastWayInRefusal(one: IdentityRow, all: IdentityRow[], member: { passwordHash: string; isAdmin: boolean }, settings: SignInSettings): string | null {
  const passwordSignsIn = hasPassword(member.passwordHash) && (settings.memberPasswords || member.isAdmin)
  if (passwordSignsIn) return null
  const on = new Set(settings.providers.map((p) => p.id as string))
  const others = all.filter((i) => !(i.provider === one.provider && i.subject === one.subject) && on.has(i.provider))
  if (others.length > 0) return null
  return hasPassword(member.passwordHash) ? LAST_WAY_IN_PASSWORDS_OFF : LAST_WAY_IN_NO_PASSWORD
}

async function memberWays(db: Db, userId: string) {
  const { users } = tablesOf(db)
  const [member] = await db.select({ passwordHash: users.passwordHash, isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId))
  if (!member) throw new NotFoundError(SIGN_IN_NOT_FOUND)
  return member
}

/** The provider accounts linked to this member, oldest first, and whether the member has a password. */
export async function listLinkedSignIns(db: Db, userId: string, settings: SignInSettings): Promise<{ signIns: LinkedSignIn[]; hasPassword: boolean }> {
  const member = await memberWays(db, userId)
  const all = await identitiesOf(db, userId)
  return {
    hasPassword: hasPassword(member.passwordHash),
    signIns: all.map((i) => ({
      provider: i.provider as ProviderId,
      providerName: providerName(i.provider, settings),
      subject: i.subject,
      email: i.email,
      linkedAt: i.createdAt.toISOString(),
      unlinkRefusal: lastWayInRefusal(i, all, member, settings),
    })),
  }
}

/**
 * Unlinks one of the member's own provider accounts: that provider no longer signs them in (a
 * later sign-in with it is a new one, asking for the password to link again). Nothing else ends:
 * sessions and app keys stay. Another member's link is "not found".
 */
export async function unlinkSignIn(db: Db, userId: string, target: { provider: string; subject: string }, settings: SignInSettings) {
  const { signInIdentities, users } = tablesOf(db)
  return transaction(db, async (tx) => {
    // PostgreSQL: the member's row is locked so that two unlinks at once take turns and cannot
    // each leave the other as the last way in. SQLite: its transactions already take turns.
    if (isPostgres(tx)) await execute(tx, sql`SELECT id FROM ${users} WHERE id = ${userId} FOR UPDATE`)
    const member = await memberWays(tx, userId)
    const all = await identitiesOf(tx, userId)
    const one = all.find((i) => i.provider === target.provider && i.subject === target.subject)
    if (!one) throw new NotFoundError(SIGN_IN_NOT_FOUND)
    const refusal = lastWayInRefusal(one, all, member, settings)
    if (refusal) throw new ConflictError(refusal)
    await tx
      .delete(signInIdentities)
      .where(and(eq(signInIdentities.provider, one.provider), eq(signInIdentities.subject, one.subject), eq(signInIdentities.userId, userId)))
    return { provider: one.provider as ProviderId, providerName: providerName(one.provider, settings), email: one.email, unlinked: true as const }
  })
}
