// What a library keeps beside its music about an artist or an album, read on request (decision
// 076): `artist.jpg` / `artist.png` (the artist's picture) and `artist.txt` (a biography) in the
// artist's folder, `album.txt` / `notes.txt` (notes) in an album's folder. The artist's folder is
// the parent of the folders its tracks are in (Artist/Album/track), or that folder itself when
// the parent is MEDIA_ROOT (Artist/track). Every file goes through resolveInside, so a symlink out
// of MEDIA_ROOT is never read; the names are fixed, so hidden files are never candidates. A text
// is read up to MAX_TEXT_BYTES and kept as plain text: control characters and anything shaped
// like markup go (apps show a biography as HTML). Results are cached by path, size and mtime, so
// an edited file shows at once without a rescan.
import { openSync, readSync, closeSync, statSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type Db, firstRow, rows } from '~/db/engine'
import { imageTypeOf } from '~/shared/image-type'
import { resolveInside } from '../media/library-path'

/** A biography or notes longer than this is cut (a page of text, not a book). */
export const MAX_TEXT_BYTES = 16 * 1024
/** A picture larger than this is not the artist's picture (a portrait is a few hundred KB). */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024
/** How many of an artist's folders are looked at (an artist on a thousand compilations stays cheap). */
const MAX_FOLDERS = 20
const ARTIST_IMAGES = ['artist.jpg', 'artist.jpeg', 'artist.png', 'artist.webp']
const ALBUM_TEXTS = ['album.txt', 'notes.txt']
const MAX_ENTRIES = 256
const textCache = new Map<string, string>()

/** The file's text as plain text: markup and control characters removed, at most MAX_TEXT_BYTES read. */
export function plainText(bytes: Uint8Array): string {
  return (
    new TextDecoder('utf-8', { fatal: false })
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .replace(/<[^>]*>?/g, '')
      .replace(/[<>]/g, '')
      .replace(/\r\n?/g, '\n')
      // Control characters (but tab and newline) and the replacement character of invalid UTF-8.
      .replace(/[\p{Cc}\uFFFD]/gu, (c) => (c === '\n' || c === '\t' ? c : ''))
      .trim()
  )
}

function readHead(real: string, bytes: number): Uint8Array {
  const buf = new Uint8Array(bytes)
  const fd = openSync(real, 'r')
  try {
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0))
  } finally {
    closeSync(fd)
  }
}

/** The text of a library file, or null when it is missing, outside MEDIA_ROOT or empty. */
function textOf(relPath: string): string | null {
  const real = resolveInside(relPath)
  const st = real ? statSync(real, { throwIfNoEntry: false }) : undefined
  if (!real || !st?.isFile()) return null
  const key = `${real}\n${st.size}\n${st.mtimeMs}`
  let text = textCache.get(key)
  if (text === undefined) {
    text = plainText(readHead(real, Math.min(st.size, MAX_TEXT_BYTES)))
    if (textCache.size >= MAX_ENTRIES) textCache.delete(textCache.keys().next().value!)
    textCache.set(key, text)
  }
  return text || null
}

/** Whether a library file is an image inside MEDIA_ROOT, typed by its first bytes. */
function isImage(relPath: string): boolean {
  const real = resolveInside(relPath)
  const st = real ? statSync(real, { throwIfNoEntry: false }) : undefined
  return !!real && !!st?.isFile() && st.size <= MAX_IMAGE_BYTES && imageTypeOf(readHead(real, 64)) !== null
}

/** The artist's folders from its track folders (most tracks first): each one's parent, or the folder itself at the top. */
function artistFolders(trackFolders: Array<{ folder: string }>): string[] {
  const out: string[] = []
  for (const { folder } of trackFolders) {
    const parent = path.posix.dirname(folder)
    const candidate = parent === '.' || parent === '' ? folder : parent
    if (candidate && !out.includes(candidate)) out.push(candidate)
  }
  return out
}

export type ArtistFiles = { imagePath: string | null; biography: string | null }

function filesIn(folders: string[]): ArtistFiles {
  let imagePath: string | null = null
  let biography: string | null = null
  for (const folder of folders) {
    imagePath ??= ARTIST_IMAGES.map((name) => `${folder}/${name}`).find(isImage) ?? null
    biography ??= textOf(`${folder}/artist.txt`)
    if (imagePath && biography) break
  }
  return { imagePath, biography }
}

function notesIn(folder: string | null | undefined): string | null {
  if (!folder) return null
  for (const name of ALBUM_TEXTS) {
    const text = textOf(`${folder}/${name}`)
    if (text) return text
  }
  return null
}

/** The artist's picture (a library path) and biography from the files beside its music. */
export async function artistFiles(db: Db, artistId: string): Promise<ArtistFiles> {
  const folders = await rows<{ folder: string }>(
    db,
    sql`SELECT folder FROM library_tracks WHERE artist_id = ${artistId} GROUP BY folder ORDER BY count(*) DESC, folder LIMIT ${MAX_FOLDERS}`,
  )
  return filesIn(artistFolders(folders))
}

/** An album's notes (album.txt, else notes.txt, in the folder of its tracks), or null. */
export async function albumNotes(db: Db, albumId: string): Promise<string | null> {
  return notesIn((await firstRow<{ folder: string | null }>(db, sql`SELECT min(folder) AS folder FROM library_tracks WHERE album_id = ${albumId}`))?.folder)
}
