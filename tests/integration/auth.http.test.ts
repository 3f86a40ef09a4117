// Every auth path over real HTTP against the built server, with a real SMTP server for resets.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'
import { startSmtp } from '../helpers/smtp'

let server: TestServer
let smtp: Awaited<ReturnType<typeof startSmtp>>

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startServer({ ...adminEnv, SMTP_URL: smtp.url, APP_URL: 'http://vibes.test' })
})
afterAll(async () => {
  await server.stop()
  await smtp.close()
})

describe('signup', () => {
  test('creates a member (201) and refuses a taken e-mail or username (409)', async () => {
    const body = { username: 'carol', email: 'Carol@Example.com', password: 'secret-12-vibes' }
    const created = await api(server.url, 'POST', '/auth/signup', { body })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ success: true, data: { username: 'carol', email: 'carol@example.com', isAdmin: false } })
    expect(JSON.stringify(created.body)).not.toContain('password')
    const again = await api(server.url, 'POST', '/auth/signup', { body: { ...body, username: 'carol2' } })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ success: false, error: 'Email is already registered' })
    const sameName = await api(server.url, 'POST', '/auth/signup', { body: { ...body, email: 'other@example.com' } })
    expect(sameName.status).toBe(409)
  })

  test('bad input is a 400 naming the field, and nothing is stored', async () => {
    const cases: Array<[unknown, string]> = [
      [{ username: 'dave', email: 'nope', password: 'secret-12-vibes' }, 'Please enter a valid email address'],
      [{ username: 'da', email: 'dave@example.com', password: 'secret-12-vibes' }, 'Username must be at least 3 characters'],
      [{ username: 'dave', email: 'dave@example.com', password: '  12  ' }, 'Password must be at least 6 characters'],
      [{ username: 'dave', email: 'dave@example.com' }, 'Password is required'],
      [{ username: 42, email: 'dave@example.com', password: 'secret-12-vibes' }, 'Username must be text'],
      [{ username: 'dave', email: 'dave@example.com', password: 'secret-12-vibes', isAdmin: true }, 'Unrecognized key: "isAdmin"'],
      [{ username: 'x'.repeat(100_000), email: 'dave@example.com', password: 'secret-12-vibes' }, 'Username must be at most 32 characters'],
    ]
    for (const [body, error] of cases) {
      const res = await api(server.url, 'POST', '/auth/signup', { body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error })
    }
    const login = await api(server.url, 'POST', '/auth/login', { body: { email: 'dave@example.com', password: 'secret-12-vibes' } })
    expect(login.status).toBe(401)
  })

  test('malformed JSON, a non-object body and an oversized body get clear 4xx answers', async () => {
    expect(await api(server.url, 'POST', '/auth/signup', { raw: '{"username":' })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Malformed JSON body' },
    })
    expect(await api(server.url, 'POST', '/auth/signup', { raw: '[1,2]' })).toMatchObject({
      status: 400,
      body: { error: 'Request body must be a JSON object' },
    })
    expect(await api(server.url, 'POST', '/auth/login', { raw: '' })).toMatchObject({ status: 400 })
    const huge = await api(server.url, 'POST', '/auth/signup', { raw: JSON.stringify({ username: 'x'.repeat(2_000_000) }) })
    expect(huge.status).toBe(413)
    expect((await api(server.url, 'GET', '/health')).status).toBe(200)
  })
})

describe('login and tokens', () => {
  test('answers a token and user, sets the session and XSRF cookies', async () => {
    const m = await createMember(server.url)
    const res = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    expect(res.status).toBe(200)
    expect(res.body.data.user).toMatchObject({ username: m.username, email: m.email, isAdmin: false })
    const token: string = res.body.data.token
    expect(token.split('.')).toHaveLength(3)
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())
    expect(payload).toMatchObject({ userId: m.user.id, email: m.email, isAdmin: false })
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000)
    const cookies = res.headers.getSetCookie()
    expect(cookies.find((c) => c.startsWith('vibes_session='))).toContain('HttpOnly')
    expect(cookies.find((c) => c.startsWith('vibes_session='))).toContain('SameSite=Lax')
    expect(cookies.find((c) => c.startsWith('XSRF-TOKEN='))).not.toContain('HttpOnly')
  })

  test('wrong password and unknown e-mail get the same 401', async () => {
    const m = await createMember(server.url)
    const wrong = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: 'wrong-password' } })
    const unknown = await api(server.url, 'POST', '/auth/login', { body: { email: 'nobody@example.com', password: 'wrong-password' } })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual({ success: false, error: 'Invalid email or password' })
    expect(unknown.body).toEqual(wrong.body)
  })

  test('a forged or tampered token is refused', async () => {
    const m = await createMember(server.url)
    const [h, p, s] = m.token.split('.')
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, isAdmin: true })).toString('base64url')}.${s}`
    expect((await api(server.url, 'GET', '/auth/session', { token: forged })).status).toBe(401)
    expect((await api(server.url, 'GET', '/auth/session', { token: 'garbage' })).body.error).toBe('Authentication token is invalid or expired')
    expect((await api(server.url, 'GET', '/auth/session')).body.error).toBe('No authentication token found. Please log in again.')
  })

  test('logout revokes the token and clears the cookies', async () => {
    const m = await createMember(server.url)
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(200)
    const out = await api(server.url, 'POST', '/auth/logout', { token: m.token })
    expect(out.status).toBe(200)
    expect(out.headers.getSetCookie().some((c) => c.startsWith('vibes_session=;') && c.includes('Max-Age=0'))).toBe(true)
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    expect((await api(server.url, 'GET', '/health/auth', { token: m.token })).body.data.authenticated).toBe(false)
  })

  test('the session cookie works for reads, and for writes only with the XSRF header', async () => {
    const m = await createMember(server.url)
    const login = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    const jar = login.headers.getSetCookie().map((c) => c.split(';')[0])
    const cookie = jar.join('; ')
    const xsrf = decodeURIComponent(jar.find((c) => c.startsWith('XSRF-TOKEN='))!.split('=')[1])
    expect((await api(server.url, 'GET', '/health/auth', { headers: { cookie } })).body.data).toMatchObject({ authenticated: true, user: { email: m.email } })
    // Logout without the XSRF header does not count as the user: their session survives.
    await api(server.url, 'POST', '/auth/logout', { headers: { cookie } })
    expect((await api(server.url, 'GET', '/auth/session', { headers: { cookie } })).status).toBe(200)
    await api(server.url, 'POST', '/auth/logout', { headers: { cookie, 'x-xsrf-token': xsrf } })
    expect((await api(server.url, 'GET', '/auth/session', { headers: { cookie } })).status).toBe(401)
  })
})

describe('logout from another site', () => {
  /** What a signed-in browser keeps after logging in. */
  async function signedInBrowser() {
    const m = await createMember(server.url)
    const login = await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })
    const jar = login.headers.getSetCookie().map((c) => c.split(';')[0])
    return { cookie: jar.join('; '), xsrf: decodeURIComponent(jar.find((c) => c.startsWith('XSRF-TOKEN='))!.split('=')[1]) }
  }
  const logoutTargets = ['/api/auth/logout', '/api/trpc/auth.logout']
  // What another site's page can send without a preflight: an empty HTML form, or a text/plain
  // fetch with a JSON body. The browser adds no header of the page's choosing.
  const crossSitePosts = (target: string, headers: Record<string, string>) =>
    Promise.all([
      fetch(server.url + target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: '' }),
      fetch(server.url + target, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body: '{}' }),
    ])

  test('a form post without cookies (SameSite=Lax keeps them back) clears none: no Set-Cookie in the answer', async () => {
    for (const target of logoutTargets) {
      for (const res of await crossSitePosts(target, {}))
        expect({ target, status: res.status < 500, setCookie: res.headers.getSetCookie() }).toEqual({ target, status: true, setCookie: [] })
    }
  })

  test('a post with the cookies but without the XSRF header (a page of a sibling site) is refused: 403, nothing cleared, the session lives', async () => {
    const browser = await signedInBrowser()
    for (const target of logoutTargets) {
      // (tRPC takes no form or text bodies at all: 415.)
      const refused = target.includes('trpc') ? 415 : 403
      for (const res of await crossSitePosts(target, { cookie: browser.cookie }))
        expect({ target, status: res.status, setCookie: res.headers.getSetCookie() }).toEqual({ target, status: refused, setCookie: [] })
    }
    expect((await api(server.url, 'GET', '/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(200)
  })

  test("the app's own logouts still work: with the XSRF header, and with the Bearer token", async () => {
    for (const target of logoutTargets) {
      const browser = await signedInBrowser()
      const m = await createMember(server.url)
      const ways: Array<Record<string, string>> = [{ cookie: browser.cookie, 'x-xsrf-token': browser.xsrf }, { authorization: `Bearer ${m.token}` }]
      for (const headers of ways) {
        const res = await fetch(server.url + target, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })
        expect({ target, status: res.status }).toEqual({ target, status: 200 })
        expect(res.headers.getSetCookie().some((c) => c.startsWith('vibes_session=;') && c.includes('Max-Age=0'))).toBe(true)
      }
      expect((await api(server.url, 'GET', '/auth/session', { headers: { cookie: browser.cookie } })).status).toBe(401)
      expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    }
  })
})

describe('first admin', () => {
  test('ADMIN_EMAIL/ADMIN_PASSWORD create an admin whose token says so', async () => {
    const token = await loginAdmin(server.url)
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())
    expect(payload).toMatchObject({ email: ADMIN.email, isAdmin: true })
    expect((await api(server.url, 'GET', '/health/system', { token })).status).toBe(200)
  })

  test('admin-only health panels: 401 without a token, 403 for a member', async () => {
    const m = await createMember(server.url)
    expect((await api(server.url, 'GET', '/health/metrics')).status).toBe(401)
    expect((await api(server.url, 'GET', '/health/metrics', { token: m.token })).status).toBe(403)
    const metrics = await api(server.url, 'GET', '/health/metrics', { token: await loginAdmin(server.url) })
    // (Bun's toMatchObject with expect.any rewrites the object it reads, so read the numbers first.)
    const { apiLatency, errorRate, requestsPerMinute } = metrics.body.data.metrics
    // This very test made at least 5 API calls within the minute (sign-up, login, two refusals,
    // the admin's login), each taking measurable time; 401/403 are answers, not server faults.
    expect(requestsPerMinute).toBeGreaterThanOrEqual(5)
    expect(apiLatency.avg).toBeGreaterThan(0)
    expect(apiLatency.p95).toBeGreaterThan(0)
    expect(errorRate).toBe(0)
  })
})

describe('password reset through real SMTP', () => {
  test('mails a single-use link; reset revokes old tokens and the new password works', async () => {
    const m = await createMember(server.url)
    const unknown = await api(server.url, 'POST', '/auth/forgot-password', { body: { email: 'ghost@example.com' } })
    const known = await api(server.url, 'POST', '/auth/forgot-password', { body: { email: m.email } })
    expect(unknown.status).toBe(200)
    expect(known.status).toBe(200)
    expect(unknown.body).toEqual(known.body)

    const mail = await smtp.waitFor(m.email)
    const link = /http:\/\/vibes\.test\/reset-password\/([a-z0-9]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))
    expect(link).not.toBeNull()
    const token = link![1]

    expect((await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: '123' } })).body.error).toBe(
      'Password must be at least 6 characters',
    )
    const reset = await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'brand-new-pass' } })
    expect(reset.status).toBe(200)
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: m.password } })).status).toBe(401)
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: m.email, password: 'brand-new-pass' } })).status).toBe(200)
    const reused = await api(server.url, 'POST', `/auth/reset-password/${token}`, { body: { password: 'another-pass' } })
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe('Invalid or expired password reset token')
  })

  test('a made-up token is a 400', async () => {
    const res = await api(server.url, 'POST', '/auth/reset-password/not-a-real-token', { body: { password: 'whatever-1-vibes' } })
    expect(res).toMatchObject({ status: 400, body: { success: false, error: 'Invalid or expired password reset token' } })
  })
})

describe('envelope', () => {
  test('unknown /api paths and wrong methods answer in the envelope', async () => {
    expect(await api(server.url, 'GET', '/does/not/exist')).toMatchObject({ status: 404, body: { success: false } })
    expect(await api(server.url, 'GET', '/auth/login')).toMatchObject({ status: 405, body: { success: false } })
    expect(await api(server.url, 'POST', '/auth/reset-password/%ZZ', { body: { password: 'abcdefg' } })).toMatchObject({
      status: 400,
      body: { success: false, error: 'Malformed URL' },
    })
  })

  test('health answers anonymous callers with status, database and time only', async () => {
    const res = await api(server.url, 'GET', '/health?t=123')
    expect(res.body.data).toEqual({ status: 'ok', db: { connected: true }, timestamp: expect.any(String) })
  })
})

describe('login rate limits lock out the guesses, not the owner', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startServer({ RATE_LIMIT: 'on', TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await limited.stop()
  })
  const loginFrom = (email: string, password: string, address: string) =>
    api(limited.url, 'POST', '/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': address } })

  test('ten wrong passwords from ten addresses do not stop her right password from her own address', async () => {
    const alice = await createMember(limited.url)
    for (let i = 1; i <= 12; i++) expect((await loginFrom(alice.email, `guess-${i}`, `198.51.100.${i}`)).status).toBe(401)
    expect((await loginFrom(alice.email, alice.password, '203.0.113.40')).status).toBe(200)
  })

  test('ten wrong passwords from one address: that address waits (429), even with the right password; her other address does not', async () => {
    const bob = await createMember(limited.url)
    for (let i = 0; i < 10; i++) expect((await loginFrom(bob.email, 'wrong-password', '198.51.100.99')).status).toBe(401)
    const blocked = await loginFrom(bob.email, bob.password, '198.51.100.99')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await loginFrom(bob.email, bob.password, '203.0.113.41')).status).toBe(200)
  })

  test('a right password does not count: a member may sign in again and again', async () => {
    const carol = await createMember(limited.url)
    for (let i = 0; i < 12; i++) expect((await loginFrom(carol.email, carol.password, '203.0.113.42')).status).toBe(200)
  })
})
