// Two builds of Vibes in one run, to tell a change from the machine's drift: the fast-path table's
// rows (bench/run.ts) measured for this checkout and another (`--before DIR`, a `git worktree` of
// the commit to compare with), each load run for both builds in turns (A B, then B A, …), so both
// meet the same load; the figure is each row's median over the rounds and the ratio this / before.
// Both run as `bun run start` (the bytecode bundle), on SQLite, each with its own data directory.
//   Start-up: RESTARTS cold starts of each in turns on a migrated data directory (ms to the first
//   /api/health 200 and the server's CPU until then), and the resident memory 1 s later (idle).
//   Requests: wrk -t1, 64 connections, SECONDS (5) a run, ROUNDS (3) rounds: /api/health,
//   /api/user/folders (Bearer), SSR / anonymous, SSR /folders (a member's page); req/s, p99 and
//   the server's CPU per request (from /proc; the steadier figure on a shared machine).
// Run: git worktree add --detach /tmp/before <commit> && (cd /tmp/before && bun install && bun run build)
//      bun bench/builds-side-by-side.ts --before /tmp/before [--rounds 3] [--restarts 9]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { buildIsStale } from '../scripts/build-state'
import { rssMb, type Spawned, spawnServer } from './lib/spawn'
import { type Load, wrk } from './lib/wrk'

const root = path.resolve(import.meta.dir, '..')

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at > 0 ? process.argv[at + 1] : undefined
}
const beforeDir = option('before')
if (!beforeDir) {
  console.error('usage: bun bench/builds-side-by-side.ts --before DIR [--rounds 3] [--restarts 9]')
  process.exit(2)
}
const ROUNDS = Number(option('rounds') ?? 3)
const RESTARTS = Number(option('restarts') ?? 9)

type Build = { name: 'before' | 'this'; dir: string; commit: string }
const commitOf = (dir: string) => Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: dir }).stdout.toString().trim()
const builds: Build[] = [
  { name: 'before', dir: path.resolve(beforeDir), commit: commitOf(path.resolve(beforeDir)) },
  { name: 'this', dir: root, commit: commitOf(root) },
]
for (const build of builds) {
  if (!buildIsStale(build.dir)) continue
  console.log(`building ${build.name} (${build.dir})…`)
  if (Bun.spawnSync(['bun', 'run', 'build'], { cwd: build.dir, stdout: 'ignore', stderr: 'inherit' }).exitCode !== 0) process.exit(1)
}

const START = ['bun', 'run', 'start']
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
const f2 = (n: number) => n.toFixed(2)
/** Each round the other build goes first. */
const inTurns = (round: number) => (round % 2 === 0 ? builds : [...builds].reverse())

async function startUp() {
  const migrated = Object.fromEntries(builds.map((b) => [b.name, mkdtempSync(path.join(tmpdir(), `vibes-sbs-${b.name}-`))]))
  for (const b of builds) await (await spawnServer(START, {}, b.dir, migrated[b.name])).stop()
  const samples = Object.fromEntries(builds.map((b) => [b.name, { ms: [] as number[], cpuMs: [] as number[], idleMb: [] as number[] }]))
  for (let i = 0; i < RESTARTS; i++) {
    for (const b of inTurns(i)) {
      const server = await spawnServer(START, {}, b.dir, migrated[b.name])
      await Bun.sleep(1000)
      samples[b.name].ms.push(server.startMs)
      samples[b.name].cpuMs.push(server.startCpuMs)
      samples[b.name].idleMb.push(rssMb(server.pid))
      await server.stop()
    }
  }
  for (const dir of Object.values(migrated)) rmSync(dir, { recursive: true, force: true })
  return Object.fromEntries(
    builds.map((b) => {
      const s = samples[b.name]
      return [b.name, { ms: median(s.ms), cpuMs: median(s.cpuMs), idleMb: median(s.idleMb), samples: s }]
    }),
  )
}

async function member(server: Spawned): Promise<Record<string, string>> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`
  const credentials = { email: `sbs${stamp}@example.com`, password: 'tune-in-2-vibes' }
  const post = (to: string, body: unknown) =>
    fetch(`${server.url}/api/auth/${to}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const signup = await post('signup', { username: `sbs${stamp}`, ...credentials })
  if (signup.status !== 201) throw new Error(`signup: ${signup.status}`)
  const { data } = (await (await post('login', credentials)).json()) as { data: { token: string } }
  return { authorization: `Bearer ${data.token}` }
}

const ROWS = [
  { row: 'GET /api/health', path: '/api/health', member: false },
  { row: 'GET /api/user/folders (Bearer)', path: '/api/user/folders', member: true },
  { row: 'SSR GET / anonymous', path: '/', member: false },
  { row: 'SSR /folders (member)', path: '/folders', member: true },
] as const

async function requests() {
  const servers = await Promise.all(builds.map(async (b) => ({ build: b, server: await spawnServer(START, { RATE_LIMIT: 'off' }, b.dir) })))
  try {
    const headers = Object.fromEntries(await Promise.all(servers.map(async ({ build, server }) => [build.name, await member(server)] as const)))
    for (const { build, server } of servers)
      for (const { path: p, member: asMember } of ROWS)
        for (let i = 0; i < 200; i++) await (await fetch(server.url + p, { headers: asMember ? headers[build.name] : {} })).arrayBuffer()
    const runs: Record<string, Record<string, Load[]>> = {}
    for (let round = 0; round < ROUNDS; round++)
      for (const { row, path: p, member: asMember } of ROWS)
        for (const b of inTurns(round)) {
          const { server } = servers.find((s) => s.build === b) as (typeof servers)[number]
          const load = await wrk(server.url + p, 64, asMember ? headers[b.name] : {}, server.pid)
          if (load.non2xx) throw new Error(`${b.name} ${p}: ${load.non2xx} failed answers`)
          ;((runs[row] ??= {})[b.name] ??= []).push(load)
        }
    return runs
  } finally {
    for (const { server } of servers) await server.stop()
  }
}

console.log(
  `Two builds side by side: before ${builds[0].commit} (${builds[0].dir}), this ${builds[1].commit}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
const cold = await startUp()
const table: string[] = []
const line = (cells: string[]) => table.push(`| ${cells.join(' | ')} |`)
line(['row', `before ${builds[0].commit}`, `this ${builds[1].commit}`, 'this / before'])
line(['---', '---', '---', '---'])
const c = (name: string) => cold[name]
line(['start-up: ms to first answer (restart)', f0(c('before').ms), f0(c('this').ms), f2(c('this').ms / c('before').ms)])
line(['start-up: server CPU ms', f0(c('before').cpuMs), f0(c('this').cpuMs), f2(c('this').cpuMs / c('before').cpuMs)])
line(['idle memory 1 s after start, MB', f0(c('before').idleMb), f0(c('this').idleMb), f2(c('this').idleMb / c('before').idleMb)])
const runs = await requests()
const medians: Record<string, Record<string, { rate: number; p99: number; cpuUs: number }>> = {}
for (const { row } of ROWS) {
  const of = (name: string) => {
    const list = runs[row][name]
    return { rate: median(list.map((l) => l.rate)), p99: median(list.map((l) => l.p99)), cpuUs: median(list.map((l) => l.cpuUsPerRequest ?? Number.NaN)) }
  }
  const [before, now] = [of('before'), of('this')]
  medians[row] = { before, this: now }
  line([`${row}: req/s`, f0(before.rate), f0(now.rate), f2(now.rate / before.rate)])
  line([`${row}: server CPU µs/req`, f0(before.cpuUs), f0(now.cpuUs), f2(now.cpuUs / before.cpuUs)])
  line([`${row}: p99 ms`, before.p99.toFixed(1), now.p99.toFixed(1), f2(now.p99 / before.p99)])
}
console.log(table.join('\n'))
console.log(
  `load average at the end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
mkdirSync(path.join(import.meta.dir, 'results'), { recursive: true })
const file = path.join(import.meta.dir, 'results/builds-side-by-side.json')
writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), builds, rounds: ROUNDS, restarts: RESTARTS, startUp: cold, medians, runs }, null, 2)}\n`)
console.log(`wrote ${path.relative(root, file)}`)
