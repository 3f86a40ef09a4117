// Browser and HTTP tests run against the production build; build it when it is missing or older
// than the sources (the same check as `bun run start`), so a test never runs a stale build.
import path from 'node:path'
import { buildIsStale } from '../../scripts/build-state'

const root = path.resolve(import.meta.dir, '../..')

export function ensureBuilt() {
  if (!buildIsStale(root)) return
  const result = Bun.spawnSync(['bun', 'run', 'build'], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
  if (result.exitCode !== 0) throw new Error('build failed')
}
