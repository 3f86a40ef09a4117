// How long the no-feed chart takes (this server's plays in one country, last 30 days, grouped by
// title + artist) as play_events grows, and what a cached answer costs.
// Run: bun bench/charts-local.ts [rows...]   (default 100k, 1M rows; 2,000 distinct songs, 11 countries)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { chartFor, localChart } from '~/server/services/charts'

const sizes = process.argv.slice(2).map(Number).filter(Boolean)
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
const db = openDb(path.join(dir, 'vibes.db'), path.resolve('src/db/migrations'))
const countries = ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'ES', 'IT', 'CY', 'GR']
const now = Date.now()

let rows = 0
function fill(to: number) {
  const insert = db.$client.prepare('INSERT INTO play_events (id, track_url, title, artist, country, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
  db.$client.transaction(() => {
    for (; rows < to; rows++) {
      const song = Math.floor(Math.random() ** 2 * 2000)
      const at = now - Math.floor(Math.random() * 60 * 86_400_000) // half inside the 30-day window
      insert.run(crypto.randomUUID(), `/media/s${song}.mp3`, `Song ${song}`, `Artist ${song % 300}`, countries[rows % countries.length], at, at)
    }
  })()
  db.$client.exec('ANALYZE')
}

const time = async (n: number, fn: () => Promise<unknown>) => {
  const started = performance.now()
  for (let i = 0; i < n; i++) await fn()
  return (performance.now() - started) / n
}

for (const size of sizes.length ? sizes : [100_000, 1_000_000]) {
  fill(size)
  const direct = await time(10, () => localChart(db, 'us'))
  await chartFor(db, 'gb')
  const started = performance.now()
  for (let i = 0; i < 200; i++) await chartFor(db, 'gb')
  const cached = (performance.now() - started) / 200
  console.log(
    `play_events rows ${size.toLocaleString('en-US').padStart(10)}: local chart query ${direct.toFixed(2)} ms; served chart (cached) ${cached.toFixed(3)} ms`,
  )
}
db.$client.close()
rmSync(dir, { recursive: true, force: true })
