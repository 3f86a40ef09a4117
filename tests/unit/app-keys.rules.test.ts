// App keys for OpenSubsonic apps: the key is shown once, kept only as its hash and sealed (AES-GCM
// under a key derived from AUTH_SECRET) for token login, a revoked key never verifies, and one
// member can neither see nor revoke another's keys. A real SQLite database migrated from
// the committed migrations.
import { beforeEach, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { openDb, type Db } from '~/db/client'
import { appKeys, users } from '~/db/schema'
import { createHash } from 'node:crypto'
import { decryptAppKey, encryptAppKey } from '~/server/auth/sealed-secret'
import { listAppKeys, MAX_APP_KEYS_PER_USER, mintAppKey, revokeAppKey, verifyAppKey, verifyAppKeyToken } from '~/server/services/app-keys'

const SECRET = 'unit-test-secret-unit-test-secret-xx'
const md5 = (s: string) => createHash('md5').update(s).digest('hex')

let db: Db
const ids = { a: '', b: '' }

beforeEach(() => {
  db = openDb(':memory:', path.resolve('src/db/migrations'))
  ids.a = db.insert(users).values({ username: 'alice', email: 'a@example.com', passwordHash: 'x' }).returning().get().id
  ids.b = db.insert(users).values({ username: 'bob', email: 'b@example.com', passwordHash: 'x' }).returning().get().id
})

describe('app keys', () => {
  test('a created key verifies as its member and is stored as a hash and a ciphertext, never in clear', async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'Symfonium')
    expect(created.key).toMatch(/^vibes_[a-z2-7]{52}$/)
    expect(await verifyAppKey(db, created.key)).toEqual({ id: ids.a, username: 'alice', email: 'a@example.com', isAdmin: false })
    const stored = db.select().from(appKeys).all()
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(created.key)
    expect(JSON.stringify(await listAppKeys(db, ids.a))).not.toContain(created.key)
  })

  test('the list shows name, times and no key; verifying notes the last use', async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'DSub')
    expect((await listAppKeys(db, ids.a)).keys).toEqual([
      { id: created.id, name: 'DSub', createdAt: created.createdAt, lastUsedAt: null, revokedAt: null, tokenLogin: true },
    ])
    await verifyAppKey(db, created.key, 1_800_000_000_000)
    expect((await listAppKeys(db, ids.a)).keys[0].lastUsedAt).toBe(1_800_000_000_000)
  })

  test('a revoked key no longer verifies and is listed as revoked; revoking again is harmless', async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'Feishin')
    const revoked = await revokeAppKey(db, ids.a, created.id)
    expect(revoked.revokedAt).toBeNumber()
    expect(await verifyAppKey(db, created.key)).toBeNull()
    expect((await revokeAppKey(db, ids.a, created.id)).revokedAt).toBe(revoked.revokedAt)
    expect((await listAppKeys(db, ids.a)).keys[0].revokedAt).toBe(revoked.revokedAt)
  })

  test("another member's key is not found and stays live", async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'Supersonic')
    await expect(revokeAppKey(db, ids.b, created.id)).rejects.toThrow('App key not found')
    expect((await listAppKeys(db, ids.b)).keys).toEqual([])
    expect((await verifyAppKey(db, created.key))?.id).toBe(ids.a)
  })

  test('unknown, mangled or prefix-less keys do not verify', async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'x')
    expect(await verifyAppKey(db, `${created.key}x`)).toBeNull()
    expect(await verifyAppKey(db, created.key.slice(6))).toBeNull()
    expect(await verifyAppKey(db, '')).toBeNull()
  })

  test('a member keeps a bounded number of live keys', async () => {
    for (let i = 0; i < MAX_APP_KEYS_PER_USER; i++) await mintAppKey(db, SECRET, ids.a, `k${i}`)
    await expect(mintAppKey(db, SECRET, ids.a, 'one too many')).rejects.toThrow(/at most 50 app keys/)
    await revokeAppKey(db, ids.a, (await listAppKeys(db, ids.a)).keys[0].id)
    expect((await mintAppKey(db, SECRET, ids.a, 'after a revoke')).name).toBe('after a revoke')
  })

  test("deleting the member deletes the member's keys", async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'x')
    db.delete(users).run()
    expect(await verifyAppKey(db, created.key)).toBeNull()
    expect(db.select().from(appKeys).all()).toEqual([])
  })

  test("as the password of a named account, only that account's key verifies (and only its use is noted)", async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'DSub')
    expect(await verifyAppKey(db, created.key, 1_800_000_000_000, ids.b)).toBeNull()
    expect((await listAppKeys(db, ids.a)).keys[0].lastUsedAt).toBeNull()
    expect((await verifyAppKey(db, created.key, 1_800_000_000_000, ids.a))?.id).toBe(ids.a)
  })

  test('token login: md5(key + salt) of a live key of this member passes; anything else does not', async () => {
    const created = await mintAppKey(db, SECRET, ids.a, 'DSub')
    expect(await verifyAppKeyToken(db, SECRET, ids.a, md5(`${created.key}salt1`), 'salt1')).toBe(true)
    expect(await verifyAppKeyToken(db, SECRET, ids.a, md5(`${created.key}salt1`).toUpperCase(), 'salt1')).toBe(true)
    expect(await verifyAppKeyToken(db, SECRET, ids.a, md5(`${created.key}salt1`), 'salt2')).toBe(false)
    expect(await verifyAppKeyToken(db, SECRET, ids.b, md5(`${created.key}salt1`), 'salt1')).toBe(false)
    // Another AUTH_SECRET cannot open the stored key.
    expect(await verifyAppKeyToken(db, `${SECRET}-changed`, ids.a, md5(`${created.key}salt1`), 'salt1')).toBe(false)
    await revokeAppKey(db, ids.a, created.id)
    expect(await verifyAppKeyToken(db, SECRET, ids.a, md5(`${created.key}salt1`), 'salt1')).toBe(false)
  })

  test('the sealed key opens only for its member and the same secret', async () => {
    const sealed = encryptAppKey(SECRET, ids.a, 'vibes_abc')
    expect(sealed).toMatch(/^v1\./)
    expect(sealed).not.toContain('vibes_abc')
    expect(decryptAppKey(SECRET, ids.a, sealed)).toBe('vibes_abc')
    expect(decryptAppKey(SECRET, ids.b, sealed)).toBeNull()
    expect(decryptAppKey(`${SECRET}x`, ids.a, sealed)).toBeNull()
    expect(decryptAppKey(SECRET, ids.a, `${sealed.slice(0, -2)}AA`)).toBeNull()
    expect(decryptAppKey(SECRET, ids.a, 'v1.')).toBeNull()
  })
})
