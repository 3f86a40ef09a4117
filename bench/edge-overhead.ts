// What the request edge costs a cheap endpoint (goal: rate limiting, metrics and headers
// under 5 % of its throughput), before and after in one run:
//  1. wrk on GET /api/health against the same built app three ways, runs interleaved (A B C A B C…):
//     behind a bare Bun.serve with no edge at all; behind the real server (serve.ts: client
//     address, body gate, security headers, metrics; TRUST_PROXY=true, RATE_LIMIT on) with the
//     JSON request log off (LOG_LEVEL=warn); and the same with the request log on. Besides
//     req/s it reports the server process's CPU time per request (/proc/<pid>/stat): on a
//     machine shared with other work, throughput swings ±30 % from run to run, CPU per request
//     far less, so that is the figure to compare.
//  2. In-process, µs per request of each piece of edge work (client resolution behind a proxy,
//     limiter take at 100k keys, metrics record, header copy, log-path redaction, body gate),
//     set against the real server's µs per request. /api/health is not rate limited, so part 2
//     is where the limiter's cost shows.
// Run: bun run build && bun bench/edge-overhead.ts [seconds per wrk run, default 5] [rounds, default 3]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dir, '..')

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port as number
  await probe.stop(true)
  return port
}

async function startProcess(args: string[], env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-edge-'))
  const port = await freePort()
  const proc = Bun.spawn(['bun', ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, MEDIA_ROOT: dataDir, ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  // Keep draining the log, as a log collector would.
  void (async () => {
    for await (const _ of proc.stdout) {
    }
  })()
  const url = `http://127.0.0.1:${port}/api/health`
  for (let i = 0; ; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (i > 200) throw new Error(`${args.join(' ')} did not start`)
    await Bun.sleep(100)
  }
  return {
    url,
    /** CPU seconds (user + system) the server process has used so far. */
    cpuSeconds() {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
    },
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

// Async, so this process keeps draining the server's log pipe while wrk runs (a blocked pipe
// would stall the server's log writes and make the edge look far dearer than it is).
async function wrk(url: string, seconds: number): Promise<{ rate: number; requests: number }> {
  const proc = Bun.spawn(['wrk', '-t1', '-c16', `-d${seconds}s`, '-H', 'X-Forwarded-For: 198.51.100.7, 203.0.113.9', url], { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)
  const requests = /(\d+) requests in/.exec(out)
  if (!rate || !requests) throw new Error(`wrk failed: ${out}${await new Response(proc.stderr).text()}`)
  return { rate: Number(rate[1]), requests: Number(requests[1]) }
}

const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** µs per call: the median of 5 timed loops (other work on the machine inflates single loops). */
function perCall(label: string, n: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < 10_000; i++) fn(i)
  const loops: number[] = []
  for (let loop = 0; loop < 5; loop++) {
    const started = performance.now()
    for (let i = 0; i < n; i++) fn(loop * n + i)
    loops.push(((performance.now() - started) * 1000) / n)
  }
  const us = median(loops)
  console.log(`  ${label.padEnd(52)} ${us.toFixed(3).padStart(7)} µs`)
  return us
}

async function main() {
  const seconds = Number(process.argv[2] ?? 5)
  const rounds = Number(process.argv[3] ?? 3)
  const variants = [
    { label: 'bare app (no edge)', server: await startProcess([import.meta.path, '--bare'], {}), rates: [] as number[], cpu: [] as number[] },
    {
      label: 'edge, request log off',
      server: await startProcess(['src/server/entry.ts'], { TRUST_PROXY: 'true', RATE_LIMIT: 'on', LOG_LEVEL: 'warn' }),
      rates: [] as number[],
      cpu: [] as number[],
    },
    {
      label: 'edge + JSON request log',
      server: await startProcess(['src/server/entry.ts'], { TRUST_PROXY: 'true', RATE_LIMIT: 'on', LOG_LEVEL: 'info' }),
      rates: [] as number[],
      cpu: [] as number[],
    },
  ]
  try {
    for (const v of variants) await wrk(v.server.url, 2)
    for (let round = 0; round < rounds; round++)
      for (const v of variants) {
        const before = v.server.cpuSeconds()
        const { rate, requests } = await wrk(v.server.url, seconds)
        v.rates.push(rate)
        v.cpu.push(((v.server.cpuSeconds() - before) * 1e6) / requests)
      }
  } finally {
    await Promise.all(variants.map((v) => v.server.stop()))
  }
  console.log(`GET /api/health, wrk -c16, ${rounds} interleaved runs of ${seconds}s each (medians):`)
  const bareCpu = median(variants[0].cpu)
  for (const v of variants) {
    const cpu = median(v.cpu)
    const more = v === variants[0] ? '' : `  ${(((cpu - bareCpu) / bareCpu) * 100).toFixed(1).padStart(5)} % more CPU than bare`
    console.log(`  ${v.label.padEnd(24)} ${median(v.rates).toFixed(0).padStart(6)} req/s   server CPU ${cpu.toFixed(1).padStart(6)} µs/request${more}`)
    console.log(`  ${''.padEnd(24)} runs: ${v.rates.map((x) => x.toFixed(0)).join(', ')} req/s; ${v.cpu.map((x) => x.toFixed(0)).join(', ')} µs`)
  }
  // The endpoint's own cost per request, with the edge: what part 2 is set against.
  const endpointUs = median(variants[1].cpu)

  // Part 2, in this process. The config module reads the environment once: set it first.
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'vibes-bench-edge-'))
  process.env.TRUST_PROXY = 'true'
  process.env.RATE_LIMIT = 'on'
  const { CLIENT_IP_HEADER, addressKey, clientInfo } = await import('~/server/http/client-info')
  const { createLimiter } = await import('~/server/http/rate-limit')
  const { recordRequest } = await import('~/server/http/metrics')
  const { redactPath } = await import('~/server/http/redact')
  const { limitBody } = await import('~/server/http/body-limit')

  const n = 200_000
  console.log(`Edge work per request, in process (${n.toLocaleString('en-US')} calls each):`)
  const v4 = new Headers({ [CLIENT_IP_HEADER]: '127.0.0.1', 'x-forwarded-for': '198.51.100.7, 203.0.113.9', 'user-agent': 'bench' })
  const v6 = new Headers({ [CLIENT_IP_HEADER]: '127.0.0.1', 'x-forwarded-for': '198.51.100.7, 2001:db8:1:2::7', 'user-agent': 'bench' })
  perCall('client address + key, IPv4 client (TRUST_PROXY=true)', n, () => addressKey(clientInfo(v4).ip))
  perCall('client address + /64 key, IPv6 client', n, () => addressKey(clientInfo(v6).ip))
  // Worst case: every request from an address never seen (the parse memo misses).
  const client = perCall('  the same, a new IPv6 address each call', n, (i) =>
    addressKey(
      clientInfo(new Headers({ [CLIENT_IP_HEADER]: '127.0.0.1', 'x-forwarded-for': `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::7` })).ip,
    ),
  )
  const limiter = createLimiter({ auth: { max: 30, windowMs: 60_000 } })
  for (let i = 0; i < 100_000; i++) limiter.take('auth', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  const take = perCall('limiter take, 100k keys held, a new key each call', n, (i) => limiter.take('auth', `k${i}`))
  perCall('limiter take, 100k keys held, one hot key', n, () => limiter.take('auth', 'hot'))
  console.log(`    (the limiter holds ${limiter.size().toLocaleString('en-US')} keys after ${(100_000 + 10 * n + 20_000).toLocaleString('en-US')} takes)`)
  const metrics = perCall('metrics record', n, (i) => recordRequest(i % 50, 200))
  // The header step as serve.ts does it today (withSecurityHeaders: a response copy + 3 headers).
  const SECURITY_HEADERS: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
  }
  const headerStep = perCall('security headers (response copy + set)', n, () => {
    const copy = new Response('{"success":true}', { headers: { 'content-type': 'application/json' } })
    const response = new Response(copy.body, copy)
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value)
    return response
  })
  const redact = perCall('log path redaction', n, () => redactPath('/api/health'))
  const get = new Request('http://127.0.0.1/api/health')
  const gate = await (async () => {
    for (let i = 0; i < 10_000; i++) await limitBody(get)
    const loops: number[] = []
    for (let loop = 0; loop < 5; loop++) {
      const started = performance.now()
      for (let i = 0; i < n; i++) await limitBody(get)
      loops.push(((performance.now() - started) * 1000) / n)
    }
    const us = median(loops)
    console.log(`  ${'body gate (GET, no body)'.padEnd(52)} ${us.toFixed(3).padStart(7)} µs`)
    return us
  })()
  const edge = client + take + metrics + headerStep + redact + gate
  console.log(`  sum of the worst cases (new IPv6 address, new limiter key)${' '.repeat(0)} ${edge.toFixed(3).padStart(7)} µs`)
  console.log(
    `  = ${((edge / endpointUs) * 100).toFixed(2)} % of the edge server's ${endpointUs.toFixed(1)} µs of CPU per /api/health request (request log off)`,
  )
  rmSync(process.env.DATA_DIR, { recursive: true, force: true })
}

async function bare() {
  // The built app with no edge at all: what /api/health costs by itself.
  const app = (await import(path.join(root, 'dist/server/server.js'))).default as { fetch: (r: Request) => Promise<Response> }
  Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: (request) => app.fetch(request) })
}

await (process.argv[2] === '--bare' ? bare() : main())
