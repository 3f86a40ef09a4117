// The headers of the built server's HTML pages over real HTTP:
// every page, signed out, as a member and as the admin, carries a policy without 'unsafe-eval',
// with frame-ancestors/object-src/base-uri 'none', and a nonce that is new on every request and
// stands on every <script> of that page's body. HSTS only when APP_URL is https.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api, createMember } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let memberCookie: string
let adminCookie: string

const PUBLIC_PAGES = ['/', '/about', '/charts', '/contact', '/login', '/register', '/forgot-password', '/reset-password/some-token']
const MEMBER_PAGES = ['/player', '/folders', '/radio']
const ADMIN_PAGES = [
  '/admin',
  '/admin/dashboard',
  '/admin/users',
  '/admin/folders',
  '/admin/messages',
  '/admin/music',
  '/music',
  '/admin/stats',
  '/admin/insights',
  '/admin/listening-analytics',
]

/** The session cookie a browser would keep after signing in. */
async function sessionCookie(email: string, password: string) {
  const login = await api(server.url, 'POST', '/auth/login', { body: { email, password } })
  expect(login.status).toBe(200)
  return login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  const m = await createMember(server.url)
  memberCookie = await sessionCookie(m.email, m.password)
  adminCookie = await sessionCookie(ADMIN.email, ADMIN.password)
})
afterAll(() => server.stop())

async function page(path: string, cookie?: string) {
  const res = await fetch(server.url + path, { headers: cookie ? { cookie } : {}, redirect: 'manual' })
  expect({ path, status: res.status }).toEqual({ path, status: 200 })
  expect(res.headers.get('content-type')).toStartWith('text/html')
  return { headers: res.headers, body: await res.text() }
}

/** Checks one page's policy against its body; answers the nonce. */
function checkPolicy(path: string, headers: Headers, body: string): string {
  const policy = headers.get('content-security-policy')
  expect({ path, policy }).toEqual({ path, policy: expect.any(String) })
  const directives = new Map(
    policy!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  )
  expect(policy).not.toContain('unsafe-eval')
  expect(directives.get('frame-ancestors')).toEqual(["'none'"])
  expect(directives.get('object-src')).toEqual(["'none'"])
  expect(directives.get('base-uri')).toEqual(["'none'"])
  const scriptSources = directives.get('script-src') ?? []
  expect(scriptSources).not.toContain("'unsafe-inline'")
  const nonces = scriptSources.filter((s) => s.startsWith("'nonce-")).map((s) => s.slice(7, -1))
  expect(nonces).toHaveLength(1)
  const nonce = nonces[0]!
  const scripts = body.match(/<script\b[^>]*>/g) ?? []
  // The SSR page has inline hydration scripts and the entry module; each must carry the nonce.
  expect(scripts.filter((s) => !/\ssrc=/.test(s)).length).toBeGreaterThan(0)
  for (const tag of scripts) expect({ path, tag }).toEqual({ path, tag: expect.stringContaining(` nonce="${nonce}"`) })
  expect(headers.get('permissions-policy')).toContain('camera=()')
  return nonce
}

describe('HTML pages', () => {
  test('every public page: strict policy, its nonce on every script', async () => {
    for (const path of PUBLIC_PAGES) {
      const { headers, body } = await page(path)
      checkPolicy(path, headers, body)
    }
  })

  test('member pages, rendered for the signed-in member', async () => {
    for (const path of MEMBER_PAGES) {
      const { headers, body } = await page(path, memberCookie)
      checkPolicy(path, headers, body)
    }
  })

  test('admin pages, rendered for the signed-in admin', async () => {
    for (const path of ADMIN_PAGES) {
      const { headers, body } = await page(path, adminCookie)
      checkPolicy(path, headers, body)
    }
  })

  test('a fresh nonce on every request, and a client cannot choose it', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 5; i++) {
      const res = await fetch(server.url + '/', { headers: { 'x-vibes-csp-nonce': 'attacker-chosen' } })
      const nonce = checkPolicy('/', res.headers, await res.text())
      expect(nonce).not.toBe('attacker-chosen')
      expect(nonce.length).toBeGreaterThanOrEqual(22)
      seen.add(nonce)
    }
    expect(seen.size).toBe(5)
  })

  test('no HSTS with an http APP_URL', async () => {
    expect((await page('/')).headers.has('strict-transport-security')).toBe(false)
    expect((await api(server.url, 'GET', '/health')).headers.has('strict-transport-security')).toBe(false)
  })
})

describe('pages that show who is signed in stay out of shared caches', () => {
  const privateAnswer = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(server.url + path, { headers, redirect: 'manual' })
    await res.arrayBuffer()
    return { path, cacheControl: res.headers.get('cache-control') }
  }

  test('every member and admin page, signed in by cookie, by token (from the template) or not at all, and any page signed in: Cache-Control private, no-store', async () => {
    const member = await createMember(server.url)
    const asked: Array<[string, Record<string, string>]> = [
      ...[...MEMBER_PAGES, '/profile', '/library'].flatMap(
        (path): Array<[string, Record<string, string>]> => [
          [path, { cookie: memberCookie }],
          [path, { authorization: `Bearer ${member.token}` }],
          [path, {}],
        ],
      ),
      ...ADMIN_PAGES.flatMap(
        (path): Array<[string, Record<string, string>]> => [
          [path, { cookie: adminCookie }],
          [path, {}],
        ],
      ),
      ...PUBLIC_PAGES.map((path): [string, Record<string, string>] => [path, { cookie: memberCookie }]),
    ]
    for (const [path, headers] of asked) {
      // Twice: the second member-page answer comes from the template.
      for (let i = 0; i < 2; i++) expect(await privateAnswer(path, headers)).toEqual({ path, cacheControl: 'private, no-store' })
    }
  })
})

describe('with an https APP_URL', () => {
  test('pages and API answers carry Strict-Transport-Security', async () => {
    const secure = await startServer({ APP_URL: 'https://music.example.org' })
    try {
      const html = await fetch(secure.url + '/about')
      expect(html.headers.get('strict-transport-security')).toBe('max-age=31536000')
      expect((await api(secure.url, 'GET', '/health')).headers.get('strict-transport-security')).toBe('max-age=31536000')
    } finally {
      await secure.stop()
    }
  })
})
