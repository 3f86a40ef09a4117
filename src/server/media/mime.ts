// The spec's extension → MIME map (§3 "Extension to MIME map"); unknown extensions give
// audio/mpeg. Shared by the library listing, /media and remote playlists.
export const MEDIA_MIME: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  wma: 'audio/x-ms-wma',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
}

export const DEFAULT_MIME = 'audio/mpeg'

/** The lower-case extension of a file name or URL path ('' when none). */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1)
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
}

export const isMediaName = (name: string) => Object.hasOwn(MEDIA_MIME, extensionOf(name))

export const mimeOf = (name: string) => MEDIA_MIME[extensionOf(name)] ?? DEFAULT_MIME
