// How long one footer hit takes (insert + running totals) as page_hits grows.
// Run: bun bench/page-hits.ts [rows...]   (default 10k, 100k, 1M rows)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { recordPageHit, visitorHash } from '~/server/services/hits'

const sizes = process.argv.slice(2).map(Number).filter(Boolean)
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
const db = openDb(path.join(dir, 'vibes.db'), path.resolve('src/db/migrations'))
const secret = 'b'.repeat(48)
const pages = ['home', 'charts', 'about', 'contact', 'folders', 'player', 'login', 'register']

let rows = 0
function fill(to: number) {
  const insert = db.$client.prepare('INSERT INTO page_hits (page, visitor_hash, created_at) VALUES (?, ?, ?)')
  db.$client.transaction(() => {
    for (; rows < to; rows++) insert.run(pages[rows % pages.length], visitorHash(secret, `10.0.${(rows >> 8) & 255}.${rows & 255}`, 'ua'), Date.now())
  })()
  // Rows inserted behind the service's back: rebuild the running totals as the migration does.
  db.$client.exec(
    'DELETE FROM page_hit_counts; INSERT INTO page_hit_counts (page, hits, unique_visitors) SELECT page, count(*), count(DISTINCT visitor_hash) FROM page_hits GROUP BY page',
  )
}

for (const size of sizes.length ? sizes : [10_000, 100_000, 1_000_000]) {
  fill(size)
  const n = 200
  const started = performance.now()
  for (let i = 0; i < n; i++) await recordPageHit(db, 'charts', visitorHash(secret, '192.0.2.1', `bench-${i % 20}`))
  rows += n
  const ms = (performance.now() - started) / n
  console.log(`page_hits rows ${size.toLocaleString('en-US').padStart(10)}: ${ms.toFixed(3)} ms per recorded hit (insert + counts)`)
}
db.$client.close()
rmSync(dir, { recursive: true, force: true })
