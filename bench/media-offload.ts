// MEDIA_OFFLOAD=nginx side by side with nginx serving the same file itself and with Vibes serving
// it without offload, in one run: wrk -t1 on loopback, a full 8 MiB file (8 connections) and a
// 1 MiB Range (16 connections), the targets in turns for ROUNDS rounds (medians). The goal
// (decision 085): the offloaded answer ≥ 0.95× nginx for both.
//   bun bench/media-offload.ts        (SECONDS=5 per wrk run, ROUNDS=3)
// Beside MB/s: server CPU per request (nginx's workers, plus Vibes' process when it is behind
// nginx) and wrk's own; `check` is the offloading node asked directly (its answer has no body), the
// part of the offloaded answer's cost that is Vibes'. Writes bench/results/media-offload.json.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { openUp, startNginx } from '../tests/helpers/listing-servers'
import { startServer } from '../tests/helpers/server'
import { type Load, SECONDS, wrk } from './lib/wrk'

const SECRET = 'bench-secret-'.repeat(4)
const SIZE = 8 * 1024 * 1024
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const PREFIX = '/_vibes_media/'

const file = new Uint8Array(SIZE)
for (let i = 0; i < SIZE; i += 4096) file[i] = i & 255

// The same settings for both Vibes servers; only MEDIA_OFFLOAD differs.
const offloading = await startServer({ AUTH_SECRET: SECRET, MEDIA_OFFLOAD: 'nginx' })
const plain = await startServer({ AUTH_SECRET: SECRET })
for (const app of [offloading, plain]) {
  openUp(app.mediaRoot)
  writeFileSync(path.join(app.mediaRoot, 'big.mp3'), file)
}
// One nginx: the file from its own root (the reference), and /media proxied to the offloading
// Vibes over kept-alive connections, as the README's example does.
const nginx = await startNginx(
  offloading.mediaRoot,
  '127.0.0.1',
  `
  location ${PREFIX} { internal; alias ${offloading.mediaRoot}/; }
  location /media/ { proxy_pass http://vibes; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
  `,
  `upstream vibes { server 127.0.0.1:${offloading.port}; keepalive 32; }`,
)

const targets = {
  nginx: { url: `${nginx.url}/big.mp3`, pids: [nginx.pid] },
  offload: { url: nginx.url + signMediaUrl(SECRET, 'big.mp3'), pids: [nginx.pid, offloading.pid] },
  vibes: { url: plain.url + signMediaUrl(SECRET, 'big.mp3'), pids: [plain.pid] },
  // The offloading node asked directly: its check and its empty answer alone, what it adds to nginx.
  check: { url: offloading.url + signMediaUrl(SECRET, 'big.mp3'), pids: [offloading.pid] },
}
type Name = keyof typeof targets
const loads = {
  full: { connections: 8, headers: {} },
  range: { connections: 16, headers: { range: `bytes=${SIZE / 2}-${SIZE / 2 + 1048575}` } },
}

for (const { url } of [targets.nginx, targets.offload, targets.vibes]) {
  for (const range of [undefined, loads.range.headers.range]) {
    const res = await fetch(url, { headers: range ? { range } : {} })
    const body = new Uint8Array(await res.arrayBuffer())
    if (res.status !== (range ? 206 : 200) || body.length !== (range ? 1048576 : SIZE)) throw new Error(`${url}: ${res.status}, ${body.length} bytes`)
  }
}

const runs = { full: {} as Record<Name, Load[]>, range: {} as Record<Name, Load[]> }
for (let round = 0; round < ROUNDS; round++) {
  for (const load of ['full', 'range'] as const) {
    for (const name of Object.keys(targets) as Name[]) {
      const { connections, headers } = loads[load]
      ;(runs[load][name] ??= []).push(await wrk(targets[name].url, connections, headers, targets[name].pids))
    }
  }
}
await nginx.stop()
await offloading.stop()
await plain.stop()

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const med = (load: 'full' | 'range', name: Name) => {
  const list = runs[load][name]
  return {
    mbps: median(list.map((l) => l.mbps)),
    rate: median(list.map((l) => l.rate)),
    p99: median(list.map((l) => l.p99)),
    serverCpu: median(list.map((l) => l.cpuUsPerRequest ?? Number.NaN)),
    wrkCpu: median(list.map((l) => l.clientCpuUsPerRequest)),
    non2xx: list.reduce((sum, l) => sum + l.non2xx, 0),
  }
}
const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
const medians = Object.fromEntries(
  (['full', 'range'] as const).map((load) => [load, Object.fromEntries((Object.keys(targets) as Name[]).map((name) => [name, med(load, name)]))]),
) as Record<'full' | 'range', Record<Name, ReturnType<typeof med>>>

console.log(`MEDIA_OFFLOAD=nginx beside nginx and Vibes alone, wrk -t1, ${SECONDS} s per run, median of ${ROUNDS} rounds in turns, ${new Date().toISOString()}`)
for (const load of ['full', 'range'] as const) {
  const m = medians[load]
  console.log(load === 'full' ? 'full 8 MiB, 8 connections' : '1 MiB Range, 16 connections')
  for (const name of Object.keys(targets) as Name[]) {
    const r = m[name]
    console.log(
      `  ${name.padEnd(8)} ${f0(r.mbps).padStart(6)} MB/s ${f0(r.rate).padStart(6)} req/s  p99 ${r.p99.toFixed(1).padStart(6)} ms  ` +
        `CPU µs/req server ${f0(r.serverCpu).padStart(5)} + wrk ${f0(r.wrkCpu).padStart(5)}  ${name === 'check' ? 'no body' : `${(r.mbps / m.nginx.mbps).toFixed(2)}× nginx`}` +
        (r.non2xx ? `  (${r.non2xx} non-2xx)` : ''),
    )
  }
}
const holds = (['full', 'range'] as const).every((load) => medians[load].offload.mbps >= 0.95 * medians[load].nginx.mbps && medians[load].offload.non2xx === 0)
console.log(`goal: offload ≥ 0.95× nginx, full and Range: ${holds ? 'holds' : 'MISSES'}`)
writeFileSync(
  path.join(import.meta.dir, 'results/media-offload.json'),
  `${JSON.stringify({ at: new Date().toISOString(), secondsPerRun: SECONDS, rounds: ROUNDS, holds, medians, runs }, null, 2)}\n`,
)
