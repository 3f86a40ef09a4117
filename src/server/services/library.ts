// The server music library: a folder's media files (the folder and below, natural order) with
// tags read by music-metadata. Tags are cached in media_tags by (path, size, mtime), so the
// second listing of a large folder only walks the directory and reads one indexed range.
// A listing of 10,000 files is a few hundred ms of work: it hands the event loop back every
// ~20 ms (between directories, write batches and output chunks) so other requests and media
// streams keep flowing, and tags are parsed 4 files at a time.
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { TRPCError } from '@trpc/server'
import { inArray, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { mediaTags, type MediaTags } from '~/db/schema'
import { pickCover } from '../media/covers'
import { parseTags } from '../media/parse-tags'
import { isInside, mediaRoot, normalizeRelPath, resolveInside } from '../media/library-path'
import { mimeFromName } from '~/shared/player/mime'
import { signMediaUrl } from '../media/sign'
import { mediaSource } from '../media/transcode'
import { isLibraryMediaName } from '../media/transcode-profile'
import { DEFAULT_ALBUM, type Track } from '~/shared/player/track'
import { fileTitle, naturalCompare } from '../media/natural'

/** A listing stops collecting here; larger folders should be split into sub-folders. */
export const MAX_LIBRARY_TRACKS = 20_000
const MAX_DEPTH = 32
const PARSE_CONCURRENCY = 4

type FileEntry = { rel: string; real: string; size: number; mtimeMs: number }

const SLICE_MS = 20

/** Returns `pause()`: resolves at once, or after a macrotask when the current slice is used up. */
function slicer() {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}

type Item = { dir: boolean; real: string; rel: string; name: string; depth: number }

/**
 * Media files under a real directory in natural path order (symlinks followed only while they
 * stay in the library). Each directory's entries are sorted when it is read and visited
 * depth-first in that order, which is exactly the order of a segment-by-segment natural sort of
 * the paths, without one big sort at the end; the walk pauses between directories.
 */
async function walk(root: string, dirReal: string, dirRel: string, pause: () => Promise<void>): Promise<FileEntry[]> {
  const out: FileEntry[] = []
  const seen = new Set<string>([dirReal])
  const stack: Item[] = [{ dir: true, real: dirReal, rel: dirRel, name: '', depth: 0 }]
  while (stack.length && out.length < MAX_LIBRARY_TRACKS) {
    const item = stack.pop()!
    if (!item.dir) {
      const st = statSync(item.real, { throwIfNoEntry: false })
      if (st?.isFile() && isInside(root, item.real)) out.push({ rel: item.rel, real: item.real, size: st.size, mtimeMs: Math.floor(st.mtimeMs) })
      continue
    }
    await pause()
    let entries: Dirent[]
    try {
      entries = readdirSync(item.real, { withFileTypes: true })
    } catch {
      continue
    }
    const children: Item[] = []
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      const rel = item.rel ? `${item.rel}/${e.name}` : e.name
      let real = `${item.real}/${e.name}`
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        const resolved = resolveInside(rel)
        const st = resolved ? statSync(resolved, { throwIfNoEntry: false }) : undefined
        if (!resolved || !st) continue
        real = resolved
        isDir = st.isDirectory()
        isFile = st.isFile()
      }
      if (isDir && item.depth < MAX_DEPTH && !seen.has(real)) {
        seen.add(real)
        children.push({ dir: true, real, rel, name: e.name, depth: item.depth + 1 })
      } else if (isFile && isLibraryMediaName(e.name)) {
        children.push({ dir: false, real, rel, name: e.name, depth: item.depth + 1 })
      }
    }
    // Reversed onto the stack, so the first in natural order is visited first.
    children.sort((a, b) => naturalCompare(b.name, a.name))
    for (const c of children) stack.push(c)
  }
  return out
}

type Tags = Omit<MediaTags, 'path' | 'size' | 'mtimeMs'>

async function readTags(file: FileEntry): Promise<Tags> {
  try {
    const { common, format } = await parseTags(file.real, { duration: false })
    const clean = (s: string | undefined) => (s && s.trim() ? s.trim().slice(0, 500) : null)
    return {
      title: clean(common.title),
      artist: clean(common.artist ?? common.albumartist),
      album: clean(common.album),
      genre: clean(common.genre?.[0]),
      year: common.year && common.year > 0 && common.year < 10_000 ? common.year : null,
      duration: format.duration && Number.isFinite(format.duration) ? Math.round(format.duration * 1000) / 1000 : null,
      // The type the cover will be served as (by its bytes); none when no picture is an image.
      coverMime: pickCover(common.picture)?.mime ?? null,
    }
  } catch {
    // Unreadable or untagged: cache the miss too, so it is not parsed on every listing.
    return { title: null, artist: null, album: null, genre: null, year: null, duration: null, coverMime: null }
  }
}

/** Cached tags for every file under `prefix` (one range scan over the primary key). */
function cachedTags(db: Db, prefix: string): Map<string, MediaTags> {
  // The raw statement: on 10,000 rows Drizzle's row mapping costs more than the query itself.
  const sqlText = `SELECT path, size, mtime_ms AS mtimeMs, title, artist, album, genre, year, duration, cover_mime AS coverMime FROM media_tags${prefix ? ' WHERE path >= ?1 AND path < ?2' : ''}`
  const query = db.$client.query<MediaTags, string[]>(sqlText)
  const rows = prefix ? query.all(`${prefix}/`, `${prefix}0`) : query.all()
  return new Map(rows.map((r) => [r.path, r]))
}

/** Upserts in batches of 500 rows, one short transaction each, pausing between them. */
async function storeTags(db: Db, rows: MediaTags[], pause: () => Promise<void>) {
  for (let i = 0; i < rows.length; i += 500) {
    await pause()
    db.insert(mediaTags)
      .values(rows.slice(i, i + 500))
      .onConflictDoUpdate({
        target: mediaTags.path,
        set: {
          size: sql`excluded.size`,
          mtimeMs: sql`excluded.mtime_ms`,
          title: sql`excluded.title`,
          artist: sql`excluded.artist`,
          album: sql`excluded.album`,
          genre: sql`excluded.genre`,
          year: sql`excluded.year`,
          duration: sql`excluded.duration`,
          coverMime: sql`excluded.cover_mime`,
        },
      })
      .run()
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i])
      }
    }),
  )
  return out
}

export const folderNotInLibrary = (folderPath: string) => `Folder not found in the music library: ${folderPath}`

/** A folder path such as '/music/collection' as a directory inside MEDIA_ROOT, or null. */
export function libraryFolder(folderPath: string): { rel: string; dirReal: string } | null {
  const rel = normalizeRelPath(folderPath)
  const dirReal = rel === null ? null : resolveInside(rel)
  try {
    return rel !== null && dirReal && statSync(dirReal).isDirectory() ? { rel, dirReal } : null
  } catch {
    return null
  }
}

/** The tracks of a library folder such as '/music/collection', with signed /media URLs. */
export async function listLibraryFolder(db: Db, folderPath: string, secret: string): Promise<Track[]> {
  const folder = libraryFolder(folderPath)
  if (!folder) throw new TRPCError({ code: 'NOT_FOUND', message: folderNotInLibrary(folderPath) })
  const { rel, dirReal } = folder

  const pause = slicer()
  const files = await walk(mediaRoot(), dirReal, rel, pause)
  await pause()
  const cache = cachedTags(db, rel)
  const stale = files.filter((f) => {
    const c = cache.get(f.rel)
    return !c || c.size !== f.size || c.mtimeMs !== f.mtimeMs
  })
  if (stale.length) {
    const fresh = await mapLimit(stale, PARSE_CONCURRENCY, async (f) => ({ path: f.rel, size: f.size, mtimeMs: f.mtimeMs, ...(await readTags(f)) }))
    await storeTags(db, fresh, pause)
    for (const row of fresh) cache.set(row.path, row)
  }
  // Rows of files that are gone (deleted, renamed) go too, so the cache does not grow forever;
  // only after a complete walk, when absence means the file is really not there.
  if (files.length < MAX_LIBRARY_TRACKS && cache.size > files.length) {
    const present = new Set(files.map((f) => f.rel))
    const gone = [...cache.keys()].filter((p) => !present.has(p))
    for (let i = 0; i < gone.length; i += 500)
      db.delete(mediaTags)
        .where(inArray(mediaTags.path, gone.slice(i, i + 500)))
        .run()
  }

  const tracks: Track[] = []
  for (const f of files) {
    if (tracks.length % 1000 === 0) await pause()
    const tags = cache.get(f.rel)
    const track: Track = {
      ...mediaSource(secret, f.rel, mimeFromName(f.rel)),
      title: tags?.title ?? fileTitle(f.rel),
      artist: tags?.artist ?? '',
      album: tags?.album ?? DEFAULT_ALBUM,
      duration: tags?.duration ?? 0,
    }
    if (tags?.genre) track.genre = tags.genre
    if (tags?.year) track.year = tags.year
    if (tags?.coverMime) track.cover = signMediaUrl(secret, f.rel, 'cover')
    tracks.push(track)
  }
  return tracks
}
