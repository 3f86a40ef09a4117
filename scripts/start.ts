// `bun run start`: build when the build is missing or older than the sources, then serve.
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const BUILD = 'dist/server/server.js'
const SOURCES = ['src', 'public', 'package.json', 'vite.config.ts', 'panda.config.ts']

function newest(p: string): number {
  if (!existsSync(p)) return 0
  const s = statSync(p)
  if (!s.isDirectory()) return s.mtimeMs
  return Math.max(s.mtimeMs, ...readdirSync(p).map((name) => newest(path.join(p, name))))
}

const stale = !existsSync(BUILD) || Math.max(...SOURCES.map(newest)) > statSync(BUILD).mtimeMs
if (stale) {
  console.log('Building Vibes…')
  const build = Bun.spawnSync(['bun', 'run', 'build'], { stdout: 'inherit', stderr: 'inherit' })
  if (build.exitCode !== 0) process.exit(build.exitCode ?? 1)
}

const server = Bun.spawn(['bun', 'src/server/entry.ts'], { stdout: 'inherit', stderr: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal))
process.exit(await server.exited)
