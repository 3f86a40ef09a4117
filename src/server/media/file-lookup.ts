// Which file a /media request names, and its stat, without resolving the path every time.
// realpath was the largest of our own costs in a /media answer's profile (decision 041), and a
// player asks for the same file again and again (Range after Range).
// So a library path's real path is kept for a few seconds, and each use checks it with one lstat:
// still a regular file (not a symlink) with the same device and inode as when it was resolved.
// A file replaced, deleted, or turned into a link (to anywhere) fails the check and is resolved
// again at once, so nothing outside MEDIA_ROOT is ever served. What the few seconds allow: a
// symlink inside the library re-pointed to another file still answers its old target (a file
// inside the library) until the entry expires. The stat is fresh on every request, so size,
// ETag and Last-Modified always describe the bytes sent.
import { lstatSync, type Stats } from 'node:fs'

export type LibraryFile = { real: string; st: Stats }

type Entry = { real: string; dev: number; ino: number; resolvedAt: number }

export type FileLookupOptions = {
  /** A library path → its real path inside MEDIA_ROOT, or null (library-path.ts resolveInside). */
  resolve: (relPath: string) => string | null
  /** How long a resolved path is trusted (its inode is still checked on every use). */
  ttlMs: number
  /** At most this many paths are kept; the map starts over when full. */
  maxEntries: number
  now?: () => number
}

function regularFile(real: string): Stats | null {
  try {
    const st = lstatSync(real)
    return st.isFile() ? st : null
  } catch {
    return null
  }
}

export function createFileLookup({ resolve, ttlMs, maxEntries, now = performance.now.bind(performance) }: FileLookupOptions) {
  const entries = new Map<string, Entry>()

  /** The real path and stat of a regular file inside the library, or null (missing, not a file, outside). */
  return function lookup(relPath: string): LibraryFile | null {
    const at = now()
    const kept = entries.get(relPath)
    if (kept && at - kept.resolvedAt < ttlMs) {
      const st = regularFile(kept.real)
      if (st && st.ino === kept.ino && st.dev === kept.dev) return { real: kept.real, st }
    }
    entries.delete(relPath)
    const real = resolve(relPath)
    // A resolved path has no links left in it, so its lstat is the file's own.
    const st = real ? regularFile(real) : null
    if (!real || !st) return null
    if (entries.size >= maxEntries) entries.clear()
    entries.set(relPath, { real, dev: st.dev, ino: st.ino, resolvedAt: at })
    return { real, st }
  }
}
