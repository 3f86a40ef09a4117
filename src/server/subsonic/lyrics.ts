// Lyrics over /rest: getLyricsBySongId (the OpenSubsonic songLyrics extension: every set a file
// has, synced lines with their start in ms) and the classic getLyrics (artist and title: the first
// set of the first matching song that has any, as plain text). Both read media/lyrics.ts.
import type { Db } from '~/db/client'
import { displayArtist, LIBRARY_SELECT, type LibraryRow } from '../catalog/track'
import { lyricsText } from '../media/lrc'
import { readLyrics } from '../media/lyrics'
import type { Payload } from './response'

/** How many songs of one title getLyrics opens looking for lyrics (each is a file read). */
const TITLE_CANDIDATES = 5

export async function structuredLyrics(row: LibraryRow): Promise<Payload> {
  const sets = await readLyrics(row.path)
  return {
    structuredLyrics: sets.map((l) => ({
      displayArtist: displayArtist(row) || undefined,
      displayTitle: row.title,
      lang: l.lang,
      offset: l.offset,
      synced: l.synced,
      line: l.lines.map((line) => ({ start: line.start, value: line.value })),
    })),
  }
}

/** getLyrics: songs titled `title` (any case, library_tracks_title_idx), by `artist` when given. */
export async function classicLyrics(db: Db, artist: string | undefined, title: string): Promise<Payload> {
  const rows = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.title = ? COLLATE NOCASE ORDER BY t.path LIMIT 200`).all(title)
  const wanted = artist?.toLowerCase()
  const matching = rows.filter((r) => wanted === undefined || [r.artist, r.albumArtist].some((a) => a.toLowerCase() === wanted))
  for (const row of matching.slice(0, TITLE_CANDIDATES)) {
    const [first] = await readLyrics(row.path)
    if (first) return { artist: displayArtist(row), title: row.title, value: lyricsText(first) }
  }
  // The Subsonic answer for "none": an empty lyrics element (its text, required by the schema, empty).
  return { value: '' }
}
