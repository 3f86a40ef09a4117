// The scanner's rules, free of disk and database so they are unit-tested on their own: which
// files a scan must read (new, changed by size or mtime, stale rows, or all of them on a full scan), which
// indexed paths are gone, how a cover image beside the files is recognised, and the ids of
// tracks, albums and artists (hashes of what identifies them, so they are the same after any
// rescan, and an album keeps its id when its files come back after a missing drive).

export type FoundFile = { path: string; size: number; mtimeMs: number }
/** `stale`: the index row needs a read although the file did not change (see scan.ts). */
export type IndexedFile = { size: number; mtimeMs: number; stale?: boolean }
export type ScanPlan<F extends FoundFile> = { read: F[]; removed: string[]; unchanged: number }

export function planScan<F extends FoundFile>(indexed: ReadonlyMap<string, IndexedFile>, found: readonly F[], full: boolean): ScanPlan<F> {
  const read: F[] = []
  const seen = new Set<string>()
  for (const file of found) {
    seen.add(file.path)
    const known = indexed.get(file.path)
    if (full || !known || known.stale || known.size !== file.size || known.mtimeMs !== file.mtimeMs) read.push(file)
  }
  const removed: string[] = []
  for (const path of indexed.keys()) if (!seen.has(path)) removed.push(path)
  return { read, removed, unchanged: found.length - read.length }
}

// Names people and taggers give a folder's artwork, best first (Navidrome's default order).
const COVER_STEMS = ['cover', 'folder', 'front', 'album', 'albumart']
const COVER_FILE = /^([^.]+)\.(jpe?g|png|gif|webp)$/i

/** The rank of a file name as a folder's cover image (lower is better), or -1 when it is none. */
export function coverRank(fileName: string): number {
  const m = COVER_FILE.exec(fileName)
  return m ? COVER_STEMS.indexOf(m[1].toLowerCase()) : -1
}

export const isImageFileName = (name: string) => /\.(jpe?g|png|gif|webp)$/i.test(name)

const hash = (key: string) => new Bun.CryptoHasher('sha1').update(key).digest('hex').slice(0, 16)
const fold = (s: string) => s.normalize('NFC').trim().toLowerCase()

export const trackId = (path: string) => hash(`track\0${path}`)
export const artistId = (name: string) => hash(`artist\0${fold(name)}`)
/** Untagged albums are one per folder, not one giant "Unknown Album" across the library. */
export const albumId = (albumArtist: string, album: string | null, folder: string) =>
  hash(album ? `album\0${fold(albumArtist)}\0${fold(album)}` : `album\0${fold(albumArtist)}\0\0${folder}`)
