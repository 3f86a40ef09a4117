// Lyrics over /rest: getLyricsBySongId (the OpenSubsonic songLyrics extension: every set a file
// has, synced lines with their start in ms) and the classic getLyrics (artist and title: the first
// set of the first matching song that has any, as plain text). Both read media/lyrics.ts.
import { sql } from 'drizzle-orm'
import { type Db, rows } from '~/db/engine'
import { displayArtist, LIBRARY_SELECT, type LibraryRow } from '../catalog/track'
import { type LyricCue, lyricsText } from '../media/lrc'
import { readLyrics } from '../media/lyrics'
import type { Payload } from './response'

/** How many songs of one title getLyrics opens looking for lyrics (each is a file read). */
const TITLE_CANDIDATES = 5

/**
 * getLyricsBySongId. `enhanced` (songLyrics version 2) adds each set's kind (a file's lyrics are
 * its main vocals: tags and LRC name no translation or pronunciation layer) and, for synced lines
 * with word stamps (enhanced LRC), a cueLine per line: its words' times and byte offsets. Without
 * it the answer is version 1's.
 */
export async function structuredLyrics(row: LibraryRow, enhanced = false): Promise<Payload> {
  const sets = await readLyrics(row.path)
  return {
    structuredLyrics: sets.map((l) => {
      const set: Payload = {
        displayArtist: displayArtist(row) || undefined,
        displayTitle: row.title,
        lang: l.lang,
        offset: l.offset,
        synced: l.synced,
        line: l.lines.map((line) => ({ start: line.start, value: line.value })),
      }
      if (!enhanced) return set
      const cueLine = l.synced ? l.lines.flatMap((line, index) => (line.cues ? [cueLineOf(line.value, index, line.cues)] : [])) : []
      return { kind: 'main', ...set, cueLine: cueLine.length > 0 ? cueLine : undefined }
    }),
  }
}

/** An OpenSubsonic cueLine: the line's text (the cues' offsets point into it) and its timed words. */
function cueLineOf(value: string, index: number, cues: LyricCue[]): Payload {
  const last = cues[cues.length - 1]
  return {
    index,
    start: cues[0].start,
    end: last.end,
    value,
    cue: cues.map((c) => ({ start: c.start, end: c.end, byteStart: c.byteStart, byteEnd: c.byteEnd, value: c.value })),
  }
}

/**
 * getLyrics: songs titled `title` (any case, library_tracks_title_idx), by `artist` when given.
 * NOCASE is SQLite's collation, and one of that name made on PostgreSQL (migrations-pg 0000).
 */
export async function classicLyrics(db: Db, artist: string | undefined, title: string): Promise<Payload> {
  const titled = await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.title = ${title} COLLATE NOCASE ORDER BY t.path LIMIT 200`)
  const wanted = artist?.toLowerCase()
  const matching = titled.filter((r) => wanted === undefined || [r.artist, r.albumArtist].some((a) => a.toLowerCase() === wanted))
  for (const row of matching.slice(0, TITLE_CANDIDATES)) {
    const [first] = await readLyrics(row.path)
    if (first) return { artist: displayArtist(row), title: row.title, value: lyricsText(first) }
  }
  // The Subsonic answer for "none": an empty lyrics element (its text, required by the schema, empty).
  return { value: '' }
}
