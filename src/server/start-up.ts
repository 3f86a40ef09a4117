// The one start-up sequence of the production server, for `bun run start` and `bun run serve`
// (serve-from-disk.ts: files on disk) and the single binary (binary.ts: files embedded). Each
// passes what differs: where the page bundle and the client files come from. Configuration is
// read when config.ts is first imported, so an entry sets the environment before it imports this.
import { registerAnalyticsWorker } from './analytics-worker-host'
import { config } from './config'
import { loadDeferredModules, shareAppRouterWithPages } from './deferred'
import { deferredApp } from './deferred-app'
import { type StartApp, type StaticLookup, serve } from './serve'

export type StartOptions = {
  /** Imports the built page bundle (after listening, or on the first page asked for). */
  loadPages: () => Promise<{ default: StartApp }>
  /** The client build's file for a URL path, or null. */
  findStatic: StaticLookup
  /** Runs once the server listens (the database is migrated by then). */
  onListening?: () => void
}

export async function startServer({ loadPages, findStatic, onListening }: StartOptions) {
  const pages = deferredApp(loadPages)
  // Before listening: the first page may be asked for at once, and its SSR calls the server's router.
  shareAppRouterWithPages()
  await serve(pages.app, findStatic)
  onListening?.()
  // The listening analytics run on their own thread and read-only connection, so
  // no analytics query ever holds up a stream or an API call.
  const analyticsWorker = registerAnalyticsWorker(config.dbFile)
  // Listening: now the rest of the server, then the page bundle (either failing to load stops it).
  await loadDeferredModules()
  await pages.ready()
  // Last, so its start delays neither start-up nor the first report (decision 054).
  analyticsWorker.start()
}
