// What the service worker (service-worker.ts) does with each request, as pure rules the unit tests
// check without a browser (tests/unit/sw.rules.test.ts).
//
// Threat model: on a shared device a cached answer must never show one member's data to another,
// or a stale copy of it to anyone. So the worker keeps only the app shell (the build's hashed
// JS/CSS, the offline page, the manifest and icons: the same bytes for everyone) and never touches
// the API (/api, /trpc, /rest), /metrics or a page: pages are rendered per visitor and carry
// `private, no-store`. The one exception is the signed-in member's own downloads: media files
// stored on this device at their request, deleted when they sign out, served only for /media
// paths (docs/decisions/082-installable-app.md). The one page kept, the downloads page, is
// fetched without credentials: the anonymous render, the same for everyone, with no member data.

/** Cache of the app shell; the build's version is appended, so a new build starts a new cache. */
export const SHELL_CACHE_PREFIX = 'vibes-shell-'
/** Cache of the signed-in member's downloaded media files, keyed by downloadKey. */
export const DOWNLOADS_CACHE = 'vibes-downloads'
export const OFFLINE_PAGE = '/offline.html'
/**
 * The page that plays downloads: with no network and downloads on the device, a page load gets
 * it instead of the offline page. Stored as its anonymous render; it lists the downloads from
 * this device's own storage once it runs.
 */
export const DOWNLOADS_PAGE = '/downloads'
/** Shell files besides the build's assets. */
export const SHELL_EXTRAS = [
  OFFLINE_PAGE,
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/icon-maskable-512.png',
]

/** Never answered by the worker, never cached: the browser goes to the network as if there were no worker. */
const NETWORK_ONLY = ['/api', '/trpc', '/rest', '/metrics']

export type RequestKind = 'network' | 'page' | 'asset' | 'media'

const under = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(prefix + '/')

/** How the worker answers a request: `origin` is the app's own origin. */
export function requestKind(request: { method: string; mode: string; url: string }, origin: string): RequestKind {
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== origin) return 'network'
  if (NETWORK_ONLY.some((prefix) => under(url.pathname, prefix))) return 'network'
  if (request.mode === 'navigate') return 'page'
  if (under(url.pathname, '/assets') || SHELL_EXTRAS.includes(url.pathname)) return 'asset'
  if (under(url.pathname, '/media')) return 'media'
  return 'network'
}

export type OfflineAnswer = 'downloads-page' | 'to-downloads-page' | 'offline-page'

/**
 * What a page load that could not reach the network gets: with downloads on this device, the
 * downloads page (any other address is sent there, so the page the browser shows matches its
 * address), else the static offline page.
 */
export function offlineAnswer(url: string, hasDownloads: boolean): OfflineAnswer {
  if (!hasDownloads) return 'offline-page'
  return new URL(url).pathname === DOWNLOADS_PAGE ? 'downloads-page' : 'to-downloads-page'
}

/** What makes a signed link a link, not a part of what it serves. */
const SIGNATURE_PARAMS = ['exp', 'sig']

/**
 * The key a downloaded media file is stored under: its path and what it asks of the file (an
 * embedded cover is the same path with `cover=1`, a transcoded copy has `t=`), without the
 * signature and expiry, so any later link to the same thing finds it.
 */
export function downloadKey(url: string, base: string): string {
  const parsed = new URL(url, base)
  for (const name of SIGNATURE_PARAMS) parsed.searchParams.delete(name)
  parsed.searchParams.sort()
  return parsed.pathname + parsed.search
}

export type ByteRange = { start: number; end: number }

/**
 * The one byte range a `Range` header asks of a file of `size` bytes (end inclusive), null when
 * there is no header or it is not a single bytes range (the whole file is sent), or 'unsatisfiable'.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return null
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

/** A stored file as the answer to `rangeHeader`: 200 with all of it, 206 with the range, or 416. */
export function answerFromBlob(blob: Blob, contentType: string, rangeHeader: string | null): Response {
  const range = parseRange(rangeHeader, blob.size)
  const common = { 'content-type': contentType, 'accept-ranges': 'bytes', 'cache-control': 'private, no-store' }
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...common, 'content-range': `bytes */${blob.size}` } })
  if (!range) return new Response(blob, { status: 200, headers: { ...common, 'content-length': String(blob.size) } })
  const part = blob.slice(range.start, range.end + 1)
  return new Response(part, {
    status: 206,
    headers: { ...common, 'content-length': String(part.size), 'content-range': `bytes ${range.start}-${range.end}/${blob.size}` },
  })
}
