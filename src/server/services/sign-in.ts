// Members who sign in elsewhere: at an outside identity provider (OpenID Connect, GitHub, Google)
// or through a reverse proxy that already checked who they are. Rules (docs/decisions/079, 080):
//   - a provider account already linked opens its member;
//   - otherwise the provider must vouch for the e-mail (verified), or nothing happens at all;
//   - a verified e-mail that a member already has is linked only after that member confirms with
//     their password (linkIdentity), never by the e-mail alone;
//   - a new verified e-mail makes a new member, with a random password nobody knows (they may set
//     one with "Forgot your password?");
//   - with an admin group configured, each sign-in through that provider sets the member's admin
//     flag from the groups it sends (granted and taken away), so the provider stays the one place
//     that decides.
import { and, eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import { hashPassword } from '../auth/password'
import { deleteUserSessions, randomSecret } from '../auth/sessions'
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
  // Nobody knows this password: the member signs in through the provider, or sets one by e-mail.
  const passwordHash = await hashPassword(randomSecret(32))
  const { users } = tablesOf(db)
  const [member] = await db.insert(users).values({ username, email, passwordHash, isAdmin }).returning(memberColumns(db))
  return member
}

/** One row for the admin's sign-in counts, as a password login writes. */
export async function recordLogin(db: Db, memberId: string) {
  const { logins } = tablesOf(db)
  await db.insert(logins).values({ userId: memberId })
}
