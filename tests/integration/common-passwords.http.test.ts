// The most common passwords are refused wherever a password is chosen (sign-up, reset, change),
// over real HTTP against the built server, with the field rules and their messages still checked first.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

const COMMON = 'This password is one of the most common passwords and easy to guess. Please choose another'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.stop()
})

const signup = (password: string) =>
  api(server.url, 'POST', '/auth/signup', { body: { username: `u${crypto.randomUUID().slice(0, 8)}`, email: `${crypto.randomUUID()}@example.com`, password } })

/** A reset token the database holds for `userId`, as the forgot-password mail would carry. */
async function seedResetToken(userId: string): Promise<string> {
  const token = `seeded${crypto.randomUUID().replaceAll('-', '')}`
  const id = new Bun.CryptoHasher('sha256').update(token).digest('hex')
  await sqlOn(server, 'INSERT INTO password_reset_tokens (id, user_id, expires_at) VALUES (?, ?, ?)', [id, userId, Date.now() + 3_600_000])
  return token
}

describe('common passwords', () => {
  test('sign-up refuses a top password in any case and spacing, and keeps the field rule messages first', async () => {
    for (const password of ['password123', 'Qwerty123', '  iloveyou  ', 'letmein']) {
      expect(await signup(password)).toMatchObject({ status: 400, body: { error: COMMON } })
    }
    expect(await signup('12')).toMatchObject({ status: 400, body: { error: 'Password must be at least 6 characters' } })
    expect(await signup('')).toMatchObject({ status: 400, body: { error: 'Password is required' } })
    expect((await signup('violet-tram-44')).status).toBe(201)
  })

  test('a reset to a common password is refused and the token still works for a good one', async () => {
    const m = await createMember(server.url)
    const token = await seedResetToken(m.user.id)
    const bad = await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'football' } })
    expect(bad).toMatchObject({ status: 400, body: { error: COMMON } })
    const good = await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'quiet-harbour-7' } })
    expect(good.status).toBe(200)
  })

  test('a password change to a common password is refused; the old password still signs in', async () => {
    const m = await createMember(server.url)
    const bad = await api(server.url, 'PUT', '/user/profile/password', { token: m.token, body: { currentPassword: m.password, newPassword: 'sunshine' } })
    expect(bad).toMatchObject({ status: 400, body: { error: COMMON } })
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })).status).toBe(200)
  })
})
