// wrk on loopback (one thread) and the CPU a load cost: the server's process tree from /proc and
// wrk's own rusage. Shared by the fast-path table (run.ts) and the media offload bench.
import { readdirSync, readFileSync } from 'node:fs'

/** Seconds per wrk run: the SECONDS environment variable, 5 by default. */
export const SECONDS = Number(process.env.SECONDS ?? 5)

/** The process and all its descendants (from /proc). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)])
    } catch {}
  }
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]) ?? []))
  return tree
}

export type Load = {
  rate: number
  requests: number
  p50: number
  p99: number
  mbps: number
  non2xx: number
  cpuUsPerRequest?: number
  /** wrk's own CPU per request: on loopback the kernel charges part of a transfer to the receiver. */
  clientCpuUsPerRequest: number
}

function ms(text: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(text)
  if (!m) return Number.NaN
  return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1)
}

const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** CPU seconds (user + system) a process has used so far; 0 for one that has ended since it was listed. */
function cpuSeconds(pid: number): number {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return 0 // a PostgreSQL backend or a worker that ended between the listing and the read
  }
  const fields = stat.split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
}

/** CPU seconds of a process and its descendants (nginx's work is done by its worker). */
export const treeCpuSeconds = (pid: number) => processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0)

/** CPU time a process's threads have used so far, ns (schedstat): a start-up costs a few clock
 *  ticks, which /proc/<pid>/stat counts in whole 10 ms steps. */
export function cpuNanoseconds(pid: number): number {
  let ns = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {} // the thread ended meanwhile
  }
  return ns
}

/** wrk against url; with the server's pid (or the pids of the servers a request passes), also the server's CPU per request, which other work on
 *  the machine disturbs far less than req/s (it is what req/s would be on an idle core). */
export async function wrk(url: string, connections: number, headers: Record<string, string> = {}, pid?: number | number[]): Promise<Load> {
  const pids = pid === undefined ? [] : [pid].flat()
  const serverCpu = () => pids.reduce((sum, p) => sum + treeCpuSeconds(p), 0)
  const cpuBefore = serverCpu()
  const args = ['wrk', '-t1', `-c${connections}`, `-d${SECONDS}s`, '--latency']
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  const proc = Bun.spawn([...args, url], { stdout: 'pipe', stderr: 'pipe' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const usage = proc.resourceUsage()
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)
  if (!rate) throw new Error(`wrk failed on ${url}: ${out}${await new Response(proc.stderr).text()}`)
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out)
  const unit = { B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 }[transfer?.[2] ?? 'MB'] ?? 1
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  return {
    cpuUsPerRequest: pids.length && requests ? ((serverCpu() - cpuBefore) * 1e6) / requests : undefined,
    clientCpuUsPerRequest: usage && requests ? Number(usage.cpuTime.user + usage.cpuTime.system) / requests : 0,
    rate: Number(rate[1]),
    requests,
    // From the distribution's own lines: a +/- Stdev figure such as 66.50% ends in 50% too.
    p50: ms(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: ms(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    mbps: Number(transfer?.[1] ?? 0) * unit,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  }
}
