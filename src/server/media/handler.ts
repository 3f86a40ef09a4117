// GET/HEAD /media/<library path>?exp=&sig=: streams a file of the server library
// to <audio>/<video>, VLC or curl. Signed, expiring URLs (403 otherwise); single byte ranges
// (206 / 416), ETag and Last-Modified with If-None-Match / If-Modified-Since / If-Range; the
// extension → MIME map (unknown gives audio/mpeg). `?cover=1` serves the embedded cover art of the file the same way, only ever
// as image/jpeg, png, gif or webp (typed by its bytes, see covers.ts). `?t=<profile>` streams it
// converted by ffmpeg (transcode.ts), and a complete converted copy is served like a file;
// `&start=<ms>` (signed too) starts that conversion part way in. With MEDIA_OFFLOAD=nginx a file
// or complete converted copy that passed every check is handed to nginx (offload.ts). Every
// answer, errors and 304s included, carries `nosniff` and a CSP that sandboxes it:
// whatever a library file holds, a browser never runs it as a page of our origin.
// Wired in front of the app in serve.ts (fast path) and as the Start route /media/$ (dev).
import type { Stats } from 'node:fs'
import { config } from '../config'
import { logger } from '../logger'
import { readCover } from './covers'
import { createFileLookup } from './file-lookup'
import { resolveInside } from './library-path'
import { mimeFromName } from '~/shared/player/mime'
import { offloadUri } from './offload'
import { mediaPathOf, parseRange } from './request-rules'
import { mediaKindOf, mediaStartOf, verifyMediaSignature, type MediaKind } from './sign'
import { convertedFile } from './transcode'
import { TRANSCODE_PROFILES } from './transcode-profile'

/** On every /media answer: no MIME sniffing, and a document that may load and run nothing. */
export const MEDIA_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
}

const SECURITY_HEADER_PAIRS = Object.entries(MEDIA_SECURITY_HEADERS)

/** A library path's file, its resolved path kept a few seconds and checked on each use (file-lookup.ts). */
const libraryFile = createFileLookup({ resolve: resolveInside, ttlMs: 5000, maxEntries: 1024 })

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } })

// Covers carry '-img' (it was '-c' while covers were served with the tag's type): a browser that
// cached one of those revalidates to a fresh answer instead of a 304 for the old body.
// A converted copy is named by its source and profile (the cache key holds both).
const etagOf = (st: Stats, kind: MediaKind) =>
  `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}${kind === 'cover' ? '-img' : kind === 'file' ? '' : `-${kind}`}"`

function notModified(request: Request, etag: string, mtimeMs: number): boolean {
  const inm = request.headers.get('if-none-match')
  if (inm !== null) return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
  const ims = request.headers.get('if-modified-since')
  if (ims !== null) {
    const since = Date.parse(ims)
    // A date in the future is invalid (RFC 9110 §13.1.3) and is ignored.
    return !Number.isNaN(since) && since <= Date.now() && Math.floor(mtimeMs / 1000) * 1000 <= since
  }
  return false
}

/** If-Range: the range applies only when the validator still matches (else send it all). */
function ifRangeHolds(request: Request, etag: string, mtimeMs: number): boolean {
  const v = request.headers.get('if-range')
  if (v === null) return true
  const t = v.trim()
  if (t.startsWith('"') || t.startsWith('W/')) return t === etag
  const date = Date.parse(t)
  return !Number.isNaN(date) && Math.floor(mtimeMs / 1000) * 1000 === date
}

/**
 * `url` is the request's parsed URL when the caller has it already (serve.ts); `member`, the id of
 * the member asking when the caller knows it (/rest/stream), counts a conversion toward them.
 */
export async function handleMedia(request: Request, url = new URL(request.url), member?: string): Promise<Response> {
  let response: Response
  try {
    response = await answer(request, url, member)
  } catch (error) {
    logger.error({ err: error, method: request.method, path: url.pathname }, 'media request failed')
    response = text(500, 'Internal server error')
  }
  for (const [name, value] of SECURITY_HEADER_PAIRS) response.headers.set(name, value)
  return response
}

async function answer(request: Request, url: URL, member: string | undefined): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed', { allow: 'GET, HEAD' })
  const relPath = mediaPathOf(url.pathname)
  if (!relPath) return text(400, 'Bad media path')
  const kind = mediaKindOf(url.searchParams)
  if (!kind) return text(400, 'Unknown conversion profile')
  const startMs = mediaStartOf(url.searchParams, kind)
  if (startMs === null) return text(400, 'Bad start offset: a whole number of milliseconds, on a conversion only')
  const check = verifyMediaSignature(config.AUTH_SECRET, relPath, kind, url.searchParams.get('exp'), url.searchParams.get('sig'), undefined, startMs)
  if (check !== 'ok') return text(403, check === 'expired' ? 'Media link expired' : 'Media link is not signed')

  const found = libraryFile(relPath)
  if (!found) return text(404, 'Not found')
  const { real, st } = found

  const etag = etagOf(st, kind)
  const headers: Record<string, string> = {
    etag,
    'last-modified': new Date(st.mtimeMs).toUTCString(),
    'cache-control': 'private, max-age=3600',
  }
  let served = { path: real, size: st.size }
  if (kind !== 'file' && kind !== 'cover') {
    const converted = await convertedFile(request, real, st, kind, member, startMs)
    if (converted instanceof Response) return converted
    served = converted
  }
  // A whole file or a complete converted copy may be handed to nginx (covers are read out of the file).
  if (kind !== 'cover') {
    const offloaded = offloadUri(served.path, kind !== 'file')
    if (offloaded) {
      // nginx keeps Content-Type and Cache-Control from this answer and makes the rest (ETag,
      // Last-Modified, ranges, 304s) from the file it sends.
      const type = kind === 'file' ? mimeFromName(relPath) : TRANSCODE_PROFILES[kind].mime
      return new Response(null, { headers: { 'x-accel-redirect': offloaded, 'content-type': type, 'cache-control': headers['cache-control'] } })
    }
  }
  if (notModified(request, etag, st.mtimeMs)) return new Response(null, { status: 304, headers })

  let body: Blob
  if (kind === 'cover') {
    const cover = await readCover(real, st)
    if (!cover) return text(404, 'No cover art')
    body = new Blob([cover.data as Uint8Array<ArrayBuffer>], { type: cover.mime })
    headers['content-type'] = cover.mime
  } else {
    body = Bun.file(served.path)
    headers['content-type'] = kind === 'file' ? mimeFromName(relPath) : TRANSCODE_PROFILES[kind].mime
    headers['accept-ranges'] = 'bytes'
  }
  const size = kind === 'cover' ? body.size : served.size

  const range = kind !== 'cover' && ifRangeHolds(request, etag, st.mtimeMs) ? parseRange(request.headers.get('range'), size) : null
  if (range === 'unsatisfiable') return text(416, 'Range not satisfiable', { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' })
  let status = 200
  if (range) {
    status = 206
    body = body.slice(range.start, range.end + 1)
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
  }
  headers['content-length'] = String(range ? range.end - range.start + 1 : size)
  return new Response(request.method === 'HEAD' ? null : body, { status, headers })
}
