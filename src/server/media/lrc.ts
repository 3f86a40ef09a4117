// Lyrics text as files and tags hold it: LRC (`[mm:ss.xx]` stamps, several per line for a
// repeated chorus, an `[offset:±ms]` tag, a `[la:eng]` language tag, `<mm:ss.xx>` word stamps of
// enhanced LRC) or plain text, one lyric line per line. Hand-written: the npm LRC parsers are
// small unmaintained packages, and this is the whole format.
import type { LyricCue, LyricLine, Lyrics } from '~/shared/lyrics'

export type { LyricCue, LyricLine, Lyrics }

export const UNKNOWN_LANG = 'xxx'
/** A line's stamps: [mm:ss], [mm:ss.x], [mm:ss.xx], [mm:ss.xxx] or [mm:ss:xx]. */
const STAMPS = /^((?:\[\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?\]\s*)+)(.*)$/
const STAMP = /\[(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?\]/g
const ID_TAG = /^\[([a-z#]+):(.*)\]$/i
const WORD_STAMP = /<\d{1,3}:\d{1,2}(?:[.:]\d{1,3})?>/g
const WORD_STAMP_PARTS = /<(\d{1,3}):(\d{1,2})(?:[.:](\d{1,3}))?>/g

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
      const starts = [...stamped[1].matchAll(STAMP)].map((m) => stampMs(m[1], m[2], m[3]))
      // A line stamped at several times repeats its words as often, each as far from its line's
      // start as from the first time's (the word stamps are written for that one).
      const first = Math.min(...starts)
      const words = wordCues(stamped[2], value, first)
      const shifted = (start: number) => words?.map((c) => ({ ...c, start: c.start + start - first }))
      for (const start of starts) synced.push(words ? { start, value, cues: shifted(start) } : { start, value })
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
    synced.forEach((line, i) => {
      if (line.cues) line.cues = timedCues(line.cues, synced[i + 1]?.start)
    })
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

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8')

/**
 * The timed pieces of an enhanced LRC line (`Chorus <00:02.80>twice<00:03.10>`): each piece of
 * text starts at the stamp before it, text before the first stamp at the line's own time, and a
 * stamp with no text after it ends the last piece (its `end`, kept for timedCues). Offsets are
 * into `value`, the line without stamps, trimmed. Null when the line has no word stamps.
 */
function wordCues(text: string, value: string, lineStart: number): LyricCue[] | null {
  const pieces: { at: number; text: string }[] = []
  let at = lineStart
  let from = 0
  for (const m of text.matchAll(WORD_STAMP_PARTS)) {
    pieces.push({ at, text: text.slice(from, m.index) })
    at = stampMs(m[1], m[2], m[3])
    from = m.index + m[0].length
  }
  if (pieces.length === 0) return null
  pieces.push({ at, text: text.slice(from) })
  const full = pieces.map((p) => p.text).join('')
  const lead = full.length - full.trimStart().length
  const cues: LyricCue[] = []
  let pos = -lead
  for (const piece of pieces) {
    const start = Math.max(0, pos)
    const end = Math.min(value.length, pos + piece.text.length)
    pos += piece.text.length
    if (end <= start) {
      // A stamp with nothing after it (at the end of the line) is when the last piece ends.
      if (cues.length > 0 && piece.text.trim() === '' && start >= value.length) cues[cues.length - 1].end = piece.at
      continue
    }
    const byteStart = utf8Length(value.slice(0, start))
    cues.push({ start: piece.at, value: value.slice(start, end), byteStart, byteEnd: byteStart + utf8Length(value.slice(start, end)) - 1 })
  }
  return cues.length > 0 ? cues : null
}

/**
 * A line's cues made to follow one another: each ends where the next starts (never before its own
 * start, and the next never starts before it ends), the last at its own stamped end or at the next
 * line's start. When the last one's end is unknown no cue has an end (an end is on all or none).
 */
function timedCues(cues: LyricCue[], nextLineStart: number | undefined): LyricCue[] {
  const lastEnd = cues[cues.length - 1].end ?? nextLineStart
  let previousEnd = Number.NEGATIVE_INFINITY
  return cues.map(({ end: _end, ...cue }, i) => {
    const start = Math.max(cue.start, previousEnd)
    const next = i + 1 < cues.length ? cues[i + 1].start : lastEnd
    previousEnd = Math.max(start, next ?? start)
    return lastEnd === undefined ? { ...cue, start } : { ...cue, start, end: previousEnd }
  })
}
