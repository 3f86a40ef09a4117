// Which picture a byte string really is, read from its magic bytes. Cover art comes from tags
// that anyone can write: an audio file may label an HTML page "image/jpeg" or declare its
// picture `text/html`. Served from our origin (/media?cover=1) or opened from a blob: URL, such
// a "picture" would run as a page of this site, so covers are only ever the four image types a
// browser shows in <img>, decided here and never by the tag. Pure; used by the server and the
// browser alike.

export type ImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => bytes.length >= at + magic.length && magic.every((b, i) => bytes[at + i] === b)
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG = [0xff, 0xd8, 0xff]
const GIF87 = ascii('GIF87a')
const GIF89 = ascii('GIF89a')
const RIFF = ascii('RIFF')
const WEBP = ascii('WEBP')

/** The image type of `bytes` by signature, or null for anything else (HTML, SVG, text, junk). */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, JPEG)) return 'image/jpeg'
  if (startsWith(bytes, PNG)) return 'image/png'
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif'
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp'
  return null
}
