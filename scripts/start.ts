// `bun run start`: build when the build is missing or older than the sources, then serve.
// `bun run start -- --help` (or --version, backup <file>) answers without building.
import path from 'node:path'
import { runCommandLine } from '../src/server/cli'
import { buildIsStale } from './build-state'

const args = process.argv.slice(2)
await runCommandLine(args, 'bun run start --')

if (buildIsStale(path.resolve(import.meta.dir, '..'))) {
  console.log('Building Vibes…')
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'inherit', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1)
}

const server = Bun.spawn(['bun', 'src/server/entry.ts', ...args], { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal))
process.exit(await server.exited)
