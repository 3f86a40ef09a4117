// What the page policy costs one SSR render of `/`: the built app called in-process the old way
// (app.fetch, then the headers every answer gets) against the way serve.ts does it now (fetchPage:
// a fresh nonce, the request copied with it, the router stamping it on every tag, the policy on
// the answer). Rounds alternate and the figure is CPU time (process.cpuUsage), the median over the
// rounds, so a machine busy with other work skews both alike. Needs `bun run build`.
// Run: bun bench/ssr-csp.ts [requests per round] [rounds]   (default 100, 12)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
process.env.DATA_DIR = dir
process.env.MEDIA_ROOT = dir
process.env.LOG_LEVEL = 'warn'
process.env.NODE_ENV = 'production'
const { securityHeaders } = await import('~/server/http/security-headers')
const app: { fetch: (r: Request) => Promise<Response> } = (await import(path.resolve('dist/server/server.js'))).default
const { fetchPage, withSecurityHeaders } = securityHeaders({ appUrl: 'http://localhost:3000' })

const perRound = Number(process.argv[2]) || 100
const rounds = Number(process.argv[3]) || 12
const request = () => new Request('http://localhost:3000/', { headers: { 'x-vibes-client-ip': '127.0.0.1' } })
const ways = {
  'without policy': async () => withSecurityHeaders(await app.fetch(request())),
  'nonce + policy': async () => withSecurityHeaders(await fetchPage(app, request())),
}

const totals: Record<string, number[]> = { 'without policy': [], 'nonce + policy': [] }
for (const [, run] of Object.entries(ways)) for (let i = 0; i < 50; i++) await (await run()).text() // warm up
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of Object.entries(ways)) {
    const started = process.cpuUsage()
    for (let i = 0; i < perRound; i++) await (await run()).text()
    const used = process.cpuUsage(started)
    totals[name]!.push((used.user + used.system) / 1000 / perRound)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(totals['without policy']!)
for (const [name, ms] of Object.entries(totals)) {
  const m = median(ms)
  console.log(
    `${name.padEnd(15)} ${m.toFixed(3)} CPU ms per SSR render of / (median of ${ms.length} rounds of ${perRound}; ${((m / base - 1) * 100).toFixed(1)} %)`,
  )
}

// The added work alone, around an app that answers a stored page at once: the nonce, the request
// copy, the policy string and the answer copy, without the render's noise.
const html = await (await app.fetch(request())).text()
const stored = { fetch: async (_: Request) => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }) }
const n = 20_000
for (const [name, run] of Object.entries({
  'without policy': async () => withSecurityHeaders(await stored.fetch(request())),
  'nonce + policy': async () => withSecurityHeaders(await fetchPage(stored, request())),
})) {
  const started = process.cpuUsage()
  for (let i = 0; i < n; i++) await (await run()).text()
  const used = process.cpuUsage(started)
  console.log(`${name.padEnd(15)} ${((used.user + used.system) / n).toFixed(1)} CPU µs per request around a stored page`)
}
const withNonce = await (await fetchPage(app, request())).text()
console.log(`page size: ${html.length} bytes without nonce, ${withNonce.length} with (+${withNonce.length - html.length})`)
rmSync(dir, { recursive: true, force: true })
process.exit(0)
