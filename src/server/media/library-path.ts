// Paths inside the server music library (MEDIA_ROOT). Every path that reaches the disk goes
// through resolveInside: no '.'/'..' segments, no NUL bytes, and the real path (symlinks
// followed) must stay inside MEDIA_ROOT's real path.
import { mkdirSync, realpathSync } from 'node:fs'
import { config } from '../config'

let rootReal: string | null = null

/** MEDIA_ROOT with symlinks resolved (created when missing, so a fresh install just works). */
export function mediaRoot(): string {
  if (rootReal) return rootReal
  mkdirSync(config.MEDIA_ROOT, { recursive: true })
  rootReal = realpathSync(config.MEDIA_ROOT)
  return rootReal
}

/** '/music//collection/' → 'music/collection'; null for '.', '..', NUL or other bad segments. */
export function normalizeRelPath(input: string): string | null {
  if (input.includes('\0')) return null
  const segments = input.split('/').filter((s) => s !== '')
  if (segments.some((s) => s === '.' || s === '..')) return null
  return segments.join('/')
}

export const isInside = (root: string, real: string) => real === root || real.startsWith(root + '/')

/** The real absolute path of a library path, or null when it is missing or escapes MEDIA_ROOT. */
export function resolveInside(relPath: string): string | null {
  const rel = normalizeRelPath(relPath)
  if (rel === null) return null
  const root = mediaRoot()
  try {
    const real = realpathSync(rel ? `${root}/${rel}` : root)
    return isInside(root, real) ? real : null
  } catch {
    return null
  }
}
