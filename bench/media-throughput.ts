// /media throughput on a 50 MB file, side by side with nginx serving the same file in the same
// run: full GETs and 1 MB range GETs, 4 at a time. Prints MB/s for both and the ratio.
//   bun bench/media-throughput.ts
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { openUp, startNginx } from '../tests/helpers/listing-servers'
import { startServer } from '../tests/helpers/server'

const SECRET = 'bench-secret-'.repeat(4)
const SIZE = 50 * 1024 * 1024
const CONCURRENCY = 4

const app = await startServer({ AUTH_SECRET: SECRET })
openUp(app.mediaRoot)
const bytes = new Uint8Array(SIZE)
for (let i = 0; i < SIZE; i += 4096) bytes[i] = i & 255
writeFileSync(path.join(app.mediaRoot, 'big.mp3'), bytes)
const nginx = await startNginx(app.mediaRoot, '127.0.0.1')
const appUrl = app.url + signMediaUrl(SECRET, 'big.mp3')
const nginxUrl = `${nginx.url}/big.mp3`

async function drain(url: string, range?: string): Promise<number> {
  const res = await fetch(url, { headers: range ? { range } : {} })
  if (res.status !== (range ? 206 : 200)) throw new Error(`${url}: ${res.status}`)
  let n = 0
  for await (const chunk of res.body!) n += chunk.length
  return n
}

async function run(url: string, jobs: Array<string | undefined>): Promise<number> {
  const started = performance.now()
  let total = 0
  let next = 0
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) total += await drain(url, jobs[next++])
    }),
  )
  return total / 1024 / 1024 / ((performance.now() - started) / 1000)
}

const full = Array.from({ length: 16 }, () => undefined)
const ranges = Array.from({ length: 400 }, (_, i) => {
  const start = ((i * 7919) % 49) * 1024 * 1024
  return `bytes=${start}-${start + 1024 * 1024 - 1}`
})

// Warm both (page cache, connections), then alternate rounds so neither gets the quiet moments.
await run(appUrl, full.slice(0, 4))
await run(nginxUrl, full.slice(0, 4))
const results = { full: { app: 0, nginx: 0 }, ranges: { app: 0, nginx: 0 } }
const ROUNDS = 3
for (let r = 0; r < ROUNDS; r++) {
  results.full.nginx += (await run(nginxUrl, full)) / ROUNDS
  results.full.app += (await run(appUrl, full)) / ROUNDS
  results.ranges.nginx += (await run(nginxUrl, ranges)) / ROUNDS
  results.ranges.app += (await run(appUrl, ranges)) / ROUNDS
}
for (const [kind, r] of Object.entries(results)) {
  console.log(
    `${kind.padEnd(7)} /media ${r.app.toFixed(0).padStart(6)} MB/s   nginx ${r.nginx.toFixed(0).padStart(6)} MB/s   ratio ${(r.app / r.nginx).toFixed(2)}x`,
  )
}
await nginx.stop()
await app.stop()
