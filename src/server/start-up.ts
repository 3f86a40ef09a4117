// The composition root of the production server, for `bun run start` and `bun run serve`
// (serve-from-disk.ts: files on disk), the single binary (binary.ts: files embedded) and unit
// tests that need a server in process. `createServer` builds the one server object from its parts,
// `startServer` runs the one start-up sequence with it. Each entry passes what differs: where the
// page bundle and the client files come from. Configuration is read when config.ts is first
// imported, so an entry sets the environment before it imports this.
import { hostname } from 'node:os'
import { RADIO_STREAM_PREFIX } from '~/shared/player/track'
import { isPodcastMediaPath, PODCAST_MEDIA_PATH } from '~/shared/podcasts'
import { registerAnalyticsWorker } from './analytics-worker-host'
import { config } from './config'
import { closeDb, getDb } from './db'
import { deferred, withModule } from './deferred'
import { deferredApp } from './deferred-app'
import { apiFront } from './http/api'
import { askPeersOf } from './http/client-info'
import { createRequestMetrics } from './http/prometheus'
import { scanStatus, startLibraryScanner, stopLibraryScanner } from './library/scan'
import { logger } from './logger'
import { runningTranscodes } from './media/transcode'
import { AVATAR_UPLOAD_PATH, handleAvatarUpload } from './rest/avatar-upload'
import { restTransport } from './rest/transport'
import { createProxyAuth } from './rest/proxy-auth'
import { SIGN_IN_PATH } from './auth/sign-in-options'
import { type StartApp, type StaticLookup, createFront, listen, warnWhenMediaRootMissing } from './serve'
import { ensureAdmin } from './services/auth'
import { startHousekeeping } from './services/housekeeping'
import { startScrobbleSender, stopScrobbleSender } from './services/scrobble-sender'
import { sweepSharedLimits } from './http/shared-rate-limit'
import { trpcTransport } from './trpc/http'
import { appRouterModule } from './trpc/router-module'
import { shareAppRouter } from './trpc/shared-router'

export type ServerOptions = {
  /** Imports the built page bundle (after listening, or on the first page asked for). */
  loadPages: () => Promise<{ default: StartApp }>
  /** The client build's file for a URL path, or null. */
  findStatic: StaticLookup
}

export type StartOptions = ServerOptions & {
  /** Runs once the server listens (the database is migrated by then). */
  onListening?: () => void
}

export type VibesServer = ReturnType<typeof createServer>

/** The port this process listens on once it does (PORT may be 0, a free one): half of /metrics' default instance label. */
let listeningPort = config.PORT
const instanceName = () => config.INSTANCE_NAME ?? `${hostname()}:${listeningPort}`

/**
 * The server's parts, built once: the database (opened and migrated), the modules loaded after
 * listening (app router, OpenSubsonic, page bundle), the API front over its transports, the
 * request metrics and the front that answers every request. Nothing listens or starts yet:
 * `server.fetch(request)` answers in process.
 */
export function createServer({ loadPages, findStatic }: ServerOptions) {
  const db = getDb()
  const router = appRouterModule
  const subsonic = deferred(() => import('./subsonic/handler'))
  // The radio relay and the episode audio route read remote streams: the remote reader loads with
  // them, after listening.
  const radioStream = deferred(() => import('./radio/stream'))
  const podcastAudio = deferred(() => import('./podcasts/audio-route'))
  // The sign-in pages load on the first sign-in: most instances offer no outside provider.
  const signIn = deferred(() => import('./rest/sign-in'))
  const pages = deferredApp(loadPages)
  const api = apiFront([trpcTransport, restTransport])
  const scanner = { start: () => startLibraryScanner(db), stop: stopLibraryScanner, status: () => scanStatus(db) }
  const metrics = createRequestMetrics({ apiRouteLabel: api.routeLabel, runningTranscodes, scanStatus: scanner.status, instance: instanceName })
  const fetch = createFront({
    pages: pages.app,
    findStatic,
    api,
    subsonic: (request) => withModule(subsonic, ({ handleSubsonic }) => handleSubsonic(request)),
    avatarUpload: { path: AVATAR_UPLOAD_PATH, handle: handleAvatarUpload },
    podcastAudio: {
      under: PODCAST_MEDIA_PATH,
      owns: isPodcastMediaPath,
      handle: (request, url) => withModule(podcastAudio, ({ handlePodcastMedia }) => handlePodcastMedia(request, url)),
    },
    radioStream: {
      path: RADIO_STREAM_PREFIX.slice(0, -1),
      handle: (request, url) => withModule(radioStream, ({ handleRadioStream }) => handleRadioStream(request, url)),
    },
    metrics,
    signIn: { path: SIGN_IN_PATH, handle: (request, url) => withModule(signIn, ({ handleSignIn }) => handleSignIn(request, url)) },
    proxyAuth: config.AUTH_PROXY_HEADER
      ? createProxyAuth({
          header: config.AUTH_PROXY_HEADER,
          trust: config.TRUST_PROXY,
          secret: config.AUTH_SECRET,
          secureCookies: config.APP_URL.startsWith('https:'),
        })
      : undefined,
  })
  return { config, db, router, subsonic, radioStream, podcastAudio, pages, api, scanner, metrics, fetch }
}

/** The page bundle's SSR calls this server's router rather than a copy of its own (trpc/shared-router.ts). */
function shareAppRouterWithPages(router: VibesServer['router']) {
  shareAppRouter(async () => {
    const [{ appRouter }, { createContext }] = await Promise.all([router.load(), import('./trpc/context')])
    return { appRouter, createContext }
  })
}

/** How long after listening the deferred modules start loading: long enough for the requests
 *  that were waiting for the server (a supervisor's health check, a client retrying) to be
 *  answered first, since loading them holds the event loop for ~15 ms. A request that needs one
 *  of them meanwhile loads it at once. */
const LOAD_AFTER_LISTEN_MS = 50

/** The one start-up sequence: build, prepare the database, listen, then load what waited. */
export async function startServer({ onListening, ...options }: StartOptions) {
  // Nodes starting together take turns on an advisory lock: one migrates, the others find it done.
  // PostgreSQL's migrator loads only then: a SQLite instance never needs it.
  if (config.DATABASE_URL) await (await import('~/db/pg/migrate')).migratePostgres(config.DATABASE_URL)
  const server = createServer(options)
  const { db } = server
  // Before listening: the first page may be asked for at once, and its SSR calls the server's router.
  shareAppRouterWithPages(server.router)
  if (await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD)) logger.info({ email: config.ADMIN_EMAIL }, 'admin account created')
  const sqliteOnly = !config.DATABASE_URL
  await startHousekeeping(db)
  if (!sqliteOnly) sweepSharedLimits(db)
  warnWhenMediaRootMissing()

  const http = listen(server.fetch)
  listeningPort = http.port ?? config.PORT
  askPeersOf(http)
  // After listening: the first scan of a large library must not hold up start-up.
  server.scanner.start()
  // Scrobbles queued before a restart go out now; new ones as they are queued. Nodes sharing a
  // database each run one: a row goes to whichever claims it first (docs/decisions/090).
  startScrobbleSender(db)
  logger.info(
    {
      port: http.port,
      url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${http.port}`,
      dataDir: config.DATA_DIR,
      mediaRoot: config.MEDIA_ROOT,
    },
    'Vibes is listening',
  )
  stopOnSignals(http, server.scanner)
  onListening?.()

  // SQLite: the listening analytics run on their own thread and read-only connection, so no
  // analytics query ever holds up a stream or an API call. PostgreSQL: the query runs in the
  // database's own process and the loop only awaits it, so no thread is needed (decision 091).
  const analyticsWorker = sqliteOnly ? registerAnalyticsWorker(config.dbFile) : { start() {} }
  // Listening: now the rest of the server, in the order requests are likeliest to need them, then
  // the page bundle. One that cannot load rejects here and the process exits 1.
  await Bun.sleep(LOAD_AFTER_LISTEN_MS)
  await server.router.load()
  await server.subsonic.load()
  await server.radioStream.load()
  await server.podcastAudio.load()
  // Podcast feeds refresh on their schedule once the remote reader has loaded: on one node per
  // period when nodes share a database (docs/decisions/090).
  ;(await import('./services/podcasts')).startPodcastRefresh(db)
  await server.pages.ready()
  // Last, so its start delays neither start-up nor the first report (decision 054).
  analyticsWorker.start()
  return { ...server, http, analyticsWorker }
}

/** SIGTERM and SIGINT: finish in-flight requests within SHUTDOWN_GRACE_SECONDS, then exit. */
function stopOnSignals(http: ReturnType<typeof listen>, scanner: VibesServer['scanner']) {
  let stopping = false
  async function shutdown(signal: string) {
    if (stopping) return
    stopping = true
    logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down: finishing in-flight requests')
    // Stop accepting now; a request still running after the grace period (a stalled upload, a
    // client that never reads) is cut off so the process always ends.
    const finished = http.stop(false).then(() => true)
    if (!(await Promise.race([finished, Bun.sleep(config.SHUTDOWN_GRACE_SECONDS * 1000).then(() => false)]))) {
      logger.warn({ pendingRequests: http.pendingRequests }, 'grace period over: closing the remaining connections')
      await http.stop(true)
    }
    await scanner.stop()
    // What is being sent stays queued and claimed; the claim runs out and it is sent after restart.
    stopScrobbleSender()
    await closeDb()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
