// `bun run start` / `bun run serve`: the built app from dist/, client files from disk.
// `bun run backup` too: the command line answers before the configuration or the app loads.
import { statSync } from 'node:fs'
import path from 'node:path'
import { runCommandLine } from './cli'
import { deferredApp } from './deferred-app'

await runCommandLine(process.argv.slice(2), 'bun run start --')

const { serve } = await import('./serve')
const CLIENT_DIR = path.resolve('dist/client')
const pages = deferredApp(() => import(path.resolve('dist/server/server.js')))

/** A file of the client build for this path, or null (never a path outside CLIENT_DIR). */
function findStatic(pathname: string) {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return null
  }
  const file = path.join(CLIENT_DIR, decoded)
  if (!file.startsWith(CLIENT_DIR + path.sep)) return null
  try {
    return statSync(file).isFile() ? Bun.file(file) : null
  } catch {
    return null
  }
}

await serve(pages.app, findStatic)
// The listening analytics run on their own thread and read-only connection (issue 13).
const { registerAnalyticsWorker } = await import('./analytics-worker-host')
registerAnalyticsWorker((await import('./config')).config.dbFile)
// Listening: now load the page bundle (a build that cannot load stops the server, as before).
await pages.ready()
