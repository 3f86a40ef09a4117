// What the console's per-request additions cost (decisions 030, 036): the GeoIP databases' first
// mapping, a place lookup for a public address, the resident memory before and after 10k and 100k
// lookups (the files are mapped, not read), and recording one request for GET /metrics.
// `bun bench/console-overheads.ts` prints the figures.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// The modules read the config, which creates DATA_DIR: a temporary one.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
process.env.LOG_LEVEL = 'warn'
const { placeOfAddress } = await import('~/server/http/geoip')
const { createServer } = await import('~/server/start-up')
// The server's own recorder, with its route labels (no pages: nothing here renders one).
const { metrics } = createServer({ loadPages: async () => ({ default: { fetch: () => new Response() } }), findStatic: () => null })

/** Resident memory in MB: the heap and other private pages (anon) and the mapped files' pages in memory (file). */
function rss() {
  const status = require('node:fs').readFileSync('/proc/self/status', 'utf8') as string
  const mb = (key: string) => (Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0) / 1024).toFixed(1)
  return `RSS ${mb('VmRSS')} MB (anon ${mb('RssAnon')}, file ${mb('RssFile')})`
}
// Distinct addresses spread over the whole IPv4 space (a multiplicative hash of 0…99 999).
const addresses = Array.from({ length: 100_000 }, (_, i) => {
  const x = Math.imul(i + 1, 2654435761) >>> 0
  return `${x >>> 24}.${(x >>> 16) & 255}.${(x >>> 8) & 255}.${x & 255}`
})
Bun.gc(true)
console.log(`before any lookup: ${rss()}`)
let t = performance.now()
const first = placeOfAddress('8.8.8.8')
console.log(`GeoIP first lookup (maps the database files): ${(performance.now() - t).toFixed(1)} ms → ${JSON.stringify(first)}`)
t = performance.now()
for (const ip of addresses.slice(0, 10_000)) placeOfAddress(ip)
console.log(`after 10k distinct public addresses: ${(((performance.now() - t) / 10_000) * 1000).toFixed(2)} µs each; ${rss()}`)
t = performance.now()
for (const ip of addresses) placeOfAddress(ip)
console.log(`after 100k (the 10k again, 90k new): ${(((performance.now() - t) / addresses.length) * 1000).toFixed(2)} µs each; ${rss()}`)
Bun.gc(true)
console.log(`after a full GC: ${rss()}`)

const requests = 1_000_000
t = performance.now()
for (let i = 0; i < requests; i++) metrics.observe('GET', i % 2 ? '/api/library/search' : `/api/admin/users/${crypto.randomUUID()}/folders`, 200, 3.2)
console.log(
  `/metrics recording: ${(((performance.now() - t) / requests) * 1000).toFixed(2)} µs per request (half with a UUID in the path, UUID generation included)`,
)
