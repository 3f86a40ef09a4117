// What the console's per-request additions cost (decision 030): the GeoIP database's first read,
// a country lookup for a public address, and recording one request for GET /metrics.
// `bun bench/console-overheads.ts` prints the figures.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// The modules read the config, which creates DATA_DIR: a temporary one.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
process.env.LOG_LEVEL = 'warn'
const { countryOfAddress } = await import('~/server/http/geoip')
const { observeRequest } = await import('~/server/http/prometheus')

let t = performance.now()
countryOfAddress('8.8.8.8')
console.log(`GeoIP first lookup (reads and parses the 7.8 MB database): ${(performance.now() - t).toFixed(1)} ms`)

const addresses = Array.from({ length: 100_000 }, (_, i) => `${(i % 200) + 20}.${i % 250}.${(i * 7) % 250}.${(i * 13) % 250}`)
t = performance.now()
for (const ip of addresses) countryOfAddress(ip)
console.log(`GeoIP lookup: ${(((performance.now() - t) / addresses.length) * 1000).toFixed(2)} µs each (100k distinct public addresses)`)

const requests = 1_000_000
t = performance.now()
for (let i = 0; i < requests; i++) observeRequest('GET', i % 2 ? '/api/library/search' : `/api/admin/users/${crypto.randomUUID()}/folders`, 200, 3.2)
console.log(
  `/metrics recording: ${(((performance.now() - t) / requests) * 1000).toFixed(2)} µs per request (half with a UUID in the path, UUID generation included)`,
)
