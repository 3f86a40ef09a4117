// Lyrics as the server hands them out (the web player's panel, and over /rest the OpenSubsonic
// structuredLyrics), and which synced line is sung at a moment.

/**
 * A timed word or syllable of a synced line (enhanced LRC's `<mm:ss.xx>` stamps): ms, and where
 * its text is in the line's value as 0-based inclusive byte offsets into the value's UTF-8 (the
 * OpenSubsonic cue). `end` is on every cue of a line or on none.
 */
export type LyricCue = { start: number; end?: number; value: string; byteStart: number; byteEnd: number }
export type LyricLine = { start?: number; value: string; cues?: LyricCue[] }
export type Lyrics = {
  /** ISO 639 code when the source names one, else 'xxx' (the taggers' "unknown"). */
  lang: string
  synced: boolean
  /** Synced: ordered by start (ms, as written, before the offset). Unsynced: in file order. */
  lines: LyricLine[]
  /** Milliseconds; positive shows each line sooner (the LRC and OpenSubsonic meaning). */
  offset: number
}

/** The synced line sung at `seconds` into the track (the last one started), or -1 before the first. */
export function activeLine(lyrics: Lyrics, seconds: number): number {
  const at = seconds * 1000 + lyrics.offset
  let found = -1
  for (let i = 0; i < lyrics.lines.length; i++) {
    if ((lyrics.lines[i].start ?? 0) > at) break
    found = i
  }
  return found
}

/** Where a synced line starts in the track, in seconds (its offset applied, never before 0). */
export const lineSeconds = (lyrics: Lyrics, line: LyricLine) => Math.max(0, ((line.start ?? 0) - lyrics.offset) / 1000)
