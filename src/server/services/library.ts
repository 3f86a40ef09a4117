// The server music library: a folder's media files (the folder and below, natural order) with
// tags read by music-metadata. Tags are cached in media_tags by (path, size, mtime), so the
// second listing of a large folder only walks the directory and reads one indexed range.
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { TRPCError } from '@trpc/server'
import { and, gte, lt, sql } from 'drizzle-orm'
import { parseFile } from 'music-metadata'
import type { Db } from '~/db/client'
import { mediaTags, type MediaTags } from '~/db/schema'
import { isInside, mediaRoot, normalizeRelPath, resolveInside } from '../media/library-path'
import { isMediaName, mimeOf } from '../media/mime'
import { signMediaUrl } from '../media/sign'
import { fileTitle, naturalPathCompare, UNKNOWN_ALBUM, type PlaylistTrack } from '../media/track'

/** A listing stops collecting here; larger folders should be split into sub-folders. */
export const MAX_LIBRARY_TRACKS = 20_000
const MAX_DEPTH = 32
const PARSE_CONCURRENCY = 4

type FileEntry = { rel: string; real: string; size: number; mtimeMs: number }

/** Media files under a real directory (symlinks followed only while they stay in the library). */
function walk(root: string, dirReal: string, dirRel: string): FileEntry[] {
  const out: FileEntry[] = []
  const seen = new Set<string>([dirReal])
  const visit = (real: string, rel: string, depth: number) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(real, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      if (out.length >= MAX_LIBRARY_TRACKS) return
      if (e.name.startsWith('.')) continue
      const childRel = rel ? `${rel}/${e.name}` : e.name
      let childReal = `${real}/${e.name}`
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        const resolved = resolveInside(childRel)
        if (!resolved) continue
        childReal = resolved
        try {
          const st = statSync(resolved)
          isDir = st.isDirectory()
          isFile = st.isFile()
        } catch {
          continue
        }
      }
      if (isDir && depth < MAX_DEPTH && !seen.has(childReal)) {
        seen.add(childReal)
        visit(childReal, childRel, depth + 1)
      } else if (isFile && isMediaName(e.name)) {
        try {
          const st = statSync(childReal)
          if (isInside(root, childReal)) out.push({ rel: childRel, real: childReal, size: st.size, mtimeMs: Math.floor(st.mtimeMs) })
        } catch {}
      }
    }
  }
  visit(dirReal, dirRel, 0)
  return out
}

type Tags = Omit<MediaTags, 'path' | 'size' | 'mtimeMs'>

async function readTags(file: FileEntry): Promise<Tags> {
  try {
    const { common, format } = await parseFile(file.real, { duration: false })
    const clean = (s: string | undefined) => (s && s.trim() ? s.trim().slice(0, 500) : null)
    return {
      title: clean(common.title),
      artist: clean(common.artist ?? common.albumartist),
      album: clean(common.album),
      genre: clean(common.genre?.[0]),
      year: common.year && common.year > 0 && common.year < 10_000 ? common.year : null,
      duration: format.duration && Number.isFinite(format.duration) ? Math.round(format.duration * 1000) / 1000 : null,
      coverMime: common.picture?.[0]?.format ?? null,
    }
  } catch {
    // Unreadable or untagged: cache the miss too, so it is not parsed on every listing.
    return { title: null, artist: null, album: null, genre: null, year: null, duration: null, coverMime: null }
  }
}

/** Cached tags for every file under `prefix` (one range scan over the primary key). */
function cachedTags(db: Db, prefix: string): Map<string, MediaTags> {
  const rows = prefix
    ? db.select().from(mediaTags).where(and(gte(mediaTags.path, `${prefix}/`), lt(mediaTags.path, `${prefix}0`))).all()
    : db.select().from(mediaTags).all()
  return new Map(rows.map((r) => [r.path, r]))
}

function storeTags(db: Db, rows: MediaTags[]) {
  if (!rows.length) return
  db.transaction((tx) => {
    for (let i = 0; i < rows.length; i += 500) {
      tx.insert(mediaTags)
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
  })
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

/** The tracks of a library folder such as '/music/collection', with signed /media URLs. */
export async function listLibraryFolder(db: Db, folderPath: string, secret: string): Promise<PlaylistTrack[]> {
  const rel = normalizeRelPath(folderPath)
  const dirReal = rel === null ? null : resolveInside(rel)
  let isDir = false
  try {
    isDir = !!dirReal && statSync(dirReal).isDirectory()
  } catch {}
  if (rel === null || !dirReal || !isDir) throw new TRPCError({ code: 'NOT_FOUND', message: `Folder not found in the music library: ${folderPath}` })

  const files = walk(mediaRoot(), dirReal, rel).sort((a, b) => naturalPathCompare(a.rel, b.rel))
  const cache = cachedTags(db, rel)
  const stale = files.filter((f) => {
    const c = cache.get(f.rel)
    return !c || c.size !== f.size || c.mtimeMs !== f.mtimeMs
  })
  if (stale.length) {
    const fresh = await mapLimit(stale, PARSE_CONCURRENCY, async (f) => ({ path: f.rel, size: f.size, mtimeMs: f.mtimeMs, ...(await readTags(f)) }))
    storeTags(db, fresh)
    for (const row of fresh) cache.set(row.path, row)
  }

  return files.map((f) => {
    const tags = cache.get(f.rel)
    const track: PlaylistTrack = {
      url: signMediaUrl(secret, f.rel),
      title: tags?.title ?? fileTitle(f.rel),
      mime: mimeOf(f.rel),
      artist: tags?.artist ?? '',
      album: tags?.album ?? UNKNOWN_ALBUM,
      duration: tags?.duration ?? 0,
    }
    if (tags?.genre) track.genre = tags.genre
    if (tags?.year) track.year = tags.year
    if (tags?.coverMime) track.cover = signMediaUrl(secret, f.rel, 'cover')
    return track
  })
}
