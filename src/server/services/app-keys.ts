// App keys (the OpenSubsonic `apiKey` extension): a member creates one per native app on /profile,
// sees it once, and can revoke it; /rest accepts it instead of the password: as `apiKey`, as the
// password (`p`), or in token login (`t` = md5(key + `s`)). The key is 32 random bytes in base32
// behind a `vibes_` prefix (recognisable in a leaked config file). It is found by its SHA-256, and
// kept encrypted with a key derived from AUTH_SECRET for token login (auth/sealed-secret.ts);
// keys made before that have no ciphertext and cannot do token login (decision 066). A revoked key stays listed
// (with its revocation time) but never verifies again. Minting a key needs the current password
// (a stolen session alone cannot mint a way back in), and a password reset ends every key (a
// change ends them unless the member keeps them: services/profile.ts).
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'
import { InvalidError, NotFoundError } from '../errors'
import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { type Tables, tablesOf } from '~/db/engine'
import type { User } from '~/db/schema'
import type { AppKeyCreateInput } from '~/shared/validators'
import { decryptAppKey, encryptAppKey } from '../auth/sealed-secret'
import { confirmPassword } from '../auth/confirm-password'
import { createHash, timingSafeEqual } from 'node:crypto'
import { randomSecret } from '../auth/sessions'

export const APP_KEY_PREFIX = 'vibes_'
export const MAX_APP_KEYS_PER_USER = 50
export const APP_KEY_NOT_FOUND = 'App key not found'
// A key used by a streaming app is checked on every request; its "last used" time only needs
// minute precision, so the row is written at most once a minute.
const LAST_USED_PRECISION_MS = 60_000

/** `tokenLogin` is false for a key made before keys were kept encrypted: it cannot do token login. */
export type AppKeySummary = { id: string; name: string; createdAt: number; lastUsedAt: number | null; revokedAt: number | null; tokenLogin: boolean }

const hashKey = (key: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(key)))

const summaryOf = ({ appKeys }: Tables) => ({
  id: appKeys.id,
  name: appKeys.name,
  createdAt: appKeys.createdAt,
  lastUsedAt: appKeys.lastUsedAt,
  revokedAt: appKeys.revokedAt,
  // 1 or 0 on SQLite, true or false on PostgreSQL.
  tokenLogin: sql<number | boolean>`${appKeys.keySecret} IS NOT NULL`,
})

function toSummary(row: {
  id: string
  name: string
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
  tokenLogin: number | boolean
}): AppKeySummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastUsedAt?.getTime() ?? null,
    revokedAt: row.revokedAt?.getTime() ?? null,
    tokenLogin: Number(row.tokenLogin) === 1,
  }
}

/** Creates a key once the current password is confirmed; the answer is the only place the key itself ever appears. */
export async function createAppKey(db: Db, secret: string, userId: string, input: AppKeyCreateInput): Promise<AppKeySummary & { key: string }> {
  await confirmPassword(db, userId, input.currentPassword)
  return mintAppKey(db, secret, userId, input.name)
}

/** A new key for the member, within the bound on live keys (no confirmation: callers confirm). */
export async function mintAppKey(db: Db, secret: string, userId: string, name: string): Promise<AppKeySummary & { key: string }> {
  const t = tablesOf(db)
  const { appKeys } = t
  const [active] = await db
    .select({ n: count() })
    .from(appKeys)
    .where(and(eq(appKeys.userId, userId), isNull(appKeys.revokedAt)))
  if (Number(active?.n ?? 0) >= MAX_APP_KEYS_PER_USER) {
    throw new InvalidError(`You can keep at most ${MAX_APP_KEYS_PER_USER} app keys; revoke one first`)
  }
  const key = APP_KEY_PREFIX + randomSecret(32)
  const [row] = await db
    .insert(appKeys)
    .values({ userId, name, keyHash: hashKey(key), keySecret: encryptAppKey(secret, userId, key) })
    .returning(summaryOf(t))
  return { ...toSummary(row), key }
}

/** The member's keys, newest first (revoked ones included, marked). */
export async function listAppKeys(db: Db, userId: string): Promise<{ keys: AppKeySummary[] }> {
  const t = tablesOf(db)
  const { appKeys } = t
  const rows = await db.select(summaryOf(t)).from(appKeys).where(eq(appKeys.userId, userId)).orderBy(desc(appKeys.createdAt))
  return { keys: rows.map(toSummary) }
}

/** Revokes one of the member's keys (another member's id is simply not found). */
export async function revokeAppKey(db: Db, userId: string, id: string): Promise<AppKeySummary> {
  const t = tablesOf(db)
  const { appKeys } = t
  const [row] = await db
    .update(appKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(appKeys.id, id), eq(appKeys.userId, userId), isNull(appKeys.revokedAt)))
    .returning(summaryOf(t))
  if (row) return toSummary(row)
  // Revoking twice is not an error: the key is revoked either way.
  const [existing] = await db
    .select(summaryOf(t))
    .from(appKeys)
    .where(and(eq(appKeys.id, id), eq(appKeys.userId, userId)))
  if (!existing) throw new NotFoundError(APP_KEY_NOT_FOUND)
  return toSummary(existing)
}

/** Ends every live key of the member (a password reset or change); returns how many. */
export async function revokeAllAppKeys(db: Db, userId: string): Promise<number> {
  const { appKeys } = tablesOf(db)
  const revoked = await db
    .update(appKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(appKeys.userId, userId), isNull(appKeys.revokedAt)))
    .returning({ id: appKeys.id })
  return revoked.length
}

export type AppKeyUser = Pick<User, 'id' | 'username' | 'email' | 'isAdmin'>

/**
 * The account behind a live key, or null; notes when the key was last used. With `ownerId` (a key
 * sent as the password of a named account) only a key of that account counts.
 */
export async function verifyAppKey(db: Db, key: string, nowMs = Date.now(), ownerId?: string): Promise<AppKeyUser | null> {
  if (!key.startsWith(APP_KEY_PREFIX) || key.length > 200) return null
  const { appKeys, users } = tablesOf(db)
  const live = and(eq(appKeys.keyHash, hashKey(key)), isNull(appKeys.revokedAt))
  const [row] = await db
    .select({ keyId: appKeys.id, lastUsedAt: appKeys.lastUsedAt, id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin })
    .from(appKeys)
    .innerJoin(users, eq(users.id, appKeys.userId))
    .where(ownerId === undefined ? live : and(live, eq(appKeys.userId, ownerId)))
    .limit(1)
  if (!row) return null
  await noteUse(db, row.keyId, row.lastUsedAt, nowMs)
  return { id: row.id, username: row.username, email: row.email, isAdmin: row.isAdmin }
}

async function noteUse(db: Db, keyId: string, lastUsedAt: Date | null, nowMs: number): Promise<void> {
  if (lastUsedAt && nowMs - lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return
  const { appKeys } = tablesOf(db)
  await db
    .update(appKeys)
    .set({ lastUsedAt: new Date(nowMs) })
    .where(eq(appKeys.id, keyId))
}

const MD5_HEX = /^[0-9a-f]{32}$/

/**
 * Token login: true when `token` is md5(key + salt) for one of the member's live keys that is
 * kept encrypted (at most MAX_APP_KEYS_PER_USER of them, each opened and hashed).
 */
export async function verifyAppKeyToken(db: Db, secret: string, userId: string, token: string, salt: string, nowMs = Date.now()): Promise<boolean> {
  const wanted = token.toLowerCase()
  if (!MD5_HEX.test(wanted) || salt === '' || salt.length > 200) return false
  const { appKeys } = tablesOf(db)
  const rows = await db
    .select({ id: appKeys.id, keySecret: appKeys.keySecret, lastUsedAt: appKeys.lastUsedAt })
    .from(appKeys)
    .where(and(eq(appKeys.userId, userId), isNull(appKeys.revokedAt), isNotNull(appKeys.keySecret)))
  for (const row of rows) {
    const key = row.keySecret ? decryptAppKey(secret, userId, row.keySecret) : null
    if (key === null) continue
    const expected = new TextEncoder().encode(
      createHash('md5')
        .update(key + salt, 'utf8')
        .digest('hex'),
    )
    if (timingSafeEqual(expected, new TextEncoder().encode(wanted))) {
      await noteUse(db, row.id, row.lastUsedAt, nowMs)
      return true
    }
  }
  return false
}
