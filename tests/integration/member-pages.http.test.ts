// Members' pages from a template (decision 034), over real HTTP against the built
// server: a member's page made from another member's render is byte for byte that member's own
// render (apart from nonce and render times), carries only the asking member's data, and members
// and admins never share a template.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer(adminEnv)
})
afterAll(async () => {
  await server.stop()
})

const MEMBER_PAGES = ['/folders', '/player', '/profile']

type Page = { html: string; nonce: string }

async function get(path: string, token: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}`, ...headers } })
  expect(res.status).toBe(200)
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? ''
  return { html: await res.text(), nonce }
}

/** A hard reload: the member's own render, never a template. */
const fresh = (path: string, token: string) => get(path, token, { 'cache-control': 'no-cache' })

/** The page with its nonce and its render's timestamps (router match and query times) masked. */
const normalised = (page: Page) => page.html.replaceAll(page.nonce, 'NONCE').replace(/\b\d{13}\b/g, 'TIME')
/** When the render this answer came from ran: the dehydrated auth query's time. */
const renderedAt = (page: Page) => /dataUpdatedAt:(\d{13})/.exec(page.html)?.[1]

/** Any API write: every page template is made afresh on the next request. */
const write = () =>
  api(server.url, 'POST', '/contact', { body: { fullName: 'Page Test', email: 'page@example.com', message: 'Drop the page templates, please.' } })

describe("members' pages from a template", () => {
  test("each member's page equals their own render and holds only their data", async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    // A's folder: something of A's that no other member's page may show.
    await api(server.url, 'POST', '/user/folders', { token: a.token, body: { label: 'Secret folder of A', path: '/' } })
    for (const path of MEMBER_PAGES) {
      await write()
      const aCached = await get(path, a.token)
      const bCached = await get(path, b.token)
      const aFresh = await fresh(path, a.token)
      const bFresh = await fresh(path, b.token)

      // One render served both, yet each equals that member's own render.
      expect(renderedAt(bCached)).toBe(renderedAt(aCached))
      expect(renderedAt(aFresh)).not.toBe(renderedAt(aCached))
      expect(normalised(aCached)).toBe(normalised(aFresh))
      expect(normalised(bCached)).toBe(normalised(bFresh))

      for (const [page, own, other] of [
        [aCached, a, b],
        [bCached, b, a],
      ] as const) {
        expect(page.html).toContain(`username:"${own.username}"`)
        expect(page.html).toContain(`Account menu for U${own.email.slice(1, own.email.indexOf('@'))}`)
        for (const value of [other.user.id, other.username, other.email, 'Secret folder of A'])
          expect(page.html.toLowerCase()).not.toContain(value.toLowerCase())
        expect([...page.html.matchAll(/nonce="([^"]+)"/g)].every((m) => m[1] === page.nonce)).toBe(true)
      }
      expect(new Set([aCached.nonce, bCached.nonce, aFresh.nonce, bFresh.nonce]).size).toBe(4)
    }
  })

  test("an admin's page is an admin's render, never a member's template", async () => {
    const adminToken = await loginAdmin(server.url)
    const member = await createMember(server.url)
    for (const path of MEMBER_PAGES) {
      await write()
      const memberPage = await get(path, member.token)
      const adminCached = await get(path, adminToken)
      const adminFresh = await fresh(path, adminToken)
      expect(renderedAt(adminCached)).not.toBe(renderedAt(memberPage))
      expect(normalised(adminCached)).toBe(normalised(adminFresh))
      expect(adminCached.html).toContain('isAdmin:!0')
      for (const value of [member.user.id, member.username, member.email]) expect(adminCached.html.toLowerCase()).not.toContain(value.toLowerCase())
      // And the member, after the admin: still the members' template, with the member's data.
      const memberAgain = await get(path, member.token)
      expect(renderedAt(memberAgain)).toBe(renderedAt(memberPage))
      expect(memberAgain.html).toContain(`username:"${member.username}"`)
      expect(memberAgain.html).not.toContain('isAdmin:!0')
    }
  })

  test('a username change shows on the next page from the template, the old name nowhere', async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    const before = await get('/profile', b.token)
    const renamed = `${a.username}.new`
    const change = await api(server.url, 'PATCH', '/user/profile/username', { token: a.token, body: { username: renamed, currentPassword: a.password } })
    expect(change.status).toBe(200)
    const aCached = await get('/profile', a.token)
    const bCached = await get('/profile', b.token)
    // The change was a write: a new template, which both members' pages now come from.
    expect(renderedAt(aCached)).not.toBe(renderedAt(before))
    expect(renderedAt(bCached)).toBe(renderedAt(aCached))
    expect(normalised(aCached)).toBe(normalised(await fresh('/profile', a.token)))
    expect(aCached.html).toContain(`username:"${renamed}"`)
    expect(aCached.html).not.toContain(`username:"${a.username}"`)
  })

  test('a client cannot make a request render as a stand-in user', async () => {
    const forged = Buffer.from(
      JSON.stringify({ id: 'x', username: 'forged', email: 'forged@example.com', isAdmin: true, createdAt: 0, sessionId: 'x' }),
    ).toString('base64url')
    for (const value of [`anykey ${forged}`, ` ${forged}`, forged]) {
      const session = await api(server.url, 'GET', '/health/auth', { headers: { 'x-vibes-stand-in': value } })
      expect(session.body.data.authenticated).toBe(false)
      const res = await fetch(`${server.url}/folders`, { headers: { 'x-vibes-stand-in': value, 'cache-control': 'no-cache' } })
      expect(await res.text()).not.toContain('forged')
    }
  })
})
