// The installable app's files from the built server over real HTTP: the manifest (its content type,
// what it says, icons that exist as PNGs of the sizes it claims), the service worker at the root
// (a script, checked for a new build on every load, with the app shell it stores and no API path
// in it), the offline page (static HTML under a policy that runs no script), and the downloads page
// the worker keeps for a start with no network (a plain page for an anonymous visitor, naming no
// member). Every page links the manifest.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createMember } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.stop())

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers })

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): string {
  expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10])
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  return `${view.getUint32(16)}x${view.getUint32(20)}`
}

describe('the web app manifest', () => {
  test('served as application/manifest+json, naming the app, its colours and icons that load', async () => {
    const res = await get('/manifest.webmanifest')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/manifest+json')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const manifest = await res.json()
    expect(manifest).toMatchObject({ name: 'Vibes', short_name: 'Vibes', start_url: '/', scope: '/', display: 'standalone' })
    expect(manifest.theme_color).toBe('#0b0b12')
    expect(manifest.background_color).toBe('#0b0b12')
    const icons = manifest.icons as Array<{ src: string; sizes: string; type: string; purpose: string }>
    expect(icons.some((i) => i.sizes === '192x192' && i.purpose === 'any')).toBe(true)
    expect(icons.some((i) => i.sizes === '512x512' && i.purpose === 'any')).toBe(true)
    expect(icons.some((i) => i.sizes === '512x512' && i.purpose === 'maskable')).toBe(true)
    for (const icon of icons) {
      const file = await get(icon.src)
      expect({ src: icon.src, status: file.status, type: file.headers.get('content-type') }).toEqual({ src: icon.src, status: 200, type: 'image/png' })
      expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toBe(icon.sizes)
    }
  })

  test('every page links it, signed out and as a member', async () => {
    const m = await createMember(server.url)
    for (const [path, headers] of [
      ['/', {}],
      ['/login', {}],
      ['/about', {}],
      ['/library', { authorization: `Bearer ${m.token}` }],
    ] as const) {
      const html = await (await get(path, headers)).text()
      expect({ path, linked: html.includes('<link rel="manifest" href="/manifest.webmanifest"') }).toEqual({ path, linked: true })
    }
  })
})

describe('the service worker', () => {
  test('at /sw.js: a script revalidated on every load, reaching only our origin, storing the shell and never naming the API as something to store', async () => {
    const res = await get('/sw.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/javascript')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('content-security-policy')).toBe("default-src 'self'")
    const script = await res.text()
    // The build's assets are listed for the shell, and each of them exists.
    const assets = [...new Set(script.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? [])]
    expect(assets.length).toBeGreaterThan(10)
    for (const asset of assets.slice(0, 5)) expect((await get(asset)).status).toBe(200)
    expect(script).toContain('/offline.html')
    expect(script).not.toContain('"/api/')
  })

  test('the offline page: static HTML, no script allowed, not framed', async () => {
    const res = await get('/offline.html')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/html')
    const policy = res.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toContain('script-src')
    const html = await res.text()
    expect(html).toContain("You're offline")
    expect(html).not.toContain('<script')
  })

  test('the downloads page the worker keeps: for a visitor with no credentials a 200 HTML page, no redirect, naming no member', async () => {
    const m = await createMember(server.url)
    const script = await (await get('/sw.js')).text()
    expect(script).toContain('"/downloads"')
    const res = await fetch(`${server.url}/downloads`, { redirect: 'manual' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/html')
    expect(res.headers.get('vary')).not.toBe('*')
    const html = await res.text()
    expect(html).toContain('Downloads')
    expect(html).not.toContain(m.user.email)
    expect(html).not.toContain(m.user.id)
  })

  test('pages keep their own policy, which allows this worker and manifest from our origin only', async () => {
    const policy = (await get('/')).headers.get('content-security-policy') ?? ''
    expect(policy).toContain("worker-src 'self'")
    expect(policy).toContain("manifest-src 'self'")
  })
})

test("the first page's scripts hold the worker's registration but not the downloads code (loaded apart, after hydration)", async () => {
  const html = await (await get('/')).text()
  const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])
  expect(scripts.length).toBeGreaterThan(0)
  const code = (await Promise.all([...new Set(scripts)].map(async (src) => (await get(src)).text()))).join('\n')
  expect(code).toContain('/sw.js')
  expect(code).not.toContain('vibes:user:downloads')
  expect(code).not.toContain('Download for offline')
})
