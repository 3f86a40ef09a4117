// Pure request rules of /media (no config, no disk): which library path a URL names, and
// which byte range a Range header asks for.
import { MEDIA_PREFIX } from './sign'

/** The decoded library path of a /media/ URL path, or null when it is malformed. */
export function mediaPathOf(pathname: string): string | null {
  if (!pathname.startsWith(MEDIA_PREFIX)) return null
  const segments = pathname.slice(MEDIA_PREFIX.length).split('/')
  const out: string[] = []
  for (const raw of segments) {
    let s: string
    try {
      s = decodeURIComponent(raw)
    } catch {
      return null
    }
    // An encoded slash, NUL or dot segment never names a file we signed.
    if (s === '' || s === '.' || s === '..' || s.includes('/') || s.includes('\0')) return null
    out.push(s)
  }
  return out.length ? out.join('/') : null
}

export type ByteRange = { start: number; end: number }

/** One `bytes=` range → inclusive bounds; 'unsatisfiable'; or null to ignore (absent, multiple, malformed). */
export function parseRange(header: string | null, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  if (m[2] !== '' && Number(m[2]) < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}
