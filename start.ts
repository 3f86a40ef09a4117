// `bun run start`: build when the build is missing or older than the sources, then serve, in
// this process. package.json has no "start" script on purpose: `bun run start` then runs this
// file (start.ts in the project root) in the `bun run` process itself, with no shell or second
// Bun in between, and the server is imported, not spawned: one process, one runtime's memory.
// `bun run start -- --help` (or --version, backup <file>) answers without building.
import { runCommandLine } from './src/server/cli'
import { buildIsStale } from './scripts/build-state'

await runCommandLine(process.argv.slice(2), 'bun run start --')

if (buildIsStale(import.meta.dir)) {
  console.log('Building Vibes…')
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'inherit', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1)
}

// Read by the built app's React and by the server on import, so set before either loads.
process.env.NODE_ENV = 'production'
await import('./src/server/entry')
