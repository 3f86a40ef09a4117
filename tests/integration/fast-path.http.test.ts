// The production front's fast path (decision 028) over real HTTP against the built
// server: public pages an anonymous visitor gets are rendered once and served from memory, yet
// each answer is what a fresh render gives (a snapshot against an uncached render of the same
// page), carries its own CSP nonce, and is rendered afresh after an API write; members' pages
// are never shared. And /api goes straight to its handlers: every method on /api/trpc answers
// tRPC's JSON, never a page.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.stop()
})

const PUBLIC_PAGES = ['/', '/about', '/charts', '/contact', '/login', '/register', '/forgot-password']

type Page = { html: string; nonce: string; policy: string }

async function get(path: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(server.url + path, { headers })
  expect(res.status).toBe(200)
  const policy = res.headers.get('content-security-policy') ?? ''
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? ''
  return { html: await res.text(), nonce, policy }
}

/** The page with its nonce and its render's timestamps (router match and query times) masked. */
const normalised = (page: Page) => page.html.replaceAll(page.nonce, 'NONCE').replace(/\b\d{13}\b/g, 'TIME')
/** When this copy was rendered: the dehydrated auth query's time. */
const renderedAt = (page: Page) => /dataUpdatedAt:(\d{13})/.exec(page.html)?.[1]

describe('anonymous public pages from memory', () => {
  test('each is byte for byte an uncached render (apart from nonce and render times), with a nonce of its own', async () => {
    for (const path of PUBLIC_PAGES) {
      const first = await get(path)
      const second = await get(path)
      // A cookie the app does not know still bypasses the cache: this is a fresh render.
      const fresh = await get(path, { cookie: 'unrelated=1' })
      expect(normalised(second)).toBe(normalised(fresh))
      expect(normalised(first)).toBe(normalised(fresh))
      for (const page of [first, second, fresh]) {
        expect(page.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
        expect(/script-src [^;]*/.exec(page.policy)?.[0]).toBe(`script-src 'self' 'nonce-${page.nonce}' 'strict-dynamic'`)
        // Every script of the body carries this answer's nonce, and no other nonce is left in it.
        const scripts = page.html.match(/<script\b[^>]*>/g) ?? []
        expect(scripts.length).toBeGreaterThan(0)
        for (const tag of scripts) expect(tag).toContain(`nonce="${page.nonce}"`)
        expect([...page.html.matchAll(/nonce="([^"]+)"/g)].every((m) => m[1] === page.nonce)).toBe(true)
      }
      expect(new Set([first.nonce, second.nonce, fresh.nonce]).size).toBe(3)
    }
  })

  test('two visitors within seconds get one render; an API write makes the next visitor get a new one', async () => {
    const first = await get('/about')
    await Bun.sleep(20)
    const second = await get('/about')
    expect(renderedAt(first)).toBeDefined()
    expect(renderedAt(second)).toBe(renderedAt(first))
    await createMember(server.url)
    await Bun.sleep(20)
    const afterWrite = await get('/about')
    expect(Number(renderedAt(afterWrite))).toBeGreaterThan(Number(renderedAt(first)))
  })

  test("a member's page is rendered for that member, never a cached anonymous copy", async () => {
    const anonymous = await get('/')
    expect(anonymous.html).toContain('sessionUser:null')
    const member = await createMember(server.url)
    const signedIn = await get('/', { authorization: `Bearer ${member.token}` })
    expect(signedIn.html).toContain(member.username)
    expect(signedIn.html).not.toContain('sessionUser:null')
    const login = await api(server.url, 'POST', '/auth/login', { body: { email: member.email, password: member.password } })
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await get('/about', { cookie })).html).toContain(member.username)
  })
})

/** Any API write: every page in memory is rendered afresh by the next request. */
const write = () => api(server.url, 'POST', '/contact', { body: { fullName: 'Page Test', email: 'page@example.com', message: 'Drop the pages in memory.' } })

describe('HEAD requests and pages in memory', () => {
  test('a HEAD request that renders a public page afresh does not leave an empty page for the GETs after it', async () => {
    for (const path of PUBLIC_PAGES) {
      await write()
      const head = await fetch(server.url + path, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toStartWith('text/html')
      expect(await head.text()).toBe('')
      const page = await get(path)
      expect({ path, html: page.html.slice(0, 15) }).toEqual({ path, html: '<!DOCTYPE html>' })
      expect(page.html).toContain(`nonce="${page.nonce}"`)
    }
  })

  test("a HEAD request that makes a member's page template does not leave an empty page either", async () => {
    const member = await createMember(server.url)
    for (const path of ['/folders', '/player', '/profile']) {
      await write()
      const head = await fetch(server.url + path, { method: 'HEAD', headers: { authorization: `Bearer ${member.token}` } })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
      const page = await get(path, { authorization: `Bearer ${member.token}` })
      expect(page.html).toContain(`username:"${member.username}"`)
    }
  })

  test('any sequence of HEAD and GET requests, some at once, some after a write: every GET of a public page has the page', async () => {
    const step = fc.record({ method: fc.constantFrom('GET', 'HEAD'), together: fc.integer({ min: 1, max: 3 }), writeFirst: fc.boolean() })
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PUBLIC_PAGES), fc.array(step, { minLength: 1, maxLength: 6 }), async (path, steps) => {
        // Each run starts from nothing in memory, so a failure shrinks to the requests that caused it.
        await write()
        for (const { method, together, writeFirst } of steps) {
          if (writeFirst) await write()
          const answers = await Promise.all(Array.from({ length: together }, () => fetch(server.url + path, { method })))
          for (const res of answers) {
            expect(res.status).toBe(200)
            const body = await res.text()
            if (method === 'GET') expect(body).toStartWith('<!DOCTYPE html>')
            else expect(body).toBe('')
          }
        }
      }),
      { numRuns: 25, seed: 20261124 },
    )
  }, 60_000)
})

describe('/api straight to its handlers', () => {
  test('every method on /api/trpc answers tRPC JSON, never a page', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${server.url}/api/trpc/health.check`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      })
      expect(res.headers.get('content-type')).toContain('application/json')
      const body = await res.json()
      expect(body.result ?? body.error).toBeDefined()
    }
  })
})

describe('answers reused while the database is unchanged (decision 042)', () => {
  // Another process (this test's, not the server's) changes the database by hand, as an operator
  // with sqlite3 or psql would: the server's reused session check and folder list must see it at
  // the very next request.
  const byHand = (sql: string, params: (string | number)[]) => sqlOn(server, sql, params)

  test('a folder added and a session deleted by another process count at the next request', async () => {
    const member = await createMember(server.url)
    const list = async () => (await api(server.url, 'GET', '/user/folders', { token: member.token })).body.data as Array<{ label: string }>
    expect(await list()).toEqual([])
    expect(await list()).toEqual([])
    await byHand(
      `INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES ('by-hand', ?, 'Added by hand', '/by-hand', 0, 0, 0)`,
      [member.user.id],
    )
    expect((await list()).map((f) => f.label)).toEqual(['Added by hand'])
    await byHand('DELETE FROM sessions WHERE user_id = ?', [member.user.id])
    expect((await api(server.url, 'GET', '/user/folders', { token: member.token })).status).toBe(401)
  })

  test('a reorder answers the new order (read inside its own transaction), and so does the next list', async () => {
    const member = await createMember(server.url)
    const names = ['a', 'b', 'c']
    await byHand(
      `INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES ${names.map(() => '(?, ?, ?, ?, ?, 0, 0)').join(', ')}`,
      names.flatMap((n, i) => [`${n}-${member.user.id}`, member.user.id, n, `/${n}`, i]),
    )
    const listed = await api(server.url, 'GET', '/user/folders', { token: member.token })
    const ids = (listed.body.data as Array<{ id: string; label: string }>).map((f) => f.id)
    const reordered = await api(server.url, 'PUT', '/user/folders/reorder', { token: member.token, body: { folderIds: ids.toReversed() } })
    expect(reordered.body.data.map((f: { label: string }) => f.label)).toEqual(['c', 'b', 'a'])
    const again = await api(server.url, 'GET', '/user/folders', { token: member.token })
    expect(again.body.data.map((f: { label: string }) => f.label)).toEqual(['c', 'b', 'a'])
  })
})
