// The last step of `bun run build`: the server `bun run start` runs (start.ts), compiled from
// src/server/serve-from-disk.ts into one CommonJS file with Bun's bytecode beside it
// (dist/start). Loading it takes about half the CPU of loading the ~900 source modules
// (decision 035). Bytecode without --compile needs CommonJS, hence a function to call rather
// than an entry with top-level await. The bundle names files by absolute path (the analytics
// worker's source, node_modules for GeoIP), so it also records the project folder it was built in,
// and start.ts rebuilds when that differs.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { START_BUNDLE_DIR } from './build-state'

const root = path.resolve(import.meta.dir, '..')
const outdir = path.join(root, START_BUNDLE_DIR)
const result = await Bun.build({
  entrypoints: [path.join(root, 'src/server/serve-from-disk.ts')],
  outdir,
  target: 'bun',
  format: 'cjs',
  bytecode: true,
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
writeFileSync(path.join(outdir, 'root'), root)
