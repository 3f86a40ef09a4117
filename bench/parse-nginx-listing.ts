// Parsing a 10,000-entry nginx autoindex listing (captured from a real nginx in this run)
// into tracks (goal: under 200 ms).
//   bun bench/parse-nginx-listing.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parsePlaylist } from '~/server/remote/parse'
import { openUp, startNginx } from '../tests/helpers/listing-servers'

const ENTRIES = 10_000
const root = mkdtempSync(path.join(tmpdir(), 'vibes-bench-listing-'))
openUp(root)
for (let i = 0; i < ENTRIES; i++)
  writeFileSync(path.join(root, `${String(i + 1)} Artist Name - A Song Title Of Some Length ${i % 7 ? '' : '(Remix) '}.mp3`), '')
const nginx = await startNginx(root, '127.0.0.1')
const res = await fetch(`${nginx.url}/`)
const html = await res.text()
const contentType = res.headers.get('content-type') ?? ''
await nginx.stop()
rmSync(root, { recursive: true, force: true })

const base = `${nginx.url}/`
const times: number[] = []
let count = 0
for (let i = 0; i < 7; i++) {
  const started = performance.now()
  count = parsePlaylist(html, base, contentType).length
  times.push(performance.now() - started)
}
if (count !== ENTRIES) throw new Error(`parsed ${count} tracks, expected ${ENTRIES}`)
const sorted = [...times].sort((a, b) => a - b)
console.log(`nginx listing: ${(html.length / 1024 / 1024).toFixed(2)} MB, ${count} tracks`)
console.log(`parse: first ${times[0].toFixed(0)} ms, median ${sorted[3].toFixed(0)} ms, best ${sorted[0].toFixed(0)} ms (goal < 200 ms)`)
