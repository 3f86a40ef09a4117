// Browser and HTTP tests run against the production build; build it once when missing.
import { existsSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dir, '../..')

export function ensureBuilt() {
  if (existsSync(path.join(root, 'dist/server/server.js'))) return
  const result = Bun.spawnSync(['bun', 'run', 'build'], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
  if (result.exitCode !== 0) throw new Error('build failed')
}
