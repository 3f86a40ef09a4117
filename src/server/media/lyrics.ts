// The lyrics of a library file, read when asked (decision 067), not stored by the scanner: a
// sidecar `.lrc` beside it (same base name) first, then the lyrics in its tags (ID3 SYLT with
// millisecond times, ID3 USLT, the TXXX:LYRICS kind some taggers and ffmpeg write, Vorbis/FLAC
// LYRICS and UNSYNCEDLYRICS, MP4 ©lyr, APE Lyrics). Both go through resolveInside, so nothing
// outside MEDIA_ROOT is read, and a sidecar over MAX_SIDECAR_BYTES is ignored. A small cache
// keyed by path, size and mtime of the file and its sidecar answers a player's repeated asks.
import { statSync } from 'node:fs'
import type { IAudioMetadata } from 'music-metadata'
import { type Lyrics, type LyricLine, parseLyricsText, UNKNOWN_LANG } from './lrc'
import { resolveInside } from './library-path'
import { parseTags } from './parse-tags'

/** An LRC file of a long song is a few KB; anything far larger is not lyrics. */
export const MAX_SIDECAR_BYTES = 256 * 1024
/** So is a lyrics tag: a longer text is cut here rather than sent to every app. */
const MAX_TEXT_CHARS = 64 * 1024
const MAX_ENTRIES = 64
const cache = new Map<string, Lyrics[]>()

const TEXT_TAG_IDS = new Set(['USLT', 'ULT', 'LYRICS', 'UNSYNCEDLYRICS', '©lyr', 'WM/Lyrics'])
/** TXXX descriptions that hold lyrics (ffmpeg writes `-metadata lyrics=…` to MP3 as TXXX:USLT). */
const TXXX_LYRICS = /^TXXX:(uslt|lyrics|unsyncedlyrics|syncedlyrics)(-[a-z]{3})?$/i
const MS_TIMESTAMPS = 2

type LyricsValue = { text?: unknown; language?: unknown; syncText?: unknown; timeStampFormat?: unknown }

/** The sidecar of `music/a/song.flac`: `music/a/song.lrc` (or `.LRC`), when it is inside MEDIA_ROOT. */
function sidecarOf(relPath: string): { real: string; size: number; mtimeMs: number } | null {
  const base = relPath.replace(/\.[^./]+$/, '')
  for (const ext of ['.lrc', '.LRC']) {
    const real = resolveInside(base + ext)
    if (!real) continue
    try {
      const st = statSync(real)
      if (st.isFile()) return { real, size: st.size, mtimeMs: st.mtimeMs }
    } catch {}
  }
  return null
}

/** Every set of lyrics of a library file (relative path), sidecar first; [] when it has none or is missing. */
export async function readLyrics(relPath: string): Promise<Lyrics[]> {
  const real = resolveInside(relPath)
  if (!real) return []
  let st: { size: number; mtimeMs: number }
  try {
    st = statSync(real)
  } catch {
    return []
  }
  const sidecar = sidecarOf(relPath)
  const key = `${real}\n${st.size}\n${st.mtimeMs}\n${sidecar ? `${sidecar.size}\n${sidecar.mtimeMs}` : ''}`
  const cached = cache.get(key)
  if (cached) return cached
  const found: Lyrics[] = []
  if (sidecar && sidecar.size <= MAX_SIDECAR_BYTES) {
    const parsed = parseLyricsText(await Bun.file(sidecar.real).text())
    if (parsed) found.push(parsed)
  }
  try {
    found.push(...tagLyrics(await parseTags(real, { duration: false, skipCovers: true })))
  } catch {
    // A file music-metadata cannot read has no tag lyrics; its sidecar still counts.
  }
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!)
  cache.set(key, found)
  return found
}

/** The lyrics in a file's tags, each frame or field one set, in tag order. */
export function tagLyrics(meta: IAudioMetadata): Lyrics[] {
  const found: Lyrics[] = []
  for (const tags of Object.values(meta.native)) {
    for (const { id, value } of tags) {
      const v: LyricsValue = typeof value === 'string' ? { text: value } : ((value ?? {}) as LyricsValue)
      const lang = typeof v.language === 'string' ? v.language : undefined
      if ((id === 'SYLT' || id === 'SLT') && v.timeStampFormat === MS_TIMESTAMPS && Array.isArray(v.syncText)) {
        const lines: LyricLine[] = v.syncText
          .filter((l): l is { text: string; timestamp: number } => typeof l?.text === 'string' && typeof l?.timestamp === 'number')
          .map((l) => ({ start: l.timestamp, value: l.text.trim() }))
          .sort((a, b) => a.start - b.start)
        if (lines.length > 0) found.push({ lang: lang && /^[a-z]{2,3}$/i.test(lang) ? lang.toLowerCase() : UNKNOWN_LANG, synced: true, lines, offset: 0 })
      } else if ((TEXT_TAG_IDS.has(id) || TXXX_LYRICS.test(id) || id.toUpperCase() === 'LYRICS') && typeof v.text === 'string') {
        const parsed = parseLyricsText(v.text.slice(0, MAX_TEXT_CHARS), lang)
        if (parsed) found.push(parsed)
      }
    }
  }
  return found
}
