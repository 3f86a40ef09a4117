// Whether the production build in dist/ is missing or older than what it is built from. One
// check for `bun run start` and the test helpers, so neither serves (or tests) a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The bytecode-compiled server `bun run start` runs (scripts/build-start.ts). */
export const START_BUNDLE_DIR = 'dist/start'
/** Written last by `bun run build` (the project folder the start bundle was built in); its time is the build's time. */
export const BUILD_OUTPUT = `${START_BUNDLE_DIR}/root`
/** Everything the build reads, relative to the project root. */
export const BUILD_SOURCES = ['src', 'public', 'package.json', 'vite.config.ts', 'panda.config.ts']

function newest(p: string): number {
  if (!existsSync(p)) return 0
  const s = statSync(p)
  if (!s.isDirectory()) return s.mtimeMs
  return Math.max(s.mtimeMs, ...readdirSync(p).map((name) => newest(path.join(p, name))))
}

/** True when the project at `root` has no build or a source changed after it was built. */
export function buildIsStale(root: string, output = BUILD_OUTPUT): boolean {
  const file = path.join(root, output)
  if (!existsSync(file)) return true
  return Math.max(...BUILD_SOURCES.map((p) => newest(path.join(root, p)))) > statSync(file).mtimeMs
}

/** `bun run build:binary`'s output: stale by the same rule (it is built from the same sources). */
export const BINARY_OUTPUT = 'dist/vibes'
