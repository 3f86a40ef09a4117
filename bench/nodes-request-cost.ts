// What a request costs on PostgreSQL beside SQLite: the same built server started twice (one on
// DATA_DIR/vibes.db, one with DATABASE_URL on a throwaway PostgreSQL cluster), the same member with
// a few saved folders on each (their /profile page, served from the member page cache, authenticates them), and a bare Bun.serve (bench/run.ts --bare) as the reference. Per
// route: p50/p99 latency and CPU per request with one connection (a request's own cost: on
// PostgreSQL every query is a round trip to another process), then req/s, p50/p99 and CPU per
// request under load. CPU is the server process's clock ticks (/proc/<pid>/stat) before and after
// the run divided by the requests wrk counted, and on PostgreSQL also the cluster's (postmaster and
// backends): other work on a shared machine disturbs it far less than req/s. Targets run in turns,
// ROUNDS times; each figure is its median.
//   bun run build && bun bench/nodes-request-cost.ts [--rounds 3] [--connections 32] [--folders 5]
//   SECONDS=5 (default) per wrk run. Writes bench/results/nodes-request-cost.json.
import { rmSync } from 'node:fs'
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
  startBare,
  startNode,
  writeResults,
} from './lib/nodes'
import { SECONDS } from './lib/wrk'

const ROUNDS = flag('rounds', 3)
const CONNECTIONS = flag('connections', 32)
const FOLDERS = flag('folders', 5)
const loadBefore = loadAverage()

const media = mediaWithFolders(FOLDERS)
const pg = await benchPostgres()
const [sqliteNode, pgNode, bare] = await Promise.all([startNode(media.root), startNode(media.root, pg.databaseUrl), startBare()])
const postgres = await postmasterPid(pg.databaseUrl)

try {
  const members = { sqlite: await memberWithFolders(sqliteNode.url, media.folders), postgres: await memberWithFolders(pgNode.url, media.folders) }
  type Target = { route: string; server: string; url: string; headers: Record<string, string>; parts: Record<string, number[]>; shows?: string }
  const targets: Target[] = [{ route: 'GET /api/health', server: 'bare Bun.serve', url: `${bare.url}/api/health`, headers: {}, parts: { server: [bare.pid] } }]
  for (const [route, pathname, member] of [
    ['GET /api/health', '/api/health', false],
    ['GET /api/user/folders', '/api/user/folders', true],
    ['SSR /profile (member)', '/profile', true],
  ] as const) {
    for (const node of [sqliteNode, pgNode]) {
      const headers: Record<string, string> = member ? { authorization: `Bearer ${members[node.engine].token}` } : {}
      const parts: Record<string, number[]> = node.engine === 'postgres' ? { server: [node.pid], postgres: [postgres] } : { server: [node.pid] }
      const shows = member ? (pathname === '/profile' ? members[node.engine].username : media.folders[0]) : undefined
      targets.push({ route, server: node.engine === 'postgres' ? 'PostgreSQL' : 'SQLite', url: node.url + pathname, headers, parts, shows })
    }
  }

  // Each target answers what its member sees (their folders, their name on the page), and is warm (JIT, pool, caches).
  for (const t of targets) {
    const res = await fetch(t.url, { headers: t.headers })
    const body = await res.text()
    if (res.status !== 200 || (t.shows && !body.includes(t.shows))) throw new Error(`${t.server} ${t.route}: ${res.status} ${body.slice(0, 200)}`)
    for (let i = 0; i < 300; i++) await (await fetch(t.url, { headers: t.headers })).arrayBuffer()
  }

  const runs = new Map<Target, { one: Measured[]; many: Measured[] }>(targets.map((t) => [t, { one: [], many: [] }]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      const r = runs.get(t) as { one: Measured[]; many: Measured[] }
      r.one.push(await measure(t.url, 1, t.headers, t.parts))
      r.many.push(await measure(t.url, CONNECTIONS, t.headers, t.parts))
    }
    console.error(`… round ${round + 1} of ${ROUNDS}, load average ${loadAverage().join(' ')}`)
  }

  const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
  const ms = (m: Measured) => `${m.p50.toFixed(2)} / ${m.p99.toFixed(2)}`
  const cpu = (m: Measured) =>
    m.cpu.postgres === undefined ? f0(m.cpu.server) : `${f0(m.cpu.server)} + ${f0(m.cpu.postgres)} = ${f0(m.cpu.server + m.cpu.postgres)}`
  console.log(`\nwrk -t1, ${SECONDS} s a run, median of ${ROUNDS} rounds in turns; CPU µs per request: server (+ PostgreSQL cluster on PostgreSQL)`)
  console.log(
    `${'route'.padEnd(24)}${'server'.padEnd(16)}${'1 conn p50/p99 ms'.padStart(19)}${'CPU µs/req'.padStart(22)}  │${`${CONNECTIONS} conns req/s`.padStart(16)}${'p50/p99 ms'.padStart(16)}${'CPU µs/req'.padStart(22)}${'non-2xx'.padStart(9)}`,
  )
  const rows = []
  for (const t of targets) {
    const r = runs.get(t) as { one: Measured[]; many: Measured[] }
    const one = medianRun(r.one)
    const many = medianRun(r.many)
    console.log(
      `${t.route.padEnd(24)}${t.server.padEnd(16)}${ms(one).padStart(19)}${cpu(one).padStart(22)}  │${f0(many.rate).padStart(16)}${ms(many).padStart(16)}${cpu(many).padStart(22)}${String(one.non2xx + many.non2xx).padStart(9)}`,
    )
    rows.push({ route: t.route, server: t.server, oneConnection: one, loaded: many, runs: r })
  }
  const loadAfter = loadAverage()
  console.log(`load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`)
  writeResults('nodes-request-cost', { secondsPerRun: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, folders: FOLDERS, loadBefore, loadAfter, rows })
} finally {
  await Promise.all([sqliteNode.stop(), pgNode.stop(), bare.stop()])
  await pg.stop()
  rmSync(media.root, { recursive: true, force: true })
}
