// LOCAL_LOGIN=off: members sign in only through their provider; the password form is gone from the
// login page and the API refuses members' passwords and new password accounts; an admin's password
// still works (at /login?local), the way back in when the provider is down.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer({ ...adminEnv, LOCAL_LOGIN: 'off' })
})
afterAll(async () => {
  await server?.stop()
})

test('sign-up with a password is refused', async () => {
  const signup = await api(server.url, 'POST', '/auth/signup', { body: { username: 'newbie', email: 'newbie@example.com', password: 'a-fine-password-9' } })
  expect(signup.status).toBe(403)
  expect(signup.body.error).toBe('Sign-up with a password is turned off here. Please use your sign-in provider.')
})

test("a member's right password is refused, a wrong one is still a 401, an admin's still signs in", async () => {
  // A member made while passwords were allowed (before the switch), written as the server writes them.
  await sqlOn(
    server,
    "INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES ('m1', 'member-one', 'one@example.com', ?, false, ?)",
    [await Bun.password.hash('members-password-1', { algorithm: 'argon2id' }), Date.now()],
  )
  const member = await api(server.url, 'POST', '/auth/login', { body: { email: 'one@example.com', password: 'members-password-1' } })
  expect(member.status).toBe(403)
  expect(member.body.error).toBe('Password sign-in is turned off here. Please use your sign-in provider.')
  expect(member.headers.getSetCookie().some((c) => c.startsWith('vibes_session=') && !c.includes('Max-Age=0'))).toBe(false)
  const wrong = await api(server.url, 'POST', '/auth/login', { body: { email: 'one@example.com', password: 'not-it-at-all' } })
  expect(wrong.status).toBe(401)
  const admin = await api(server.url, 'POST', '/auth/login', { body: ADMIN })
  expect(admin.status).toBe(200)
})

test('the login page hides the password form, except at /login?local', async () => {
  const page = await (await fetch(`${server.url}/login`)).text()
  expect(page).not.toContain('autoComplete="current-password"')
  expect(page).toContain('Admin sign-in with password')
  const local = await (await fetch(`${server.url}/login?local`)).text()
  expect(local).toContain('autoComplete="current-password"')
})
