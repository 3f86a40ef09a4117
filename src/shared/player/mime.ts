// The spec's extension → MIME map (§3) and the accepted local-folder extensions (§5).
export const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
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

export const MEDIA_EXTENSIONS = Object.keys(MIME_BY_EXTENSION)

/** The lower-case extension of a file name or path ('' when none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const dot = base.lastIndexOf('.')
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : ''
}

/** MIME type by extension; unknown gives audio/mpeg. */
export function mimeFromName(name: string): string {
  return MIME_BY_EXTENSION[extensionOf(name)] ?? 'audio/mpeg'
}

/** Whether a local file is accepted as media (by extension only, as browsers report odd types). */
export function isMediaFileName(name: string): boolean {
  return extensionOf(name) in MIME_BY_EXTENSION
}

/** The accept attribute for file inputs. */
export const MEDIA_ACCEPT = MEDIA_EXTENSIONS.map((e) => `.${e}`).join(',')
