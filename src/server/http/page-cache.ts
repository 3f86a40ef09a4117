// Public pages as an anonymous visitor sees them, rendered once and then served from memory
// (decision 028). A page qualifies only when nothing in the request can change
// it: GET/HEAD of a listed public path, no query string, no Cookie and no Authorization header
// (so no session and no unknown cookie a future page might read). Members' pages, redirects and
// anything that sets a cookie are rendered per request as before.
//
// The CSP nonce: a cached page must not repeat one nonce to every visitor, and the policy must
// keep out 'unsafe-inline'. So a page is rendered with a random placeholder nonce, stored split
// at every occurrence (body and headers), and each answer joins the parts with a fresh nonce:
// byte for byte what a fresh render with that nonce gives, apart from the render's timestamps.
//
// A HEAD request may be the one that fills an entry: the page is still rendered as a GET, and only
// this answer goes without the body.
//
// Freshness: an entry lives TTL_MS, and every API write (any method but GET/HEAD; tRPC takes
// mutations only by POST) made through any node makes all entries stale (page-version.ts), since
// what public pages show (promotions, the signed-out shell) changes only through the API.
// Concurrent misses share one render.
import { getDb } from '../db'
import { pageVersion } from './page-version'
import { createNonce } from './security-headers'

/** The pages every anonymous visitor gets the same copy of (src/routes). */
export const PUBLIC_PAGES: ReadonlySet<string> = new Set(['/', '/about', '/charts', '/contact', '/login', '/register', '/forgot-password'])

const TTL_MS = 10_000

type Entry = { status: number; parts: string[]; headers: Array<[string, string[]]>; renderedAt: number; version: string }

/** Renders a page for this request with this CSP nonce (security-headers.ts fetchPage). */
export type RenderPage = (request: Request, nonce: string) => Promise<Response>

export function createPageCache(render: RenderPage, now = () => Date.now()) {
  const entries = new Map<string, Entry>()
  const pending = new Map<string, Promise<Entry | Response>>()

  function cacheable(request: Request, url: URL): boolean {
    return (
      (request.method === 'GET' || request.method === 'HEAD') &&
      url.search === '' &&
      PUBLIC_PAGES.has(url.pathname) &&
      !request.headers.has('cookie') &&
      !request.headers.has('authorization')
    )
  }

  /** Renders the page; `version` was read before the render began, so a write since makes the entry stale. */
  async function fill(request: Request, key: string, version: string): Promise<Entry | Response> {
    const placeholder = createNonce()
    // Rendered as a GET whatever the method: a HEAD render has no body, and the entry serves GETs too.
    const response = await render(request.method === 'GET' ? request : new Request(request.url, { headers: request.headers }), placeholder)
    // Not a plain page (a redirect, an error, a cookie): this visitor gets it as rendered.
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html') || response.headers.has('set-cookie')) return response
    const headers: Array<[string, string[]]> = []
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'date') headers.push([name, value.split(placeholder)])
    })
    const entry = { status: response.status, parts: (await response.text()).split(placeholder), headers, renderedAt: now(), version }
    entries.set(key, entry)
    return entry
  }

  function answer(entry: Entry, method: string): Response {
    const nonce = createNonce()
    const headers = new Headers()
    for (const [name, parts] of entry.headers) headers.set(name, parts.join(nonce))
    return new Response(method === 'HEAD' ? null : entry.parts.join(nonce), { status: entry.status, headers })
  }

  return {
    /** The page from memory (rendered now if needed), or null when this request must render. */
    async fetch(request: Request, url: URL): Promise<Response | null> {
      if (!cacheable(request, url)) return null
      const key = url.pathname
      const version = await pageVersion(getDb())
      const hit = entries.get(key)
      if (hit && hit.version === version && now() - hit.renderedAt < TTL_MS) return answer(hit, request.method)
      let filling = pending.get(key)
      if (!filling) {
        filling = fill(request, key, version).finally(() => pending.delete(key))
        pending.set(key, filling)
        const result = await filling
        if (!(result instanceof Response)) return answer(result, request.method)
        return request.method === 'HEAD' ? new Response(null, result) : result
      }
      // Another request is rendering this page: share its render unless it was not cacheable.
      const shared = await filling
      return shared instanceof Response ? null : answer(shared, request.method)
    },
  }
}
