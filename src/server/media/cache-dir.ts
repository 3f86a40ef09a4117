// The two caches under DATA_DIR — converted files (transcode-cache) and scaled covers for apps
// (cover-cache) — kept to a size cap the same way: each hit sets the file's access time, so the
// atime is the last use, and after a new copy is written the least recently used go first. The
// mtime stays when the copy was written: nginx derives a served copy's ETag and Last-Modified
// from it (MEDIA_OFFLOAD=nginx), which must not change from one hit to the next.
// The cap is a target checked after each write, not a hard limit: the copy just made always stays.
import { statSync, utimesSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'

export const CACHE_LIMITS = {
  /** A converted track is a few MB, a converted video hundreds. */
  transcodeBytes: 2 * 1024 ** 3,
  /** A thumbnail is 10–30 KB: about ten thousand covers and sizes. */
  coverBytes: 256 * 1024 ** 2,
} as const

export type CachedFile = { file: string; size: number /** Last use (ms): the file's atime, set on each hit. */; used: number }

const STALE_PART_MS = 24 * 3600_000

/**
 * The cached copies to delete: least recently used first until the rest fit `limit` (never
 * `keep`, the copy just made, nor a `.part` being written), and any `.part` a day old — what a
 * crash or a kill -9 left behind.
 */
export function cacheEvictions(files: CachedFile[], opts: { limit: number; keep: string; now: number }): string[] {
  const out: string[] = []
  let total = files.reduce((sum, f) => sum + f.size, 0)
  for (const f of [...files].sort((a, b) => a.used - b.used)) {
    if (f.file.endsWith('.part')) {
      if (opts.now - f.used > STALE_PART_MS) {
        out.push(f.file)
        total -= f.size
      }
      continue
    }
    if (total <= opts.limit || f.file === opts.keep) continue
    out.push(f.file)
    total -= f.size
  }
  return out
}

/** Marks a cached copy as used now (a hit): its atime; its mtime is kept. */
export function touchCached(file: string) {
  utimesSync(file, new Date(), statSync(file).mtime)
}

/**
 * Applies cacheEvictions to a cache directory, after `keep` was written there. Asynchronous: a
 * cache of ten thousand covers is ten thousand stats, done on the thread pool, not the request loop.
 */
export async function trimCacheDir(dir: string, limit: number, keep: string) {
  const names = await readdir(dir)
  const files = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name)
      const st = await stat(file).catch(() => null)
      return st && { file, size: st.size, used: st.atimeMs }
    }),
  )
  const found = files.filter((f): f is CachedFile => f !== null)
  await Promise.all(cacheEvictions(found, { limit, keep, now: Date.now() }).map((file) => rm(file, { force: true })))
}
