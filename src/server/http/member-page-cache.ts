// Members' pages from memory (decision 034). On the pages listed here a
// member's page differs from another member's of the same role only by who they are: the session
// user in the SSR payload (the root route's sessionUser, the dehydrated auth.status query) and in
// the account menu (name, initial); their folders, queue and keys load in the browser. So a page
// is rendered once per role as a stand-in user whose fields are random markers (stand-in.ts), cut
// at every marker (and at the placeholder nonce), and each answer joins the parts with the asking
// member's own values and a fresh nonce: byte for byte that member's own render, apart from the
// render's timestamps.
//
// Never another member's data: the template is rendered as nobody real, and it is kept only when
// no marker is left in it outside the cuts. Members whose fields would need escaping anywhere
// (anything but letters, digits, @ . _ + -) are rendered per request, as are pages that redirect,
// fail or set a cookie, and a hard reload (Cache-Control: no-cache). Freshness as for public
// pages (page-cache.ts): TTL and every API write made through any node (page-version.ts).
import { type AuthUser, authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { requestToken } from './request-token'
import { displayName } from '~/shared/display-name'
import type { RenderPage } from './page-cache'
import { pageVersion } from './page-version'
import { createNonce } from './security-headers'
import { setStandIn } from './stand-in'

/** Members' pages whose server render reads nothing of the member but the session user. */
export const MEMBER_PAGES: ReadonlySet<string> = new Set(['/folders', '/player', '/profile'])

const TTL_MS = 10_000
const VERBATIM = /^[A-Za-z0-9@._+-]+$/

/** What a page shows of its user, each as the page writes it (all verbatim: see VERBATIM). */
type Shown = { nonce: string; id: string; username: string; email: string; name: string; initial: string; createdAt: string }
type Slot = keyof Shown

function shownOf(user: AuthUser, nonce: string): Shown {
  const name = displayName(user.email)
  return {
    nonce,
    id: user.id,
    username: user.username,
    email: user.email,
    name,
    initial: `data-initial="${name.charAt(0) || '?'}"`,
    createdAt: user.createdAt.toISOString(),
  }
}

type Template = { status: number; parts: string[]; slots: Slot[]; headers: Array<[string, string[], Slot[]]>; renderedAt: number; version: string }

const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex')
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A user nobody is: every field a fresh marker; the e-mail starts with ☃ so the menu's initial is one too. */
function standInUser(isAdmin: boolean): AuthUser {
  return {
    id: `id${hex()}`,
    username: `un${hex()}`,
    email: `\u2603${hex()}@${hex()}.invalid`,
    isAdmin,
    createdAt: new Date(-Math.floor(Math.random() * 1e12)),
    sessionId: `sid${hex()}`,
  }
}

/** Cuts `text` at every marker of `shown` (the e-mail's ☃ also as a script would escape it). */
function cutter(shown: Shown) {
  const bySource = new Map<string, Slot>()
  for (const slot of ['email', 'name', 'initial', 'nonce', 'id', 'username', 'createdAt'] as const) {
    bySource.set(escapeRegExp(shown[slot]), slot)
    if (shown[slot].includes('\u2603')) bySource.set(escapeRegExp(shown[slot].replace('\u2603', '\\u2603')), slot)
  }
  const sources = [...bySource.keys()]
  const pattern = new RegExp(sources.map((s) => `(${s})`).join('|'), 'g')
  return (text: string): { parts: string[]; slots: Slot[] } => {
    const parts: string[] = []
    const slots: Slot[] = []
    let last = 0
    for (const m of text.matchAll(pattern)) {
      parts.push(text.slice(last, m.index))
      slots.push(bySource.get(sources[m.slice(1).findIndex((g) => g !== undefined)]) as Slot)
      last = m.index + m[0].length
    }
    parts.push(text.slice(last))
    return { parts, slots }
  }
}

function join(parts: string[], slots: Slot[], shown: Shown): string {
  let out = parts[0]
  for (let i = 0; i < slots.length; i++) out += shown[slots[i]] + parts[i + 1]
  return out
}

type Refusal = { refused: true; renderedAt: number; version: string }

export function createMemberPageCache(render: RenderPage, now = () => Date.now()) {
  // A page that cannot be a template is not tried again until its entry would have expired.
  const templates = new Map<string, Template | Refusal>()

  /** Renders the page as a stand-in of the role; a template, or null when it cannot be one. */
  /** `version` was read before the render began, so a write since makes what it keeps stale. */
  async function fill(request: Request, url: URL, key: string, isAdmin: boolean, version: string): Promise<Template | null> {
    const standIn = standInUser(isAdmin)
    const headers = new Headers(request.headers)
    headers.delete('authorization')
    headers.delete('cookie')
    // A GET whatever the asking method: a HEAD render has no body to make a template of.
    const asStandIn = new Request(url, { headers })
    setStandIn(asStandIn, standIn)
    const placeholder = createNonce()
    const response = await render(asStandIn, placeholder)
    const refuse = () => {
      templates.set(key, { refused: true, renderedAt: now(), version })
      return null
    }
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html') || response.headers.has('set-cookie')) return refuse()
    const shown = shownOf(standIn, placeholder)
    const cut = cutter(shown)
    const template: Template = { status: response.status, ...cut(await response.text()), headers: [], renderedAt: now(), version }
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'date') {
        const { parts, slots } = cut(value)
        template.headers.push([name, parts, slots])
      }
    })
    const rest = [...template.parts, ...template.headers.flatMap(([name, parts]) => [name, ...parts])].join('\n')
    const markers = [
      standIn.id,
      standIn.sessionId,
      standIn.username,
      standIn.email.slice(1, 17),
      standIn.email.split('@')[1],
      shown.createdAt,
      '\u2603',
      placeholder,
    ]
    if (markers.some((marker) => rest.includes(marker))) return refuse()
    templates.set(key, template)
    return template
  }

  function answer(template: Template, user: AuthUser, method: string): Response {
    const shown = shownOf(user, createNonce())
    const headers = new Headers()
    for (const [name, parts, slots] of template.headers) headers.set(name, join(parts, slots, shown))
    return new Response(method === 'HEAD' ? null : join(template.parts, template.slots, shown), { status: template.status, headers })
  }

  return {
    /** The member's page from a template (made now if needed), or null when it must render. */
    async fetch(request: Request, url: URL): Promise<Response | null> {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || url.search !== '' || !MEMBER_PAGES.has(url.pathname)) return null
      // A hard reload asks for a fresh render.
      if (request.headers.get('cache-control')?.includes('no-cache')) return null
      const token = requestToken(request)
      if (!token) return null
      const db = getDb()
      // On PostgreSQL two round trips at once: the session and the pages' version.
      const [user, version] = await Promise.all([authenticate(db, token, config.AUTH_SECRET), pageVersion(db)])
      if (!user || !VERBATIM.test(user.id) || !VERBATIM.test(user.username) || !VERBATIM.test(user.email)) return null
      const key = `${url.pathname} ${user.isAdmin ? 'admin' : 'member'}`
      const hit = templates.get(key)
      const fresh = hit && hit.version === version && now() - hit.renderedAt < TTL_MS
      const template = fresh ? hit : await fill(request, url, key, user.isAdmin, version)
      return template && !('refused' in template) ? answer(template, user, request.method) : null
    },
  }
}
