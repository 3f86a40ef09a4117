// The product's extension → MIME map (unknown gives audio/mpeg) and the accepted local-folder
// extensions. A Map, not
// an object literal: file names come from users and remote listings, and a lookup on a plain
// object finds inherited properties ('x.constructor' would be media with a function as its MIME).
const MIME_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['mp3', 'audio/mpeg'],
  ['wav', 'audio/wav'],
  ['m4a', 'audio/mp4'],
  ['aac', 'audio/aac'],
  ['ogg', 'audio/ogg'],
  ['flac', 'audio/flac'],
  ['wma', 'audio/x-ms-wma'],
  ['mp4', 'video/mp4'],
  ['webm', 'video/webm'],
  ['ogv', 'video/ogg'],
  ['mov', 'video/quicktime'],
  ['avi', 'video/x-msvideo'],
  ['mkv', 'video/x-matroska'],
])

export const MEDIA_EXTENSIONS = [...MIME_BY_EXTENSION.keys()]

/** The lower-case extension of a file name or path ('' when none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
}

/** Whether a lower-case extension is one of the accepted media extensions. */
export const isMediaExtension = (ext: string) => MIME_BY_EXTENSION.has(ext)

/** MIME type by extension; unknown gives audio/mpeg. */
export function mimeFromName(name: string): string {
  return MIME_BY_EXTENSION.get(extensionOf(name)) ?? 'audio/mpeg'
}

/** Whether a local file is accepted as media (by extension only, as browsers report odd types). */
export function isMediaFileName(name: string): boolean {
  return isMediaExtension(extensionOf(name))
}
