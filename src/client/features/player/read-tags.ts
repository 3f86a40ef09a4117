// Tags from local files, read in the browser. music-metadata is imported on first use so the
// player page's initial JavaScript stays small.
import { imageTypeOf } from '~/shared/image-type'
import { inferArtist, inferYear } from '~/shared/player/file-name'
import { OGG_MAX_PAGE, oggDurationInTail, oggGranuleRate } from '~/shared/player/ogg-last-page'

export type FileTags = { title?: string; artist?: string; album?: string; genre?: string; year?: number; duration?: number; cover?: Blob }

let loader: Promise<typeof import('music-metadata')> | null = null

const READ_TIMEOUT_MS = 10_000

function loadParser() {
  loader ??= import('music-metadata').catch((error) => {
    loader = null // a failed chunk load may succeed next time
    throw error
  })
  return loader
}

/**
 * Starts loading the tag reader when someone shows they are about to pick a folder, so the first
 * track's tags are usually read before it starts (and its play event carries them).
 */
export function warmTagReader() {
  void loadParser().catch(() => {})
}

export async function readTags(file: File): Promise<FileTags> {
  const mm = await loadParser()
  // A file the parser cannot finish must not hold up the rest of the folder.
  const meta = await Promise.race([
    mm.parseBlob(file, { duration: false, skipCovers: false, skipPostHeaders: true }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('tag read timed out')), READ_TIMEOUT_MS)),
  ])
  const c = meta.common
  const tags: FileTags = {}
  if (c.title?.trim()) tags.title = c.title.trim()
  const artist = c.artist ?? c.albumartist ?? c.artists?.[0]
  if (artist?.trim()) tags.artist = artist.trim()
  else if (tags.title) {
    const inferred = inferArtist(tags.title)
    if (inferred) Object.assign(tags, inferred)
  }
  if (c.album?.trim()) tags.album = c.album.trim()
  if (c.genre?.[0]?.trim()) tags.genre = c.genre[0].trim()
  const year = c.year ?? (c.date ? inferYear(c.date) : undefined) ?? (tags.title ? inferYear(tags.title) : undefined)
  if (year && year >= 1000 && year <= 2999) tags.year = year
  if (meta.format.duration && Number.isFinite(meta.format.duration)) tags.duration = meta.format.duration
  // An Ogg file's length is only on its last page, which the tag pass does not reach: read the
  // file's tail (one page at most), so Up Next shows it before the track plays.
  else if (meta.format.container === 'Ogg') {
    const tail = new Uint8Array(await file.slice(Math.max(0, file.size - OGG_MAX_PAGE)).arrayBuffer())
    const seconds = oggDurationInTail(tail, oggGranuleRate(meta.format.codec, meta.format.sampleRate))
    if (seconds) tags.duration = seconds
  }
  // The blob's type comes from the picture's bytes, never its tag: a blob: URL typed text/html
  // would open as a page of our origin. Anything but JPEG, PNG, GIF or WebP is no cover.
  const pic = c.picture?.[0]
  const coverType = pic?.data ? imageTypeOf(pic.data) : null
  if (pic && coverType) tags.cover = new Blob([pic.data as Uint8Array<ArrayBuffer>], { type: coverType })
  return tags
}
