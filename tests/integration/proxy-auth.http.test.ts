// Reverse-proxy authentication: AUTH_PROXY_HEADER counts only on requests whose socket peer is an
// address TRUST_PROXY lists. The "proxy" here connects from 127.0.0.2 (a loopback address of its
// own); anyone else connects from 127.0.0.1 and sends the same header for nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import http from 'node:http'
import { ADMIN, adminEnv, api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

const PROXY_ADDRESS = '127.0.0.2'
let vibes: TestServer

type Answer = { status: number; cookies: string[]; body: string }

/** A request from the proxy's address. */
function viaProxy(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, vibes.url)
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers, localAddress: PROXY_ADDRESS }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => {
        const cookies = response.headers['set-cookie'] ?? []
        resolve({ status: response.statusCode ?? 0, cookies, body })
      })
    })
    request.on('error', reject)
    request.end()
  })
}

const sessionCookie = (cookies: string[]) => cookies.find((c) => c.startsWith('vibes_session='))?.split(';')[0]

/** The e-mail of every account on the server, read from its database (either engine). */
async function memberEmails(): Promise<string[]> {
  return (await sqlOn<{ email: string }>(vibes, 'SELECT email FROM users ORDER BY id')).map((u) => u.email)
}

beforeAll(async () => {
  vibes = await startServer({ ...adminEnv, TRUST_PROXY: PROXY_ADDRESS, AUTH_PROXY_HEADER: 'Remote-User' })
})

afterAll(async () => {
  await vibes?.stop()
})

describe('reverse-proxy authentication', () => {
  test('from the trusted proxy, the header is the member, made on first sight', async () => {
    const first = await viaProxy('/api/auth/session', { 'remote-user': 'proxy-alice' })
    expect(first.status).toBe(200)
    expect(JSON.parse(first.body).data.user).toMatchObject({ username: 'proxy-alice', isAdmin: false })
    // The answer gives the browser a session of its own, so its next requests carry it.
    const cookie = sessionCookie(first.cookies)
    expect(cookie).toBeDefined()
    const next = await viaProxy('/api/auth/session', { 'remote-user': 'proxy-alice', cookie: cookie ?? '' })
    expect(next.status).toBe(200)
    expect(next.cookies).toEqual([])
    // A signed-in page renders as that member.
    const page = await viaProxy('/profile', { 'remote-user': 'proxy-alice' })
    expect(page.status).toBe(200)
    expect(page.body).toContain('proxy-alice')
  })

  test('an existing member is found by username or e-mail, with their own role', async () => {
    const bob = await createMember(vibes.url, { username: 'proxy-bob', email: 'bob@proxy.test' })
    const byName = await viaProxy('/api/auth/session', { 'remote-user': 'proxy-bob' })
    expect(JSON.parse(byName.body).data.user.id).toBe(bob.user.id)
    const byEmail = await viaProxy('/api/auth/session', { 'remote-user': 'BOB@proxy.test' })
    expect(JSON.parse(byEmail.body).data.user.id).toBe(bob.user.id)
    const admin = await viaProxy('/api/auth/session', { 'remote-user': ADMIN.email })
    expect(JSON.parse(admin.body).data.user).toMatchObject({ email: ADMIN.email, isAdmin: true })
  })

  test('the proxy decides over a token or cookie of another member', async () => {
    const carol = await createMember(vibes.url)
    const answer = await viaProxy('/api/auth/session', { 'remote-user': 'proxy-alice', authorization: `Bearer ${carol.token}` })
    expect(JSON.parse(answer.body).data.user.username).toBe('proxy-alice')
  })

  test('from any other address the header counts for nothing and makes no one', async () => {
    const before = await memberEmails()
    const direct = await fetch(`${vibes.url}/api/auth/session`, { headers: { 'remote-user': 'proxy-mallory', 'x-forwarded-for': PROXY_ADDRESS } })
    expect(direct.status).toBe(401)
    expect(direct.headers.getSetCookie().some((c) => c.startsWith('vibes_session='))).toBe(false)
    const asAdmin = await fetch(`${vibes.url}/api/admin/users`, { headers: { 'remote-user': ADMIN.email } })
    expect(asAdmin.status).toBe(401)
    // Its own login stays its own: the header does not swap a caller's identity either.
    const carol = await createMember(vibes.url)
    const own = await api(vibes.url, 'GET', '/auth/session', { token: carol.token, headers: { 'remote-user': ADMIN.email } })
    expect(own.body.data.user.id).toBe(carol.user.id)
    expect((await memberEmails()).sort()).toEqual([...before, carol.email].sort())
  })

  test('a name that is neither a username nor an e-mail signs no one in and makes no one', async () => {
    const before = await memberEmails()
    for (const name of ['x', 'john doe!', 'a'.repeat(40)]) {
      const answer = await viaProxy('/api/auth/session', { 'remote-user': name })
      expect(answer.status).toBe(401)
    }
    expect(await memberEmails()).toEqual(before)
  })

  test('the header value never reaches the logs', async () => {
    await viaProxy('/api/auth/session', { 'remote-user': 'proxy-zed-logcheck' })
    await fetch(`${vibes.url}/api/nothing-here`, { headers: { 'remote-user': 'proxy-zed-logcheck' } })
    await Bun.sleep(100)
    expect(vibes.logs.some((line) => line.includes('proxy-zed-logcheck'))).toBe(false)
  })
})
