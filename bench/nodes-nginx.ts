// Requests per second through nginx with one node and with two nodes on one PostgreSQL, as the
// README's "Growing past one box" sets it up (round-robin upstream, keep-alive to the nodes): GET
// /api/health and GET /api/user/folders (a member with a few saved folders), beside the same node
// without nginx in front and nginx serving /api/health's answer as a static file (the reference:
// what nginx alone does for a small answer). Load is wrk on loopback (bench/lib/wrk.ts); with each
// figure, where the CPU went per request: the nodes, nginx, the PostgreSQL cluster. On one machine
// the second node shares the cores with the first, nginx, PostgreSQL and wrk, so the two-node rows
// say what a second node costs here; on separate machines the nodes' CPU per request is what
// scales. Targets run in turns, ROUNDS times; each figure is its median.
//   bun run build && bun bench/nodes-nginx.ts [--rounds 3] [--connections 64] [--folders 5]
//   SECONDS=5 (default) per wrk run. Writes bench/results/nodes-nginx.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openUp, startNginx } from '../tests/helpers/listing-servers'
import {
  benchPostgres,
  flag,
  loadAverage,
  type Measured,
  measure,
  medianRun,
  memberWithFolders,
  mediaWithFolders,
  postmasterPid,
  startNode,
  writeResults,
} from './lib/nodes'
import { SECONDS } from './lib/wrk'

const ROUNDS = flag('rounds', 3)
const CONNECTIONS = flag('connections', 64)
const FOLDERS = flag('folders', 5)
const loadBefore = loadAverage()

const media = mediaWithFolders(FOLDERS)
const pg = await benchPostgres()
const env = { TRUST_PROXY: 'true' }
const [a, b] = await Promise.all([startNode(media.root, pg.databaseUrl, env), startNode(media.root, pg.databaseUrl, env)])
const postgres = await postmasterPid(pg.databaseUrl)
const staticRoot = mkdtempSync(path.join(tmpdir(), 'vibes-bench-static-'))
openUp(staticRoot)
mkdirSync(path.join(staticRoot, 'static'))
writeFileSync(path.join(staticRoot, 'static/health.json'), await (await fetch(`${a.url}/api/health`)).text())
const proxy = (upstream: string) => `proxy_pass http://${upstream}/;
       proxy_http_version 1.1;
       proxy_set_header Connection "";
       proxy_set_header Host $host;
       proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;`
// /one/ goes to node A alone, /two/ round-robin to A and B; /static/ is a file.
const nginx = await startNginx(
  staticRoot,
  '127.0.0.1',
  `location /one/ { ${proxy('one')} }
   location /two/ { ${proxy('two')} }`,
  `upstream one { server 127.0.0.1:${a.port}; keepalive ${CONNECTIONS}; }
   upstream two { server 127.0.0.1:${a.port}; server 127.0.0.1:${b.port}; keepalive ${CONNECTIONS}; }`,
)

try {
  const member = await memberWithFolders(a.url, media.folders)
  const bearer = { authorization: `Bearer ${member.token}` }
  type Target = { route: string; via: string; url: string; headers: Record<string, string>; parts: Record<string, number[]>; shows?: string }
  const targets: Target[] = [
    { route: 'GET /api/health', via: 'nginx static file', url: `${nginx.url}/static/health.json`, headers: {}, parts: { nginx: [nginx.pid] } },
  ]
  for (const [route, pathname, headers, shows] of [
    ['GET /api/health', 'api/health', {}, undefined],
    ['GET /api/user/folders', 'api/user/folders', bearer, media.folders[0]],
  ] as const) {
    targets.push(
      { route, via: 'one node, direct', url: `${a.url}/${pathname}`, headers, shows, parts: { nodes: [a.pid], nginx: [], postgres: [postgres] } },
      {
        route,
        via: 'nginx → one node',
        url: `${nginx.url}/one/${pathname}`,
        headers,
        shows,
        parts: { nodes: [a.pid], nginx: [nginx.pid], postgres: [postgres] },
      },
      {
        route,
        via: 'nginx → two nodes',
        url: `${nginx.url}/two/${pathname}`,
        headers,
        shows,
        parts: { nodes: [a.pid, b.pid], nginx: [nginx.pid], postgres: [postgres] },
      },
    )
  }
  for (const t of targets) {
    const res = await fetch(t.url, { headers: t.headers })
    const body = await res.text()
    if (res.status !== 200 || (t.shows && !body.includes(t.shows))) throw new Error(`${t.via} ${t.route}: ${res.status} ${body.slice(0, 200)}`)
    for (let i = 0; i < 300; i++) await (await fetch(t.url, { headers: t.headers })).arrayBuffer()
  }

  const runs = new Map<Target, Measured[]>(targets.map((t) => [t, []]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) runs.get(t)?.push(await measure(t.url, CONNECTIONS, t.headers, t.parts))
    console.error(`… round ${round + 1} of ${ROUNDS}, load average ${loadAverage().join(' ')}`)
  }

  const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en-US'))
  console.log(`\nwrk -t1 -c${CONNECTIONS}, ${SECONDS} s a run, median of ${ROUNDS} rounds in turns; CPU µs per request by part`)
  console.log(
    `${'route'.padEnd(24)}${'via'.padEnd(20)}${'req/s'.padStart(9)}${'p50/p99 ms'.padStart(17)}${'nodes'.padStart(8)}${'nginx'.padStart(8)}${'postgres'.padStart(10)}${'total'.padStart(8)}${'non-2xx'.padStart(9)}`,
  )
  const rows = []
  for (const t of targets) {
    const list = runs.get(t) as Measured[]
    const m = medianRun(list)
    const total = Object.values(m.cpu).reduce((sum, v) => sum + v, 0)
    console.log(
      `${t.route.padEnd(24)}${t.via.padEnd(20)}${f0(m.rate).padStart(9)}${`${m.p50.toFixed(2)} / ${m.p99.toFixed(2)}`.padStart(17)}${f0(m.cpu.nodes).padStart(8)}${f0(t.parts.nginx.length ? m.cpu.nginx : undefined).padStart(8)}${f0(m.cpu.postgres).padStart(10)}${f0(total).padStart(8)}${String(m.non2xx).padStart(9)}`,
    )
    rows.push({ route: t.route, via: t.via, median: m, runs: list })
  }
  const loadAfter = loadAverage()
  console.log(`load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`)
  writeResults('nodes-nginx', { secondsPerRun: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, folders: FOLDERS, loadBefore, loadAfter, rows })
} finally {
  await nginx.stop()
  await Promise.all([a.stop(), b.stop()])
  await pg.stop()
  rmSync(media.root, { recursive: true, force: true })
  rmSync(staticRoot, { recursive: true, force: true })
}
