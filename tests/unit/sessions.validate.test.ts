// validateToken (src/server/auth/sessions.ts) against the real migrated schema: its queries are
// prepared once per database and a token's signature is checked once per token, so check that it
// still refuses an expired or deleted session, an expired token, a stale admin flag and a bad
// signature (also after the same token passed), and that each database answers from its own rows.
import { describe, expect, test } from 'bun:test'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { openDb } from '~/db/client'
import { sessions, users } from '~/db/schema'
import { createSession, deleteUserSessions, validateToken } from '~/server/auth/sessions'

const SECRET = 'unit-test-secret-'.repeat(3)
const migrations = path.resolve('src/db/migrations')

async function memberIn(db: ReturnType<typeof openDb>, name: string) {
  const user = db
    .insert(users)
    .values({ username: name, email: `${name}@example.com`, passwordHash: 'x' })
    .returning()
    .get()
  return { user, token: (await createSession(db, user, SECRET)).token }
}

describe('validateToken', () => {
  test('a live session is its user; expired, deleted or re-flagged sessions and bad signatures are not', async () => {
    const db = openDb(':memory:', migrations)
    const { user, token } = await memberIn(db, 'ada')
    expect(validateToken(db, token, SECRET)).toMatchObject({ id: user.id, username: 'ada', isAdmin: false })
    expect(validateToken(db, token, `${SECRET}x`)).toBeNull()

    db.update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .run()
    expect(validateToken(db, token, SECRET)).toBeNull()
    db.update(sessions)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .run()
    expect(validateToken(db, token, SECRET)?.id).toBe(user.id)

    db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id)).run()
    expect(validateToken(db, token, SECRET)).toBeNull()
    db.update(users).set({ isAdmin: false }).where(eq(users.id, user.id)).run()

    await deleteUserSessions(db, user.id)
    expect(validateToken(db, token, SECRET)).toBeNull()
  })

  test('a token checked once is refused once its own expiry passes, even while its session row lives on', async () => {
    const db = openDb(':memory:', migrations)
    const { user, token } = await memberIn(db, 'eve')
    const now = Date.now()
    expect(validateToken(db, token, SECRET, now)?.id).toBe(user.id)
    // The row outlives the token (e.g. a token minted for a shorter time): the token's exp decides.
    db.update(sessions)
      .set({ expiresAt: new Date(now + 90 * 86_400_000) })
      .run()
    expect(validateToken(db, token, SECRET, now + 31 * 86_400_000)).toBeNull()
    expect(validateToken(db, token, SECRET, now + 1000)?.id).toBe(user.id)
  })

  test('each database answers from its own sessions', async () => {
    const one = openDb(':memory:', migrations)
    const two = openDb(':memory:', migrations)
    const a = await memberIn(one, 'ann')
    const b = await memberIn(two, 'bob')
    expect(validateToken(one, a.token, SECRET)?.username).toBe('ann')
    expect(validateToken(two, b.token, SECRET)?.username).toBe('bob')
    expect(validateToken(one, b.token, SECRET)).toBeNull()
    expect(validateToken(two, a.token, SECRET)).toBeNull()
  })
})
