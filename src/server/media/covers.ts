// Embedded cover art of library files, read with music-metadata. A small in-memory cache keeps
// the covers a playlist page shows (keyed by path, size and mtime, so edits invalidate it).
import type { Stats } from 'node:fs'
import { parseFile } from 'music-metadata'

type Cover = { mime: string; data: Uint8Array }
const MAX_ENTRIES = 64
const cache = new Map<string, Cover | null>()

export async function readCover(realPath: string, st: Stats): Promise<Cover | null> {
  const key = `${realPath}\n${st.size}\n${st.mtimeMs}`
  if (cache.has(key)) return cache.get(key)!
  let cover: Cover | null = null
  try {
    const meta = await parseFile(realPath, { duration: false, skipPostHeaders: true })
    const pictures = meta.common.picture ?? []
    const picture = pictures.find((p) => /front/i.test(p.type ?? '')) ?? pictures[0]
    if (picture) cover = { mime: picture.format.includes('/') ? picture.format : `image/${picture.format}`, data: picture.data }
  } catch {}
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(key, cover)
  return cover
}
