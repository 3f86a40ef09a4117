// The account page's calls (/profile) over real HTTP against the built
// server: each change needs the current password, a password change ends the other sessions, a
// member sees and ends only their own sessions, and the last admin cannot delete their account.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer(adminEnv)
})
afterAll(async () => {
  await server.stop()
})

const login = (email: string, password: string, userAgent = 'Bun test') =>
  api(server.url, 'POST', '/auth/login', { body: { email, password }, headers: { 'user-agent': userAgent } })
const sessionOk = async (token: string) => (await api(server.url, 'GET', '/auth/session', { token })).status === 200

describe('username and e-mail', () => {
  test('a new username needs the current password; a wrong one is a 400 and changes nothing', async () => {
    const m = await createMember(server.url)
    const wrong = await api(server.url, 'PATCH', '/user/profile/username', { token: m.token, body: { username: 'renamed one', currentPassword: 'nope-nope' } })
    expect(wrong).toMatchObject({ status: 400, body: { success: false, error: 'Current password is incorrect' } })
    expect(await sessionOk(m.token)).toBe(true)
    const missing = await api(server.url, 'PATCH', '/user/profile/username', { token: m.token, body: { username: 'renamed one' } })
    expect(missing).toMatchObject({ status: 400, body: { error: 'Current password is required' } })
    const session = await api(server.url, 'GET', '/auth/session', { token: m.token })
    expect(session.body.data.user.username).toBe(m.username)

    const ok = await api(server.url, 'PATCH', '/user/profile/username', { token: m.token, body: { username: 'renamed one', currentPassword: m.password } })
    expect(ok).toMatchObject({ status: 200, body: { success: true, data: { user: { id: m.user.id, username: 'renamed one', email: m.email } } } })
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).body.data.user.username).toBe('renamed one')
  })

  test('the registration rules apply, and a taken username or e-mail is a 409', async () => {
    const m = await createMember(server.url)
    const other = await createMember(server.url)
    const cases: Array<[string, unknown, number, string]> = [
      ['/user/profile/username', { username: 'ab', currentPassword: m.password }, 400, 'Username must be at least 3 characters'],
      [
        '/user/profile/username',
        { username: 'bad<name>', currentPassword: m.password },
        400,
        'Username may use letters, digits, spaces, dots, dashes and underscores',
      ],
      ['/user/profile/username', { username: other.username, currentPassword: m.password }, 409, 'Username is already taken'],
      ['/user/profile/email', { email: 'not-an-address', currentPassword: m.password }, 400, 'Please enter a valid email address'],
      ['/user/profile/email', { email: other.email.toUpperCase(), currentPassword: m.password }, 409, 'Email is already registered'],
      ['/user/profile/email', { email: 'x@example.com', currentPassword: m.password, isAdmin: true }, 400, 'Unrecognized key: "isAdmin"'],
    ]
    for (const [route, body, status, error] of cases) {
      const res = await api(server.url, 'PATCH', route, { token: m.token, body })
      expect({ route, status: res.status, body: res.body }).toEqual({ route, status, body: { success: false, error } })
    }
    // Keeping one's own username or e-mail is no conflict.
    const same = await api(server.url, 'PATCH', '/user/profile/username', { token: m.token, body: { username: m.username, currentPassword: m.password } })
    expect(same.status).toBe(200)
  })

  test('a new e-mail answers a fresh token that says it; the old address no longer logs in', async () => {
    const m = await createMember(server.url)
    const elsewhere = (await login(m.email, m.password, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0')).body.data.token as string
    const res = await api(server.url, 'PATCH', '/user/profile/email', {
      token: m.token,
      body: { email: 'New.Address@Example.com', currentPassword: m.password },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.user.email).toBe('new.address@example.com')
    const token = res.body.data.token as string
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).email).toBe('new.address@example.com')
    expect(res.headers.get('set-cookie')).toContain('vibes_session=')
    expect(await sessionOk(token)).toBe(true)
    expect(await sessionOk(m.token)).toBe(false)
    expect(await sessionOk(elsewhere)).toBe(true)
    expect((await login(m.email, m.password)).status).toBe(401)
    expect((await login('new.address@example.com', m.password)).status).toBe(200)
  })
})

describe('password', () => {
  test('a change needs the current password, keeps this session and ends every other one', async () => {
    const m = await createMember(server.url)
    const phone = (await login(m.email, m.password, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1')).body.data.token as string

    const wrong = await api(server.url, 'PUT', '/user/profile/password', {
      token: m.token,
      body: { currentPassword: 'wrong-one', newPassword: 'brand-new-pw' },
    })
    expect(wrong).toMatchObject({ status: 400, body: { error: 'Current password is incorrect' } })
    const short = await api(server.url, 'PUT', '/user/profile/password', { token: m.token, body: { currentPassword: m.password, newPassword: '12' } })
    expect(short).toMatchObject({ status: 400, body: { error: 'Password must be at least 6 characters' } })
    expect(await sessionOk(phone)).toBe(true)

    const ok = await api(server.url, 'PUT', '/user/profile/password', { token: m.token, body: { currentPassword: m.password, newPassword: 'brand-new-pw' } })
    expect(ok.status).toBe(200)
    expect(await sessionOk(m.token)).toBe(true)
    expect(await sessionOk(phone)).toBe(false)
    expect((await login(m.email, m.password)).status).toBe(401)
    expect((await login(m.email, 'brand-new-pw')).status).toBe(200)
  })
})

describe('sessions', () => {
  test('lists the member’s own sessions with device and last seen, the current one marked', async () => {
    const m = await createMember(server.url)
    await login(m.email, m.password, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36')
    const other = await createMember(server.url)
    const res = await api(server.url, 'GET', '/user/sessions', { token: m.token })
    expect(res.status).toBe(200)
    const list = res.body.data.sessions as Array<{ id: string; device: string; lastSeenAt: string; createdAt: string; current: boolean }>
    expect(list).toHaveLength(2)
    expect(list.filter((s) => s.current)).toHaveLength(1)
    expect(list.map((s) => s.device)).toContain('Chrome on Windows')
    for (const s of list) expect(Date.now() - Date.parse(s.lastSeenAt)).toBeLessThan(60_000)
    expect(JSON.stringify(res.body)).not.toContain(other.email)
  })

  test('two browsers of one kind are named apart, numbered in the order they signed in', async () => {
    const m = await createMember(server.url)
    const linuxChrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
    const first = (await login(m.email, m.password, linuxChrome)).body.data.token as string
    await Bun.sleep(5)
    await login(m.email, m.password, linuxChrome)
    const list = (await api(server.url, 'GET', '/user/sessions', { token: first })).body.data.sessions as Array<{ device: string; current: boolean }>
    expect(
      list
        .map((s) => s.device)
        .filter((d) => d.startsWith('Chrome'))
        .sort(),
    ).toEqual(['Chrome on Linux #1', 'Chrome on Linux #2'])
    expect(list.find((s) => s.current)?.device).toBe('Chrome on Linux #1')
  })

  test('revoking a session logs that device out; another member’s session id is a 404 and stays', async () => {
    const m = await createMember(server.url)
    const laptop = (await login(m.email, m.password, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1.15')).body.data.token as string
    const intruder = await createMember(server.url)
    const mine = (await api(server.url, 'GET', '/user/sessions', { token: m.token })).body.data.sessions as Array<{ id: string; current: boolean }>
    const laptopSession = mine.find((s) => !s.current)!

    const foreign = await api(server.url, 'DELETE', `/user/sessions/${laptopSession.id}`, { token: intruder.token })
    expect(foreign).toMatchObject({ status: 404, body: { success: false, error: 'Session not found' } })
    expect(await sessionOk(laptop)).toBe(true)

    const revoked = await api(server.url, 'DELETE', `/user/sessions/${laptopSession.id}`, { token: m.token })
    expect(revoked).toMatchObject({ status: 200, body: { data: { id: laptopSession.id, revoked: true } } })
    expect(await sessionOk(laptop)).toBe(false)
    expect(await sessionOk(m.token)).toBe(true)
    expect((await api(server.url, 'DELETE', `/user/sessions/${laptopSession.id}`, { token: m.token })).status).toBe(404)
    expect((await api(server.url, 'DELETE', `/user/sessions/${'x'.repeat(500)}`, { token: m.token })).status).toBe(400)
  })

  test('last seen is stored when a session is used (at most every few minutes)', async () => {
    const m = await createMember(server.url)
    await sqlOn(server, 'UPDATE sessions SET last_seen_at = ? WHERE user_id = ?', [Date.now() - 3_600_000, m.user.id])
    expect(await sessionOk(m.token)).toBe(true)
    const [row] = await sqlOn<{ lastSeen: number }>(server, 'SELECT last_seen_at AS "lastSeen" FROM sessions WHERE user_id = ?', [m.user.id])
    expect(Date.now() - row.lastSeen).toBeLessThan(60_000)
  })
})

/** What /rest says to an app key: 'ok', or the Subsonic error code. */
async function appKeyAnswer(key: string): Promise<string> {
  const res = await fetch(`${server.url}/rest/ping.view?apiKey=${key}&c=test&v=1.16.1&f=json`)
  const answer = (await res.json())['subsonic-response']
  return answer.status === 'ok' ? 'ok' : String(answer.error.code)
}
const createKey = (token: string, body: Record<string, unknown>) => api(server.url, 'POST', '/user/app-keys', { token, body })

describe('app keys', () => {
  test('creating one needs the current password: a stolen session alone cannot mint a key', async () => {
    const m = await createMember(server.url)
    expect(await createKey(m.token, { name: 'DSub' })).toMatchObject({ status: 400, body: { error: 'Current password is required' } })
    expect(await createKey(m.token, { name: 'DSub', currentPassword: 'not-the-password' })).toMatchObject({
      status: 400,
      body: { error: 'Current password is incorrect' },
    })
    expect((await api(server.url, 'GET', '/user/app-keys', { token: m.token })).body.data.keys).toEqual([])
    const made = await createKey(m.token, { name: 'DSub', currentPassword: m.password })
    expect(made.status).toBe(201)
    expect(await appKeyAnswer(made.body.data.key)).toBe('ok')
  })

  test('a password change ends the app keys unless the member keeps them', async () => {
    const m = await createMember(server.url)
    const before = (await createKey(m.token, { name: 'Symfonium', currentPassword: m.password })).body.data.key as string
    const changed = await api(server.url, 'PUT', '/user/profile/password', {
      token: m.token,
      body: { currentPassword: m.password, newPassword: 'second-pass-1' },
    })
    expect(changed.status).toBe(200)
    expect(await appKeyAnswer(before)).toBe('44')
    const listed = (await api(server.url, 'GET', '/user/app-keys', { token: m.token })).body.data.keys
    expect(listed).toMatchObject([{ name: 'Symfonium', revokedAt: expect.any(Number) }])

    const kept = (await createKey(m.token, { name: 'Feishin', currentPassword: 'second-pass-1' })).body.data.key as string
    const keeping = await api(server.url, 'PUT', '/user/profile/password', {
      token: m.token,
      body: { currentPassword: 'second-pass-1', newPassword: 'third-pass-1', revokeAppKeys: false },
    })
    expect(keeping.status).toBe(200)
    expect(await appKeyAnswer(kept)).toBe('ok')
  })

  test('key creation, e-mail change and password change are in the audit log the admin reads', async () => {
    const m = await createMember(server.url)
    const adminToken = await loginAdmin(server.url)
    expect((await createKey(m.token, { name: 'Audited app', currentPassword: m.password })).status).toBe(201)
    const newEmail = `moved-${m.email}`
    const moved = await api(server.url, 'PATCH', '/user/profile/email', { token: m.token, body: { email: newEmail, currentPassword: m.password } })
    expect(moved.status).toBe(200)
    const token = moved.body.data.token as string
    expect((await api(server.url, 'PUT', '/user/profile/password', { token, body: { currentPassword: m.password, newPassword: 'audited-pass' } })).status).toBe(
      200,
    )

    const audit = await api(server.url, 'GET', '/admin/audit?limit=50', { token: adminToken })
    expect(audit.status).toBe(200)
    const mine = (audit.body.data as Array<{ actorId: string; actorName: string; action: string; target: string; detail: string }>)
      .filter((e) => e.actorId === m.user.id)
      .map(({ actorName, action, target, detail }) => ({ actorName, action, target, detail }))
    expect(mine).toEqual([
      { actorName: m.username, action: 'account.password', target: m.username, detail: 'app keys revoked' },
      { actorName: m.username, action: 'account.email', target: m.username, detail: `${m.email} → ${newEmail}` },
      { actorName: m.username, action: 'appkey.create', target: 'Audited app', detail: expect.any(String) },
    ])
  })
})

describe('deleting the account', () => {
  test('needs the current password; then the account, its sessions and its login are gone', async () => {
    const m = await createMember(server.url)
    const wrong = await api(server.url, 'DELETE', '/user/account', { token: m.token, body: { currentPassword: 'wrong-one' } })
    expect(wrong).toMatchObject({ status: 400, body: { error: 'Current password is incorrect' } })
    expect(await sessionOk(m.token)).toBe(true)

    const ok = await api(server.url, 'DELETE', '/user/account', { token: m.token, body: { currentPassword: m.password } })
    expect(ok).toMatchObject({ status: 200, body: { success: true, data: { deleted: true } } })
    expect(await sessionOk(m.token)).toBe(false)
    expect((await login(m.email, m.password)).status).toBe(401)
    // The name and address are free again.
    expect((await api(server.url, 'POST', '/auth/signup', { body: { username: m.username, email: m.email, password: 'tune-in-2-vibes' } })).status).toBe(201)
  })

  test('the last admin cannot delete their account; with a second admin they can', async () => {
    const adminToken = await loginAdmin(server.url)
    const refused = await api(server.url, 'DELETE', '/user/account', { token: adminToken, body: { currentPassword: ADMIN.password } })
    expect(refused).toMatchObject({
      status: 400,
      body: { success: false, error: 'You are the only admin: make another member an admin before deleting your account.' },
    })
    expect(await sessionOk(adminToken)).toBe(true)

    const second = await createMember(server.url)
    expect((await api(server.url, 'PATCH', `/admin/users/${second.user.id}/role`, { token: adminToken, body: { isAdmin: true } })).status).toBe(200)
    const ok = await api(server.url, 'DELETE', '/user/account', { token: adminToken, body: { currentPassword: ADMIN.password } })
    expect(ok.status).toBe(200)
    expect((await login(ADMIN.email, ADMIN.password)).status).toBe(401)
    // Now the second admin is the last one.
    const secondToken = (await login(second.email, second.password)).body.data.token as string
    expect((await api(server.url, 'DELETE', '/user/account', { token: secondToken, body: { currentPassword: second.password } })).status).toBe(400)
  })

  test('anonymous callers get 401 on every profile call', async () => {
    for (const [method, route] of [
      ['GET', '/user/sessions'],
      ['DELETE', '/user/account'],
      ['PUT', '/user/profile/password'],
    ] as const) {
      const res = await api(server.url, method, route, { body: method === 'GET' ? undefined : { currentPassword: 'x' } })
      expect(res).toMatchObject({ status: 401, body: { success: false, error: 'No authentication token found. Please log in again.' } })
    }
  })
})
