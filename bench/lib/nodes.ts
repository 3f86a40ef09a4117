// Vibes nodes for the one-machine-versus-several benches: built servers on SQLite or on a throwaway
// PostgreSQL cluster (tests/helpers/postgres.ts) over one shared media root, a member who saved a
// few of its folders, a bare Bun.serve reference (bench/run.ts --bare), where a cluster's CPU goes,
// the load average, and each bench's JSON in bench/results/.
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { api, createMember } from '../../tests/helpers/api'
import { freePort } from '../../tests/helpers/listing-servers'
import { makeTone } from '../../tests/helpers/media'
import { type PostgresOptions, startPostgres, type TestPostgres } from '../../tests/helpers/postgres'
import { startServer, TEST_AUTH_SECRET, type TestServer } from '../../tests/helpers/server'
import { type Load, treeCpuSeconds, wrk } from './wrk'

/** `--name value` from the command line, else the fallback. */
export function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}

export const loadAverage = () => loadavg().map((l) => Number(l.toFixed(2)))

/** A media root of `folders` folders, each one tone (hard links of one ffmpeg-made file). */
export function mediaWithFolders(folders: number): { root: string; folders: string[] } {
  const root = mkdtempSync(path.join(tmpdir(), 'vibes-bench-media-'))
  const source = path.join(root, 'tone.mp3')
  makeTone(source, { title: 'Tone', artist: 'Bench', album: 'Nodes', seconds: 2 })
  const names = Array.from({ length: folders }, (_, i) => `Folder ${i + 1}`)
  for (const name of names) {
    mkdirSync(path.join(root, name))
    linkSync(source, path.join(root, name, 'tone.mp3'))
  }
  return { root, folders: names }
}

// What an interrupted bench leaves running on its own (`bun run bench` cuts each bench at 3
// minutes): the servers it spawned and the cluster, which pg_ctl starts detached.
const children = new Set<number>()
let cluster: TestPostgres | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const pid of children) process.kill(pid, 'SIGTERM')
    cluster?.stopNow()
    process.exit(130)
  })

/** A throwaway cluster with a `bench` database (fsync off, as the tests' clusters, unless `durable`). */
export async function benchPostgres(options: PostgresOptions = {}): Promise<TestPostgres & { databaseUrl: string }> {
  cluster = await startPostgres(options)
  await cluster.createDatabase('bench')
  return { ...cluster, databaseUrl: cluster.url('bench') }
}

export type Node = TestServer & { engine: 'sqlite' | 'postgres' }

/** A built server on SQLite (no databaseUrl) or on that PostgreSQL database, its own DATA_DIR, the
 *  shared media root; the same secret on every node, as production requires on PostgreSQL. */
export async function startNode(mediaRoot: string, databaseUrl?: string, env: Record<string, string> = {}): Promise<Node> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-node-'))
  const server = await startServer({ AUTH_SECRET: TEST_AUTH_SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env }, { dataDir, mediaRoot })
  children.add(server.pid)
  return {
    ...server,
    engine: databaseUrl ? 'postgres' : 'sqlite',
    async stop() {
      await server.stop()
      children.delete(server.pid)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A fresh member who saved each folder; a folder saves once the start-up scan has indexed it. */
export async function memberWithFolders(url: string, folders: string[]): Promise<{ token: string; username: string }> {
  const member = await createMember(url)
  for (const name of folders) {
    for (let attempt = 0; ; attempt++) {
      const res = await api(url, 'POST', '/user/folders', { token: member.token, body: { label: name, path: `/${name}` } })
      if (res.status === 201) break
      if (attempt > 400) throw new Error(`folder ${name} not saved: ${res.status} ${JSON.stringify(res.body)}`)
      await Bun.sleep(50)
    }
  }
  return { token: member.token, username: member.username }
}

/** The cluster's postmaster (its backends and helpers are its children): the parent of a backend. */
export async function postmasterPid(databaseUrl: string): Promise<number> {
  const client = new Bun.SQL({ url: databaseUrl, max: 1 })
  try {
    const [{ pid }] = await client`SELECT pg_backend_pid() AS pid`
    const stat = await Bun.file(`/proc/${pid}/stat`).text()
    return Number(stat.split(') ')[1].split(' ')[1])
  } finally {
    await client.close()
  }
}

/** What bench/run.ts measures the app against: a bare Bun.serve answering /api/health's JSON, its own process. */
export async function startBare(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort()
  const proc = Bun.spawn(['bun', path.join(import.meta.dir, '../run.ts'), '--bare'], {
    env: { ...process.env, PORT: String(port), MEDIA_FILE: '' },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  children.add(proc.pid)
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (i > 200) throw new Error('bare Bun.serve did not start')
    await Bun.sleep(50)
  }
  return {
    url,
    pid: proc.pid,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
      children.delete(proc.pid)
    },
  }
}

/** A wrk run and the CPU each part (a list of process trees) spent per request meanwhile, µs. */
export type Measured = Load & { cpu: Record<string, number> }

export async function measure(url: string, connections: number, headers: Record<string, string>, parts: Record<string, number[]>): Promise<Measured> {
  const cpuOf = () => Object.fromEntries(Object.entries(parts).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0)]))
  const before = cpuOf()
  const load = await wrk(url, connections, headers)
  const after = cpuOf()
  const cpu = Object.fromEntries(Object.keys(parts).map((name) => [name, load.requests ? ((after[name] - before[name]) * 1e6) / load.requests : Number.NaN]))
  return { ...load, cpu }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Each figure's own median over rounds (not one round's figures). */
export function medianRun(runs: Measured[]): Measured {
  const of = (pick: (m: Measured) => number) => median(runs.map(pick))
  return {
    rate: of((m) => m.rate),
    requests: of((m) => m.requests),
    p50: of((m) => m.p50),
    p99: of((m) => m.p99),
    mbps: of((m) => m.mbps),
    non2xx: runs.reduce((sum, m) => sum + m.non2xx, 0),
    clientCpuUsPerRequest: of((m) => m.clientCpuUsPerRequest),
    cpu: Object.fromEntries(Object.keys(runs[0].cpu).map((name) => [name, of((m) => m.cpu[name])])),
  }
}

/** Writes bench/results/<name>.json. */
export function writeResults(name: string, data: unknown) {
  const file = path.join(import.meta.dir, '../results', `${name}.json`)
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...(data as object) }, null, 2)}\n`)
  console.log(`wrote bench/results/${name}.json`)
}
