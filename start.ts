// `bun run start`: build when the build is missing or older than the sources, then serve, in
// this process. package.json has no "start" script on purpose: `bun run start` then runs this
// file (start.ts in the project root) in the `bun run` process itself, with no shell or second
// Bun in between, and the server is imported, not spawned: one process, one runtime's memory.
// `bun run start -- --help` (or --version, backup <file>) answers without building.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { BUILD_OUTPUT, buildIsStale, START_BUNDLE_DIR } from './scripts/build-state'
import { runCommandLine } from './src/server/cli'

await runCommandLine(process.argv.slice(2), 'bun run start --')

/** The start bundle names files by absolute path: one built in another folder (a moved checkout) is rebuilt. */
function builtElsewhere() {
  try {
    return readFileSync(path.join(import.meta.dir, BUILD_OUTPUT), 'utf8') !== import.meta.dir
  } catch {
    return true
  }
}

if (buildIsStale(import.meta.dir) || builtElsewhere()) {
  console.log('Building Vibes…')
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'inherit', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1)
}

// Read by the built app's React and by the server on import, so set before either loads.
process.env.NODE_ENV = 'production'
// The server, bytecode-compiled by the build (scripts/build-start.ts): serve-from-disk.ts.
const { serveFromDisk } = (await import(path.join(import.meta.dir, START_BUNDLE_DIR, 'serve-from-disk.js'))) as typeof import('./src/server/serve-from-disk')
await serveFromDisk()
