// The one staleness check behind `bun run start` and the test helpers (scripts/build-state.ts):
// a build older than any source file, however deep, is rebuilt, so no test runs a stale build.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { BUILD_OUTPUT, buildIsStale } from '../../scripts/build-state'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A project with a source tree and a build, every file and folder dated `at` (seconds). */
function project(at: number) {
  const root = mkdtempSync(path.join(tmpdir(), 'vibes-build-state-'))
  dirs.push(root)
  const files = ['src/server/deep/module.ts', 'public/favicon.svg', 'package.json', 'vite.config.ts', BUILD_OUTPUT]
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), 'x')
  }
  const touch = (p: string, t: number) => utimesSync(path.join(root, p), t, t)
  for (const p of [...files, 'src/server/deep', 'src/server', 'src', 'public', path.dirname(BUILD_OUTPUT), 'dist']) touch(p, at)
  return { root, touch }
}

describe('buildIsStale', () => {
  test('a build newer than every source is fresh', () => {
    const { root, touch } = project(1_000_000)
    touch(BUILD_OUTPUT, 2_000_000)
    expect(buildIsStale(root)).toBe(false)
  })

  test('a missing build is stale', () => {
    const { root } = project(1_000_000)
    rmSync(path.join(root, BUILD_OUTPUT))
    expect(buildIsStale(root)).toBe(true)
  })

  test('a source file changed after the build, however deep, makes it stale', () => {
    for (const source of ['src/server/deep/module.ts', 'public/favicon.svg', 'package.json', 'vite.config.ts']) {
      const { root, touch } = project(1_000_000)
      touch(BUILD_OUTPUT, 2_000_000)
      touch(source, 3_000_000)
      expect(buildIsStale(root), source).toBe(true)
    }
  })

  test('a file deleted from src after the build (only its folder is newer) makes it stale', () => {
    const { root, touch } = project(1_000_000)
    touch(BUILD_OUTPUT, 2_000_000)
    touch('src/server/deep', 3_000_000)
    expect(buildIsStale(root)).toBe(true)
  })
})
