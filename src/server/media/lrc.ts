// Lyrics text as files and tags hold it: LRC (`[mm:ss.xx]` stamps, several per line for a
// repeated chorus, an `[offset:±ms]` tag, a `[la:eng]` language tag, `<mm:ss.xx>` word stamps of
// enhanced LRC) or plain text, one lyric line per line. Hand-written: the npm LRC parsers are
// small unmaintained packages, and this is the whole format.
import type { LyricLine, Lyrics } from '~/shared/lyrics'

export type { LyricLine, Lyrics }

export const UNKNOWN_LANG = 'xxx'
/** A line's stamps: [mm:ss], [mm:ss.x], [mm:ss.xx], [mm:ss.xxx] or [mm:ss:xx]. */
const STAMPS = /^((?:\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\]\s*)+)(.*)$/
const STAMP = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g
const ID_TAG = /^\[([a-z#]+):(.*)\]$/i
const WORD_STAMP = /<\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?>/g

const stampMs = (min: string, sec: string, frac = '') => (Number(min) * 60 + Number(sec)) * 1000 + (frac ? Math.round(Number(`0.${frac}`) * 1000) : 0)
const cleanLang = (lang: string | undefined) => {
  const trimmed = lang?.trim().toLowerCase() ?? ''
  return /^[a-z]{2,3}$/.test(trimmed) ? trimmed : UNKNOWN_LANG
}

/** Parses LRC or plain text; `lang` is the source's own (an ID3 frame's language), if any. Null when there is no text. */
export function parseLyricsText(text: string, lang?: string): Lyrics | null {
  const synced: LyricLine[] = []
  const plain: string[] = []
  let offset = 0
  let tagLang: string | undefined
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim()
    const stamped = STAMPS.exec(line)
    if (stamped) {
      const value = stamped[2].replace(WORD_STAMP, '').trim()
      for (const m of stamped[1].matchAll(STAMP)) synced.push({ start: stampMs(m[1], m[2], m[3]), value })
      continue
    }
    const tag = ID_TAG.exec(line)
    if (tag) {
      const name = tag[1].toLowerCase()
      if (name === 'offset' && /^\s*[+-]?\d{1,7}\s*$/.test(tag[2])) offset = Number(tag[2])
      else if (name === 'la' || name === 'lang' || name === 'language') tagLang = tag[2]
      continue
    }
    plain.push(line)
  }
  const language = cleanLang(tagLang ?? lang)
  if (synced.length > 0) {
    // Several stamps on one line put it at several places: order by time (a stable sort keeps file order on ties).
    synced.sort((a, b) => a.start! - b.start!)
    return { lang: language, synced: true, lines: synced, offset }
  }
  // Blank lines between verses are kept, but not at either end.
  while (plain.length > 0 && plain[0] === '') plain.shift()
  while (plain.length > 0 && plain[plain.length - 1] === '') plain.pop()
  if (plain.length === 0) return null
  return { lang: language, synced: false, lines: plain.map((value) => ({ value })), offset: 0 }
}

/** Lyrics as one plain text (the classic getLyrics answer): the lines without their times. */
export const lyricsText = (lyrics: Lyrics) => lyrics.lines.map((l) => l.value).join('\n')
