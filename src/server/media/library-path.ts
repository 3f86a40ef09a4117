// Paths inside the server music library (MEDIA_ROOT). Every path that reaches the disk goes
// through resolveInside: no '.'/'..' segments, no NUL bytes, and the real path (symlinks
// followed) must stay inside MEDIA_ROOT's real path.
import { realpathSync } from 'node:fs'
import { config } from '../config'

let rootReal: string | null = null

/**
 * MEDIA_ROOT with symlinks resolved; throws when it does not exist. Never created here: a
 * mistyped MEDIA_ROOT is warned about at start-up, and an empty folder in its place would hide
 * the mistake. Kept once found, so creating the folder later needs no restart.
 */
export function mediaRoot(): string {
  rootReal ??= realpathSync(config.MEDIA_ROOT)
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
  try {
    // A missing MEDIA_ROOT makes every library path missing (a 404), never a server error.
    const root = mediaRoot()
    const real = realpathSync(rel ? `${root}/${rel}` : root)
    return isInside(root, real) ? real : null
  } catch {
    return null
  }
}
