// The headers every answer of the production server carries (serve.ts applies them), and the
// Content-Security-Policy of HTML pages. Decision record 014 says why each directive is what it is.
//
// Threat model: a script that gets into a page (an injected tag, a hostile file served from our
// origin) must not run, and our pages must not be framed or used to reach the camera and friends.
// SSR pages carry inline scripts (TanStack's hydration data and stream boundaries), so scripts are
// allowed by a nonce made fresh for each page request: fetchPage makes it, hands it to the app in
// CSP_NONCE_HEADER (replacing any copy a client sent; src/router.tsx gives it to the router, which
// puts it on every <script>, stylesheet and preload link it renders and in a csp-nonce meta tag
// for Vite's chunk preloader) and names it in the header. 'strict-dynamic' lets those scripts
// load the app's chunks and nothing else; 'self' is only the fallback of browsers without CSP 3.
//
// The rest follows what the app does: Ark UI and the pages render style="" attributes (hence
// style-src-attr 'unsafe-inline'; <style> elements still need the nonce), chart artwork comes from
// the feed's hosts, members stream tracks straight from remote http(s) folders into <audio>/<video>
// and see those folders' cover images (media-src and img-src http: https: — a NAS on the LAN is
// usually plain http; an image runs no script), local files play and show covers through blob: URLs. No 'unsafe-eval' anywhere.
// `/media` answers set their own sandboxing policy first; a policy already present is kept.

/** Request header that carries this request's nonce from serve.ts to the SSR renderer. */
export const CSP_NONCE_HEADER = 'x-vibes-csp-nonce'

/** 128 random bits, base64: a fresh nonce per request (CSP 3 asks for at least 128 bits). */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')
}

/** The nonce serve.ts attached to this request, or undefined (dev server, tests of the app alone). */
export function requestNonce(request: Request): string | undefined {
  return request.headers.get(CSP_NONCE_HEADER) ?? undefined
}

export type SecurityHeaderOptions = {
  /** config.APP_URL: https turns on Strict-Transport-Security. */
  appUrl: string
}

/** The policy of one HTML answer. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' blob: http: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** The installable app's service worker: served from the root so its scope is the whole app. */
export const SERVICE_WORKER_PATH = '/sw.js'
/** The worker's own policy (a worker's comes from its script's answer, not the page's): it only
 *  ever fetches from our origin, so nothing else is allowed, should a script ever get into it. */
export const SERVICE_WORKER_POLICY = "default-src 'self'"

/** The policy of a static HTML file of the client build (the offline page): its own inline
 *  styles and same-origin images, no script of any kind, no framing. */
export const STATIC_PAGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Powerful features the app never uses are denied to every frame; the player's fullscreen,
 *  autoplay and picture-in-picture stay available to our own pages. Only features Chromium knows:
 *  an unknown name is a console warning on every page. */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'display-capture=()',
  'screen-wake-lock=()',
  'idle-detection=()',
  'fullscreen=(self)',
  'autoplay=(self)',
  'picture-in-picture=(self)',
].join(', ')

/** One year, this host only: subdomains of an operator's domain may not all speak https. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000'

/** Sent with every answer: no MIME sniffing, no framing by other sites, no referrer leaks. */
const BASE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
}

/** The headers withSecurityHeaders adds; a hot handler may build its answers with them already. */
export function headersOfEveryAnswer(options: SecurityHeaderOptions): Record<string, string> {
  const always: Record<string, string> = { ...BASE_HEADERS }
  if (new URL(options.appUrl).protocol === 'https:') always['strict-transport-security'] = STRICT_TRANSPORT_SECURITY
  return always
}

type App = { fetch: (request: Request) => Response | Promise<Response> }

/**
 * serve.ts's two steps. `fetchPage` hands a page request to the SSR app with a fresh nonce (or the
 * given one: page-cache.ts renders with a placeholder it swaps per answer) and puts the matching
 * policy on an HTML answer; `withSecurityHeaders` adds the headers every answer carries.
 * Headers are set in place (a copy of every answer cost 5 % of a cheap endpoint's throughput);
 * only a response with immutable headers (Response.redirect, fetch results) is copied. Neither
 * replaces a header a handler set itself.
 */
export function securityHeaders(options: SecurityHeaderOptions) {
  const always = headersOfEveryAnswer(options)

  async function fetchPage(app: App, request: Request, nonce = createNonce()): Promise<Response> {
    // Bun's incoming request headers are mutable; set() replaces any copy the client sent.
    request.headers.set(CSP_NONCE_HEADER, nonce)
    const response = await app.fetch(request)
    if (!response.headers.get('content-type')?.startsWith('text/html')) return response
    return addMissing(response, [
      ['content-security-policy', contentSecurityPolicy(nonce)],
      ['permissions-policy', PERMISSIONS_POLICY],
    ])
  }

  // As pairs once, not Object.entries on every answer.
  const alwaysPairs = Object.entries(always)
  function withSecurityHeaders(response: Response): Response {
    return addMissing(response, alwaysPairs)
  }

  return { fetchPage, withSecurityHeaders }
}

/** For a page rendered for this request: it may show who is signed in (name, e-mail), so no
 *  shared cache (a proxy, a CDN) may keep it, nor the browser's disk. */
const PRIVATE_PAGE: Array<[string, string]> = [['cache-control', 'private, no-store']]
export const privatePage = (response: Response) => addMissing(response, PRIVATE_PAGE)

function addMissing(response: Response, add: Array<[string, string]>): Response {
  try {
    setMissing(response.headers, add)
    return response
  } catch {
    const copy = new Response(response.body, response)
    setMissing(copy.headers, add)
    return copy
  }
}

function setMissing(headers: Headers, add: Array<[string, string]>) {
  for (const [name, value] of add) if (!headers.has(name)) headers.set(name, value)
}
