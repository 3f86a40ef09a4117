// The production HTTP server shared by `bun run start` (files on disk) and the single binary
// (files embedded): Bun.serve in front of the built TanStack Start app. It serves the client
// build's files itself, logs every request as JSON, records API timings, migrates the database
// and creates the first admin before it listens, and shuts down cleanly on SIGTERM.
import { statSync } from 'node:fs'
import { config } from './config'
import { closeDb, getDb } from './db'
import { CLIENT_IP_HEADER } from './http/client-info'
import { recordRequest } from './http/metrics'
import { securityHeaders } from './http/security-headers'
import { logger } from './logger'
import { startLibraryScanner, stopLibraryScanner } from './library/scan'
import { handleMedia } from './media/handler'
import { ensureAdmin } from './services/auth'
import { startHousekeeping } from './services/housekeeping'

const { fetchPage, withSecurityHeaders } = securityHeaders({ appUrl: config.APP_URL, chartsSourceUrl: config.CHARTS_SOURCE_URL })

export type StartApp = { fetch: (request: Request) => Promise<Response> }
/** The client-build file for a URL path, or null. */
export type StaticLookup = (pathname: string) => Blob | null

async function route(app: StartApp, findStatic: StaticLookup, request: Request, url: URL): Promise<Response> {
  // A path that does not decode never reaches a handler; API clients still get the envelope.
  if (url.pathname.startsWith('/api/') && !decodes(url.pathname)) return Response.json({ success: false, error: 'Malformed URL' }, { status: 400 })
  // Media bytes skip the app (fast path); the Start route /media/$ serves them in dev.
  if (url.pathname.startsWith('/media/')) return handleMedia(request)
  if ((request.method === 'GET' || request.method === 'HEAD') && url.pathname !== '/' && !url.pathname.startsWith('/api/')) {
    const file = findStatic(url.pathname)
    if (file) {
      const immutable = url.pathname.startsWith('/assets/')
      return new Response(request.method === 'HEAD' ? null : file, {
        headers: { 'content-type': file.type || 'application/octet-stream', 'content-length': String(file.size), 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600' },
      })
    }
  }
  return fetchPage(app, request)
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
  const server = listenOrExit(() => Bun.serve({
    port: config.PORT,
    hostname: config.HOST,
    idleTimeout: 120,
    // The API takes small JSON bodies (the REST adapter caps them at 1 MB); nothing uploads media.
    maxRequestBodySize: 8 * 1024 * 1024,
    async fetch(request, srv) {
      const started = performance.now()
      const url = new URL(request.url)
      const id = crypto.randomUUID()
      // Only the socket tells us who is calling; a client-sent copy of this header is replaced.
      const headers = new Headers(request.headers)
      headers.set(CLIENT_IP_HEADER, srv.requestIP(request)?.address ?? '127.0.0.1')
      const forwarded = new Request(request, { headers })
      let response: Response
      try {
        response = await route(app, findStatic, forwarded, url)
      } catch (error) {
        logger.error({ err: error, id, method: request.method, path: url.pathname }, 'unhandled request error')
        response = url.pathname.startsWith('/api/')
          ? Response.json({ success: false, error: 'Internal server error' }, { status: 500 })
          : new Response('Internal server error', { status: 500 })
      }
      response = withSecurityHeaders(response)
      const ms = performance.now() - started
      if (url.pathname.startsWith('/api/')) recordRequest(ms, response.status)
      logger[url.pathname.startsWith('/assets/') ? 'debug' : 'info']({ id, method: request.method, path: url.pathname, status: response.status, durationMs: Math.round(ms * 10) / 10 }, 'request')
      return response
    },
  }))

  // After listening: the first scan of a large library must not hold up start-up.
  startLibraryScanner(db)

  logger.info({ port: server.port, url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${server.port}`, dataDir: config.DATA_DIR, mediaRoot: config.MEDIA_ROOT }, 'Vibes is listening')

  let stopping = false
  async function shutdown(signal: string) {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: finishing in-flight requests')
    await server.stop(false)
    await stopLibraryScanner()
    closeDb()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  return server
}
