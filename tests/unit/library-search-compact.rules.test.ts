// After a scan the search indexes are merged (src/server/library/search-compact.ts): every batch
// the scanner commits is a new FTS5 segment that each query must read; once merged there is one,
// and search still finds the same rows.
import { expect, test } from 'bun:test'
import path from 'node:path'
import { openDb } from '~/db/client'
import { compactSearchIndexes } from '~/server/library/search-compact'

test('many small commits leave many segments; compacting leaves one per index and the same matches', async () => {
  const db = openDb(':memory:', path.resolve('src/db/migrations'))
  const c = db.$client
  const insert = c.prepare(`INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id,
    duration, mime, size, mtime_ms, embedded_cover, added_at) VALUES (?1, ?1, '', ?2, 'Björk', 'a', 'Björk', 'a', 'Homogenic', 'h', 1, 'audio/mpeg', 1, 0, 0, 0)`)
  // One transaction per row, as scanner batches are one transaction each.
  for (let i = 0; i < 40; i++) insert.run(`t${i}.mp3`, `Song ${i} hunter${i % 3}`)
  const segments = () => c.query<{ n: number }, []>('SELECT count(DISTINCT segid) AS n FROM library_tracks_fts_idx').get()!.n
  const matches = () => c.query<{ rowid: number }, []>(`SELECT rowid FROM library_tracks_fts WHERE library_tracks_fts MATCH '"bjork"* "hunt"*'`).all()
  const before = matches()
  expect(before).toHaveLength(40)
  expect(segments()).toBeGreaterThan(1)
  let pauses = 0
  expect(await compactSearchIndexes(db, async () => void pauses++)).toBe(true)
  expect(segments()).toBe(1)
  expect(pauses).toBeGreaterThan(0)
  expect(matches()).toEqual(before)
  // Stopping (a shutdown) cuts it short without harm.
  for (let i = 40; i < 60; i++) insert.run(`t${i}.mp3`, `Song ${i}`)
  expect(
    await compactSearchIndexes(
      db,
      async () => {},
      () => true,
    ),
  ).toBe(false)
  expect(matches()).toEqual(before)
  c.close()
})
