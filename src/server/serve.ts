// The production HTTP front shared by `bun run start` (files on disk) and the single binary
// (files embedded): in front of the API transports, OpenSubsonic, the media files and the built
// TanStack Start app (pages only). It serves the client build's files itself, logs every request
// as JSON and records its metrics. Request bodies are limited here, for every route
// (http/body-limit.ts). The start-up (start-up.ts) builds it from the server's parts and listens;
// what it answers with comes in as those parts, so this module imports no API layer.
import { statSync } from 'node:fs'
import { config } from './config'
import { closeDb, getDb } from './db'
import type { Answer, ApiFront } from './http/api'
import { MAX_BODY_BYTES, withLimitedBody } from './http/body-limit'
import { CLIENT_IP_HEADER, type PeerSource } from './http/client-info'
import { recordRequest } from './http/metrics'
import { createMemberPageCache } from './http/member-page-cache'
import { createPageCache } from './http/page-cache'
import { pagesChanged } from './http/page-version'
import type { RequestMetrics } from './http/prometheus'
import { redactPath } from './http/redact'
import { privatePage, SERVICE_WORKER_PATH, SERVICE_WORKER_POLICY, securityHeaders, STATIC_PAGE_POLICY } from './http/security-headers'
import { logger, logRequest } from './logger'
import { handleMedia } from './media/handler'

const { fetchPage, withSecurityHeaders } = securityHeaders({ appUrl: config.APP_URL })

export type StartApp = { fetch: (request: Request) => Response | Promise<Response> }
/** The client-build file for a URL path, or null. */
export type StaticLookup = (pathname: string) => Blob | null

type Handler = (request: Request, url: URL) => Answer

/** What the front answers with: the start-up's parts (start-up.ts). */
export type FrontParts = {
  /** The page bundle (loaded after listening: a page asked for sooner waits for it). */
  pages: StartApp
  findStatic: StaticLookup
  /** /api: tRPC, then the REST table. */
  api: ApiFront
  /** /rest: OpenSubsonic (it limits its form POST bodies itself, answering in its own format). */
  subsonic: (request: Request) => Answer
  /** The one /api path that takes a picture upload: it applies its own body limit (2 MB). */
  avatarUpload: { path: string; handle: (request: Request) => Answer }
  /** Podcast episodes' audio and channels' artwork, bytes rather than JSON: the paths it owns, under `under`. */
  podcastAudio: { under: string; owns: (pathname: string) => boolean; handle: Handler }
  /** The web player's internet radio streams (/api/radio/stream/<id>): long answers, no body limit. */
  radioStream: { path: string; handle: (request: Request, url: URL) => Answer }
  metrics: RequestMetrics
  /** /auth: sign-in at an outside provider (rest/sign-in.ts). */
  signIn: { path: string; handle: Handler }
  /** With AUTH_PROXY_HEADER: who a trusted proxy says is calling (rest/proxy-auth.ts); it removes that header first. */
  proxyAuth?: (request: Request, socketAddress: () => string) => Promise<string[]> | null
}

/** Answers one request: `peers` (the listening server) tells the caller's address; without it, loopback. */
export type Front = (request: Request, peers?: PeerSource) => Answer

/** `pathname` is `prefix` or lies below it. */
const under = (pathname: string, prefix: string) => pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === '/')

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return true
  } catch {
    return false
  }
}

/**
 * Caching and policy of a client-build file. Hashed /assets/ never change. The service worker is
 * checked for a new build on every page load (no-cache), as browsers expect of /sw.js, and may
 * reach only our own origin. An HTML
 * file of the build (the offline page) is static: it gets a policy that runs no script at all.
 */
function staticFileHeaders(pathname: string, type: string): Record<string, string> {
  if (pathname.startsWith('/assets/')) return { 'cache-control': 'public, max-age=31536000, immutable' }
  if (pathname === SERVICE_WORKER_PATH) return { 'cache-control': 'no-cache', 'content-security-policy': SERVICE_WORKER_POLICY }
  if (type.startsWith('text/html')) return { 'cache-control': 'public, max-age=3600', 'content-security-policy': STATIC_PAGE_POLICY }
  return { 'cache-control': 'public, max-age=3600' }
}

export function createFront({ pages: app, findStatic, api, subsonic, avatarUpload, podcastAudio, radioStream, metrics, signIn, proxyAuth }: FrontParts): Front {
  const render = (request: Request, nonce: string) => fetchPage(app, request, nonce)
  const pages = createPageCache(render)
  const memberPages = createMemberPageCache(render)
  // Only the anonymous copies from memory are everyone's; any other page is this visitor's own.
  const page: Handler = async (request, url) =>
    (await pages.fetch(request, url)) ?? privatePage((await memberPages.fetch(request, url)) ?? (await fetchPage(app, request)))

  function apiRequest(request: Request, url: URL): Answer {
    // A path that does not decode never reaches a handler; API clients still get the envelope.
    if (url.pathname.includes('%') && !decodes(url.pathname)) return Response.json({ success: false, error: 'Malformed URL' }, { status: 400 })
    return withLimitedBody(request, (limited) => (limited.method === 'GET' || limited.method === 'HEAD' ? api.handle(limited, url) : write(limited, url)))
  }

  /** An API write: once answered, the cached pages of every node are stale (http/page-version.ts). */
  function write(request: Request, url: URL): Answer {
    let answer: Answer
    try {
      answer = api.handle(request, url)
    } catch (error) {
      void pagesChanged(getDb())
      throw error
    }
    if (answer instanceof Promise) return answer.finally(() => pagesChanged(getDb()))
    const changed = pagesChanged(getDb())
    return changed ? changed.then(() => answer) : answer
  }

  /**
   * The front, read top to bottom, first match wins: these go straight to their handlers, never
   * through the page pipeline (decision 028). Anything else is a client-build file or a page.
   */
  const ROUTES: Array<{ under: string; handle: Handler }> = [
    // Media bytes (fast path); the Start route /media/$ serves them in dev.
    { under: '/media', handle: handleMedia },
    // A picture upload, with its own 2 MB body limit (every other /api body: 1 MB).
    { under: avatarUpload.path, handle: avatarUpload.handle },
    { under: podcastAudio.under, handle: (request, url) => (podcastAudio.owns(url.pathname) ? podcastAudio.handle(request, url) : apiRequest(request, url)) },
    { under: radioStream.path, handle: radioStream.handle },
    { under: '/api', handle: apiRequest },
    { under: '/rest', handle: subsonic },
    { under: '/metrics', handle: async (request) => metrics.handle(request) },
    { under: signIn.path, handle: signIn.handle },
  ]

  function route(request: Request, url: URL): Answer {
    for (const r of ROUTES) if (under(url.pathname, r.under)) return r.handle(request, url)
    return withLimitedBody(request, (limited) => staticFileOrPage(limited, url))
  }

  function staticFileOrPage(request: Request, url: URL): Answer {
    if ((request.method === 'GET' || request.method === 'HEAD') && url.pathname !== '/') {
      const file = findStatic(url.pathname)
      if (file) {
        const type = file.type || 'application/octet-stream'
        return new Response(request.method === 'HEAD' ? null : file, {
          headers: { 'content-type': type, 'content-length': String(file.size), ...staticFileHeaders(url.pathname, type) },
        })
      }
    }
    return page(request, url)
  }

  return (request, peers) => {
    const started = performance.now()
    const url = new URL(request.url)
    const id = crypto.randomUUID()
    const isApi = under(url.pathname, '/api')
    // Only the socket tells us who is calling; a client-sent copy of this header is replaced,
    // or, for API reads, removed and filled from the socket when a handler asks
    // (withPeerAddress). Bun's incoming request headers are mutable: no copy per call.
    if (isApi && request.body === null) request.headers.delete(CLIENT_IP_HEADER)
    else request.headers.set(CLIENT_IP_HEADER, peers?.requestIP(request)?.address ?? '127.0.0.1')
    const failed = (error: unknown) => {
      logger.error({ err: error, id, method: request.method, path: redactPath(url.pathname) }, 'unhandled request error')
      return isApi ? Response.json({ success: false, error: 'Internal server error' }, { status: 500 }) : new Response('Internal server error', { status: 500 })
    }
    const finish = (answer: Response) => {
      const response = withSecurityHeaders(answer)
      const ms = performance.now() - started
      if (isApi) recordRequest(ms, response.status)
      metrics.observe(request.method, url.pathname, response.status, ms)
      logRequest(url.pathname.startsWith('/assets/') ? 'debug' : 'info', {
        id,
        method: request.method,
        path: redactPath(url.pathname),
        status: response.status,
        durationMs: Math.round(ms * 10) / 10,
      })
      return response
    }
    let answer: Answer
    try {
      // Before anything reads the request: the proxy's identity header is taken off here.
      const proxied = proxyAuth?.(request, () => peers?.requestIP(request)?.address ?? '127.0.0.1')
      answer = proxied ? proxied.then(async (cookies) => withCookies(await route(request, url), cookies)) : route(request, url)
    } catch (error) {
      answer = failed(error)
    }
    return answer instanceof Promise ? answer.catch(failed).then(finish) : finish(answer)
  }
}

function withCookies(response: Response, cookies: string[]): Response {
  for (const line of cookies) response.headers.append('set-cookie', line)
  return response
}

/** A missing library is one warning, not an error: the app works, the library is empty. */
export function warnWhenMediaRootMissing() {
  const found = statSync(config.MEDIA_ROOT, { throwIfNoEntry: false })
  if (found?.isDirectory()) return
  const problem = found ? 'is not a folder' : 'does not exist'
  logger.warn({ mediaRoot: config.MEDIA_ROOT }, `MEDIA_ROOT ${config.MEDIA_ROOT} ${problem}: the server library is empty until that folder exists`)
}

/** Why Bun.serve could not listen, as the one line the operator sees (no stack trace). */
const LISTEN_ERRORS: Record<string, () => string> = {
  EADDRINUSE: () => `Port ${config.PORT} is already in use (set PORT to another port)`,
  EACCES: () => `Not allowed to listen on port ${config.PORT} (set PORT to a port above 1023)`,
  EADDRNOTAVAIL: () => `Cannot listen on ${config.HOST}: not an address of this machine (set HOST)`,
}

/** Listens on HOST:PORT with `front`; a port that cannot be had ends the process with one line. */
export function listen(front: Front) {
  try {
    return Bun.serve({
      port: config.PORT,
      hostname: config.HOST,
      idleTimeout: 120,
      // Only a backstop: the front answers bodies over MAX_BODY_BYTES with the 413 envelope. Bun
      // answers a Content-Length above this itself (an empty 413) before the front sees it, so it
      // sits well above anything a client sends by mistake (decision 013).
      maxRequestBodySize: 64 * MAX_BODY_BYTES,
      fetch: front,
    })
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code)
    if (!Object.hasOwn(LISTEN_ERRORS, code)) throw error
    console.error(LISTEN_ERRORS[code]())
    void closeDb()
    process.exit(1)
  }
}
