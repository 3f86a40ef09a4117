// The server of `bun run start` and `bun run serve`: the built app from dist/, client files from
// disk. entry.ts runs it from the sources; `bun run start` runs the build's bytecode-compiled copy
// of it (scripts/build-start.ts, decision 035), which loads in about half the CPU time.
import { statSync } from 'node:fs'
import path from 'node:path'
import { registerAnalyticsWorker } from './analytics-worker-host'
import { config } from './config'
import { loadDeferredModules } from './deferred'
import { deferredApp } from './deferred-app'
import { serve } from './serve'

export async function serveFromDisk() {
  const clientDir = path.resolve('dist/client')
  const pages = deferredApp(() => import(path.resolve('dist/server/server.js')))

  /** A file of the client build for this path, or null (never a path outside clientDir). */
  function findStatic(pathname: string) {
    let decoded: string
    try {
      decoded = decodeURIComponent(pathname)
    } catch {
      return null
    }
    const file = path.join(clientDir, decoded)
    if (!file.startsWith(clientDir + path.sep)) return null
    try {
      return statSync(file).isFile() ? Bun.file(file) : null
    } catch {
      return null
    }
  }

  await serve(pages.app, findStatic)
  // The listening analytics run on their own thread and read-only connection (issue 13).
  const analyticsWorker = registerAnalyticsWorker(config.dbFile)
  // Listening: now the rest of the server, then the page bundle (either failing to load stops it).
  await loadDeferredModules()
  await pages.ready()
  // Last, so its start delays neither start-up nor the first report (decision 054).
  analyticsWorker.start()
}
