// The server of `bun run start` and `bun run serve`: the built app from dist/, client files from
// disk. entry.ts runs it from the sources; `bun run start` runs the build's bytecode-compiled copy
// of it (scripts/build-start.ts, decision 035), which loads in about half the CPU time.
import { statSync } from 'node:fs'
import path from 'node:path'
import { startServer } from './start-up'

export async function serveFromDisk() {
  const clientDir = path.resolve('dist/client')

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

  await startServer({ loadPages: () => import(path.resolve('dist/server/server.js')), findStatic })
}
