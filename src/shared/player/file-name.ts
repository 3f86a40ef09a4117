// Metadata from file names and titles: 'Artist - Title' (or 'Artist-Title'), 'a: b', a
// 19xx/20xx year; and the folder name shown in "Playing {n} tracks from {folder}".

/** Title and artist from a file name (extension dropped, underscores read as spaces). */
export function parseFileName(fileName: string): { title: string; artist: string } {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const stem = base
    .replace(/\.[^.]+$/, '')
    .replace(/_/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  // ' - ' first; a bare '-' only when no spaced dash exists (so "Jay-Z - Song" keeps Jay-Z).
  let parts = splitOnce(stem, ' - ')
  if (!parts) parts = splitOnce(stem, '-')
  if (parts) return { artist: parts[0], title: parts[1] }
  return { artist: '', title: stem }
}

function splitOnce(text: string, sep: string): [string, string] | null {
  const i = text.indexOf(sep)
  if (i <= 0) return null
  const left = text.slice(0, i).trim()
  const right = text.slice(i + sep.length).trim()
  return left && right ? [left, right] : null
}

/** Artist and title inferred from a title 'a - b' or 'a: b' (null when neither form fits). */
export function inferArtist(title: string): { artist: string; title: string } | null {
  const parts = splitOnce(title, ' - ') ?? splitOnce(title, ': ')
  return parts ? { artist: parts[0], title: parts[1] } : null
}

/** A 4-digit year 19xx or 20xx standing on its own in the text. */
export function inferYear(text: string): number | undefined {
  const m = /(?:^|\D)((?:19|20)\d\d)(?!\d)/.exec(text)
  return m ? Number(m[1]) : undefined
}

const GENERIC_SEGMENTS = new Set(['api', 'media', 'audio', 'music'])

/** The nearest path segment that is not api, media, audio or music (decoded); '' when none. */
export function folderNameFromUrl(url: string): string {
  let path = url
  try {
    path = new URL(url).pathname
  } catch {}
  const segments = path.split(/[?#]/)[0].split('/').filter(Boolean)
  for (let i = segments.length - 1; i >= 0; i--) {
    let seg = segments[i]
    try {
      seg = decodeURIComponent(seg)
    } catch {}
    // A trailing file (playlist.m3u) is not a folder.
    if (i === segments.length - 1 && /\.[a-z0-9]{2,5}$/i.test(seg) && !url.endsWith('/')) continue
    if (!GENERIC_SEGMENTS.has(seg.toLowerCase())) return seg
  }
  try {
    return new URL(url).hostname
  } catch {
    return ''
  }
}
