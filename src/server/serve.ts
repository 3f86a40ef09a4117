// The production HTTP server shared by `bun run start` (files on disk) and the single binary
// (files embedded): Bun.serve in front of the API handlers, the media files and the built
// TanStack Start app (pages only). It serves the client build's files itself, logs every request
// as JSON, records API timings, migrates the database and creates the first admin before it
// listens, and shuts down on SIGTERM within SHUTDOWN_GRACE_SECONDS. Request bodies are limited
// here, for every route (http/body-limit.ts).
import { statSync } from 'node:fs'
import { config } from './config'
import { closeDb, getDb } from './db'
import { MAX_BODY_BYTES, withLimitedBody } from './http/body-limit'
import { handleApi } from './http/api'
import { askPeersOf, CLIENT_IP_HEADER } from './http/client-info'
import { recordRequest } from './http/metrics'
import { createMemberPageCache } from './http/member-page-cache'
import { createPageCache, invalidatePublicPages } from './http/page-cache'
import { handleMetrics, observeRequest } from './http/prometheus'
import { redactPath } from './http/redact'
import { privatePage, securityHeaders } from './http/security-headers'
import { logger, logRequest } from './logger'
import { startLibraryScanner, stopLibraryScanner } from './library/scan'
import { handleMedia } from './media/handler'
import { ensureAdmin } from './services/auth'
import { startHousekeeping } from './services/housekeeping'
import { subsonicModule, withModule } from './deferred'

const { fetchPage, withSecurityHeaders } = securityHeaders({ appUrl: config.APP_URL })

export type StartApp = { fetch: (request: Request) => Response | Promise<Response> }
/** The client-build file for a URL path, or null. */
export type StaticLookup = (pathname: string) => Blob | null

/** An answer now, or a promise of one: the cheap requests never wait for a promise (decision 042). */
type Answer = Response | Promise<Response>
type Handler = (request: Request, url: URL) => Answer

/** `pathname` is `prefix` or lies below it. */
const under = (pathname: string, prefix: string) => pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname[prefix.length] === '/')

/**
 * The front, read top to bottom, first match wins: these go straight to their handlers, never
 * through the page pipeline (decision 028). Anything else is a client-build file or a page.
 */
const ROUTES: Array<{ under: string; handle: Handler }> = [
  // Media bytes (fast path); the Start route /media/$ serves them in dev.
  { under: '/media', handle: handleMedia },
  { under: '/api', handle: api },
  { under: '/rest', handle: subsonic },
  { under: '/metrics', handle: async (request) => handleMetrics(request) },
]

/** OpenSubsonic apps (decision 031): form POST bodies are limited like any other. */
function subsonic(request: Request): Answer {
  return withLimitedBody(request, (limited) => withModule(subsonicModule, ({ handleSubsonic }) => handleSubsonic(limited)))
}

function api(request: Request, url: URL): Answer {
  // A path that does not decode never reaches a handler; API clients still get the envelope.
  if (url.pathname.includes('%') && !decodes(url.pathname)) return Response.json({ success: false, error: 'Malformed URL' }, { status: 400 })
  return withLimitedBody(request, (limited) => {
    if (limited.method !== 'GET' && limited.method !== 'HEAD') invalidatePublicPages()
    return handleApi(limited, url)
  })
}

function route(page: Handler, findStatic: StaticLookup, request: Request, url: URL): Answer {
  for (const r of ROUTES) if (under(url.pathname, r.under)) return r.handle(request, url)
  return withLimitedBody(request, (limited) => staticFileOrPage(page, findStatic, limited, url))
}

function staticFileOrPage(page: Handler, findStatic: StaticLookup, request: Request, url: URL): Answer {
  if ((request.method === 'GET' || request.method === 'HEAD') && url.pathname !== '/') {
    const file = findStatic(url.pathname)
    if (file) {
      const immutable = url.pathname.startsWith('/assets/')
      return new Response(request.method === 'HEAD' ? null : file, {
        headers: {
          'content-type': file.type || 'application/octet-stream',
          'content-length': String(file.size),
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        },
      })
    }
  }
  return page(request, url)
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname)
    return true
  } catch {
    return false
  }
}

/** A missing library is one warning, not an error: the app works, the library is empty. */
function warnWhenMediaRootMissing() {
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

function listenOrExit<T>(listen: () => T): T {
  try {
    return listen()
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code)
    if (!Object.hasOwn(LISTEN_ERRORS, code)) throw error
    console.error(LISTEN_ERRORS[code]())
    closeDb()
    process.exit(1)
  }
}

export async function serve(app: StartApp, findStatic: StaticLookup) {
  const db = getDb()
  if (await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD)) logger.info({ email: config.ADMIN_EMAIL }, 'admin account created')
  startHousekeeping(db)

  warnWhenMediaRootMissing()
  const render = (request: Request, nonce: string) => fetchPage(app, request, nonce)
  const pages = createPageCache(render)
  const memberPages = createMemberPageCache(render)
  // Only the anonymous copies from memory are everyone's; any other page is this visitor's own.
  const page: Handler = async (request, url) =>
    (await pages.fetch(request, url)) ?? privatePage((await memberPages.fetch(request, url)) ?? (await fetchPage(app, request)))
  const server = listenOrExit(() =>
    Bun.serve({
      port: config.PORT,
      hostname: config.HOST,
      idleTimeout: 120,
      // Only a backstop: route() answers bodies over MAX_BODY_BYTES with the 413 envelope. Bun
      // answers a Content-Length above this itself (an empty 413) before route() sees it, so it sits
      // well above anything a client sends by mistake (decision 013).
      maxRequestBodySize: 64 * MAX_BODY_BYTES,
      fetch(request, srv) {
        const started = performance.now()
        const url = new URL(request.url)
        const id = crypto.randomUUID()
        const isApi = under(url.pathname, '/api')
        // Only the socket tells us who is calling; a client-sent copy of this header is replaced,
        // or, for API reads, removed and filled from the socket when a handler asks
        // (withPeerAddress). Bun's incoming request headers are mutable: no copy per call.
        if (isApi && request.body === null) request.headers.delete(CLIENT_IP_HEADER)
        else request.headers.set(CLIENT_IP_HEADER, srv.requestIP(request)?.address ?? '127.0.0.1')
        const failed = (error: unknown) => {
          logger.error({ err: error, id, method: request.method, path: redactPath(url.pathname) }, 'unhandled request error')
          return isApi
            ? Response.json({ success: false, error: 'Internal server error' }, { status: 500 })
            : new Response('Internal server error', { status: 500 })
        }
        const finish = (answer: Response) => {
          const response = withSecurityHeaders(answer)
          const ms = performance.now() - started
          if (isApi) recordRequest(ms, response.status)
          observeRequest(request.method, url.pathname, response.status, ms)
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
          answer = route(page, findStatic, request, url)
        } catch (error) {
          answer = failed(error)
        }
        return answer instanceof Promise ? answer.catch(failed).then(finish) : finish(answer)
      },
    }),
  )

  askPeersOf(server)

  // After listening: the first scan of a large library must not hold up start-up.
  startLibraryScanner(db)

  logger.info(
    {
      port: server.port,
      url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${server.port}`,
      dataDir: config.DATA_DIR,
      mediaRoot: config.MEDIA_ROOT,
    },
    'Vibes is listening',
  )

  let stopping = false
  async function shutdown(signal: string) {
    if (stopping) return
    stopping = true
    logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down: finishing in-flight requests')
    // Stop accepting now; a request still running after the grace period (a stalled upload, a
    // client that never reads) is cut off so the process always ends.
    const finished = server.stop(false).then(() => true)
    if (!(await Promise.race([finished, Bun.sleep(config.SHUTDOWN_GRACE_SECONDS * 1000).then(() => false)]))) {
      logger.warn({ pendingRequests: server.pendingRequests }, 'grace period over: closing the remaining connections')
      await server.stop(true)
    }
    await stopLibraryScanner()
    closeDb()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  return server
}
