// Embedded cover art of library files, read with music-metadata. A small in-memory cache keeps
// the covers a playlist page shows (keyed by path, size and mtime, so edits invalidate it).
// A cover is only ever a JPEG, PNG, GIF or WebP image, typed by its bytes: a tag can claim
// anything (`text/html` with a script inside), and /media serves from our own origin. The
// library index also points covers at image files beside the music (cover.jpg, folder.png…):
// `?cover=1` on such a file serves its bytes under the same rule.
import { readFileSync, type Stats } from 'node:fs'
import type { IPicture } from 'music-metadata'
import { imageTypeOf, type ImageType } from '~/shared/image-type'
import { parseTags } from './parse-tags'

export type Cover = { mime: ImageType; data: Uint8Array }
const MAX_ENTRIES = 64
/** A folder image larger than this is not served as a cover (a cover is a few hundred KB). */
const MAX_IMAGE_FILE_BYTES = 20 * 1024 * 1024
const IMAGE_FILE = /\.(jpe?g|png|gif|webp)$/i
const cache = new Map<string, Cover | null>()

/** The front cover (else the first picture) that really is an image, typed by its bytes. */
export function pickCover(pictures: readonly IPicture[] | undefined): Cover | null {
  const ordered = [...(pictures ?? [])].sort((a, b) => Number(/front/i.test(b.type ?? '')) - Number(/front/i.test(a.type ?? '')))
  for (const picture of ordered) {
    const mime = imageTypeOf(picture.data)
    if (mime) return { mime, data: picture.data }
  }
  return null
}

export async function readCover(realPath: string, st: Stats): Promise<Cover | null> {
  const key = `${realPath}\n${st.size}\n${st.mtimeMs}`
  if (cache.has(key)) return cache.get(key)!
  let cover: Cover | null = null
  try {
    if (IMAGE_FILE.test(realPath)) {
      const data = st.size <= MAX_IMAGE_FILE_BYTES ? new Uint8Array(readFileSync(realPath)) : new Uint8Array()
      const mime = imageTypeOf(data)
      cover = mime ? { mime, data } : null
    } else {
      const meta = await parseTags(realPath, { duration: false, skipPostHeaders: true })
      cover = pickCover(meta.common.picture)
    }
  } catch {}
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(key, cover)
  return cover
}
