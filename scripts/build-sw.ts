// A step of `bun run build`, after Vite: bundles the service worker (src/client/pwa/service-worker.ts)
// into dist/client/sw.js with the build's JS/CSS files as its app shell and a version made from
// their names (hashed by Vite), so each build installs a fresh shell and drops the old one.
import { createHash } from 'node:crypto'
import { readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dir, '..')
const clientDir = path.join(root, 'dist/client')
const assets = readdirSync(path.join(clientDir, 'assets'))
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .sort()
  .map((name) => `/assets/${name}`)
const version = createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 12)

const result = await Bun.build({
  entrypoints: [path.join(root, 'src/client/pwa/service-worker.ts')],
  target: 'browser',
  format: 'iife',
  minify: true,
  define: { BUILD_VERSION: JSON.stringify(version), BUILD_ASSETS: JSON.stringify(assets) },
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
writeFileSync(path.join(clientDir, 'sw.js'), await result.outputs[0].text())
