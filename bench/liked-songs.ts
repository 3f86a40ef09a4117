// Liked songs (library.liked, the same query as OpenSubsonic getStarred2) for a member with many
// likes in a large library: 200,000 indexed tracks, N likes by path (half) and by title (half);
// prints the median and p95 of likedTracks (rows read, mapped and /media URLs signed).
//   bun bench/liked-songs.ts
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'vibes-bench-liked-'))
const { openDb } = await import('../src/db/client')
const { likedTracks } = await import('../src/server/services/liked-songs')

const TRACKS = 200_000
const db = openDb(path.join(process.env.DATA_DIR, 'bench.db'), path.resolve('src/db/migrations'))
const c = db.$client
c.exec(`INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES ('u', 'bench', 'bench@example.com', 'x', 0, 0)`)
const insert = c.prepare(
  `INSERT INTO library_tracks (id, path, folder, title, artist, artist_id, album_artist, album_artist_id, album, album_id, duration, mime, size, mtime_ms, embedded_cover, added_at)
   VALUES (?1, ?2, ?3, ?4, 'Artist', 'ar', 'Artist', 'ar', 'Album', 'al', 180, 'audio/mpeg', 1, 0, 0, 0)`,
)
c.transaction(() => {
  for (let i = 0; i < TRACKS; i++) insert.run(`t${i}`, `a${i % 500}/b${i % 7}/${i}.mp3`, `a${i % 500}/b${i % 7}`, `Song ${i}`)
})()
const like = c.prepare(`INSERT INTO likes (user_id, track_key, track_url, liked, updated_at) VALUES ('u', ?1, ?2, 1, ?3)`)

for (const likes of [100, 1000, 5000]) {
  c.exec(`DELETE FROM likes`)
  c.transaction(() => {
    for (let k = 0; k < likes; k++) {
      const i = (k * 7919) % TRACKS
      like.run(`Song ${i}`, k % 2 ? `/media/a${i % 500}/b${i % 7}/${i}.mp3` : null, k)
    }
  })()
  const ms: number[] = []
  for (let r = 0; r < 30; r++) {
    const t = performance.now()
    const { tracks } = await likedTracks(db, 'bench-secret', 'u')
    ms.push(performance.now() - t)
    if (tracks.length !== likes) throw new Error(`expected ${likes}, got ${tracks.length}`)
  }
  ms.sort((a, b) => a - b)
  console.log(`${likes} likes: median ${ms[15].toFixed(1)} ms, p95 ${ms[28].toFixed(1)} ms`)
}
