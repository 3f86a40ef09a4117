// Merging the search indexes after a scan. FTS5 writes each transaction's inserts as a new index
// segment and a query reads every segment: a scan commits a batch every 250 files, so after
// indexing a large library a word prefix is looked up in dozens of segments and merged across
// them (bench/library-search.ts at 1,000,000 tracks: `"halmonka"*` 4.6 → 1.7 ms, a two-word query
// 17 → 4 ms once merged). FTS5's 'merge' command does a bounded amount of that work per call
// (a negative page count merges whatever segments there are); between calls the event loop is
// handed back, so the merge of a million-track index (~14 s of I/O here) never holds requests up.

import type { Db } from '~/db/client'

export const SEARCH_INDEXES = ['library_tracks_fts', 'library_albums_fts', 'library_artists_fts'] as const
/** Index pages written per step: a few ms of work even on a loaded machine. */
const PAGES_PER_STEP = 16

/** Merges each search index's segments, one bounded step at a time; false if `stopping` cut it short. */
export async function compactSearchIndexes(db: Db, pause: () => Promise<void>, stopping: () => boolean = () => false): Promise<boolean> {
  const changes = db.$client.query<{ n: number }, []>('SELECT total_changes() AS n')
  for (const fts of SEARCH_INDEXES) {
    const step = db.$client.query(`INSERT INTO ${fts}(${fts}, rank) VALUES('merge', -${PAGES_PER_STEP})`)
    for (;;) {
      if (stopping()) return false
      const before = changes.get()!.n
      step.run()
      // The command itself counts as one change; more means index pages were rewritten.
      if (changes.get()!.n - before <= 1) break
      await pause()
    }
  }
  return true
}
