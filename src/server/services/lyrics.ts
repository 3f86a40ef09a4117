// The lyrics of a track the web player holds, by its URL: a /media/ URL of a file the library
// index holds (signed or bare), read by media/lyrics.ts. Any other URL (a remote stream, a local
// file's object URL, a path the scan has not indexed) has none.
import { sql } from 'drizzle-orm'
import { type Db, firstRow } from '~/db/engine'
import type { Lyrics } from '~/shared/lyrics'
import { readLyrics } from '../media/lyrics'
import { mediaPathOf } from '../media/request-rules'

export async function lyricsOfTrack(db: Db, url: string): Promise<{ lyrics: Lyrics[] }> {
  if (!url.startsWith('/media/')) return { lyrics: [] }
  const path = mediaPathOf(new URL(url, 'http://x').pathname)
  // library_tracks.path is unique (indexed): only what the scan indexed is read.
  if (!path || !(await firstRow(db, sql`SELECT 1 AS one FROM library_tracks WHERE path = ${path}`))) return { lyrics: [] }
  // The panel highlights whole lines: the word timings (cues) an app may ask for are left out.
  const sets = await readLyrics(path)
  return { lyrics: sets.map((set) => ({ ...set, lines: set.lines.map(({ cues: _cues, ...line }) => line) })) }
}
