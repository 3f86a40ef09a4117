// The ways Bun can send a file, beside nginx with and without tcp_nopush (TCP_CORK), on the load
// of the /media row (wrk -t1, an 8 MiB file: 8 connections full, 16 connections a 1 MiB Range),
// servers in turns for ROUNDS rounds, medians. Per server: MB/s, its CPU per request and wrk's.
// Decision 041 reads it: the same nginx uncorked behaves like every Bun variant that uses sendfile.
//   bun bench/media-variants.ts          (SECONDS=3, ROUNDS=3 by default)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, openUp, startNginx } from '../tests/helpers/listing-servers'

const SECONDS = Number(process.env.SECONDS ?? 3)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const SIZE = 8 * 1024 * 1024
const RANGE = `bytes=${SIZE / 2}-${SIZE / 2 + 1048575}`

/** Each variant answers GET /big.mp3, full or a single `bytes=a-b` Range. */
const VARIANTS = {
  // What /media does: a Bun.file body (sendfile), a Range as a sliced Bun.file.
  'Bun.file slice': (file: string) => (request: Request) => fileAnswer(request, Bun.file(file)),
  // Bun's own file route: native, no JS per request.
  'Bun routes file': null,
  // The Range read into memory first (headers and body leave in one write; two copies).
  'Range read to memory': (file: string) => async (request: Request) => {
    const range = rangeOf(request)
    if (!range) return new Response(Bun.file(file))
    const body = await Bun.file(file)
      .slice(range.start, range.end + 1)
      .bytes()
    return new Response(body, { status: 206, headers: { 'content-range': `bytes ${range.start}-${range.end}/${SIZE}` } })
  },
  // A mapping of the file (not usable in the app: a truncated file kills the process with SIGBUS).
  'Bun.mmap subarray': (file: string) => {
    const map = Bun.mmap(file)
    return (request: Request) => {
      const range = rangeOf(request)
      if (!range) return new Response(map)
      return new Response(map.subarray(range.start, range.end + 1), { status: 206, headers: { 'content-range': `bytes ${range.start}-${range.end}/${SIZE}` } })
    }
  },
} as const
type Variant = keyof typeof VARIANTS

function rangeOf(request: Request) {
  const m = /^bytes=(\d+)-(\d+)$/.exec(request.headers.get('range') ?? '')
  return m ? { start: Number(m[1]), end: Number(m[2]) } : null
}

function fileAnswer(request: Request, file: Blob) {
  const range = rangeOf(request)
  if (!range) return new Response(file)
  return new Response(file.slice(range.start, range.end + 1), { status: 206, headers: { 'content-range': `bytes ${range.start}-${range.end}/${SIZE}` } })
}

const CLOCK_TICKS = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim()) || 100

/** CPU seconds of a process and its children (nginx's worker). */
function cpuSeconds(pid: number): number {
  let sum = 0
  for (const p of [pid, ...childrenOf(pid)]) {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')
    sum += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  }
  return sum
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

type Run = { mbps: number; serverUs: number; wrkUs: number; failed: boolean }

async function wrk(url: string, connections: number, pid: number, range?: string): Promise<Run> {
  const before = cpuSeconds(pid)
  const args = ['wrk', '-t1', `-c${connections}`, `-d${SECONDS}s`, ...(range ? ['-H', `range: ${range}`] : []), url]
  const proc = Bun.spawn(args, { stdout: 'pipe' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  const usage = proc.resourceUsage()
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0)
  const [, amount, unit] = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out) ?? ['', '0', 'MB']
  const mbps = Number(amount) * ({ B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 }[unit] ?? 1)
  return {
    mbps,
    serverUs: requests ? ((cpuSeconds(pid) - before) * 1e6) / requests : Number.NaN,
    wrkUs: requests && usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / requests : Number.NaN,
    failed: requests === 0 || /Non-2xx/.test(out),
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'vibes-media-variants-'))
  openUp(dir)
  const bytes = new Uint8Array(SIZE)
  for (let i = 0; i < SIZE; i += 4096) bytes[i] = i & 255
  const file = path.join(dir, 'big.mp3')
  writeFileSync(file, bytes)
  const servers: Array<{ name: string; url: string; pid: number; stop: () => Promise<unknown> }> = []
  try {
    for (const [name, extra] of [
      ['nginx (tcp_nopush on)', ''],
      ['nginx tcp_nopush off', 'tcp_nopush off;'],
    ]) {
      const nginx = await startNginx(dir, '127.0.0.1', extra)
      servers.push({ name, url: `${nginx.url}/big.mp3`, pid: nginx.pid, stop: nginx.stop })
    }
    for (const variant of Object.keys(VARIANTS) as Variant[]) {
      const port = await freePort()
      const proc = Bun.spawn(['bun', import.meta.path, '--serve', variant, file], {
        env: { ...process.env, PORT: String(port) },
        stdout: 'inherit',
        stderr: 'inherit',
      })
      const url = `http://127.0.0.1:${port}/big.mp3`
      for (let i = 0; ; i++) {
        if (
          await fetch(url).then(
            (r) => r.arrayBuffer().then(() => r.ok),
            () => false,
          )
        )
          break
        if (i > 200) throw new Error(`${variant} did not start`)
        await Bun.sleep(25)
      }
      servers.push({
        name: variant,
        url,
        pid: proc.pid,
        stop: async () => {
          proc.kill()
          await proc.exited
        },
      })
    }
    const runs = new Map<string, { full: Run[]; range: Run[] }>(servers.map((s) => [s.name, { full: [], range: [] }]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) runs.get(s.name)?.full.push(await wrk(s.url, 8, s.pid))
      for (const s of servers) runs.get(s.name)?.range.push(await wrk(s.url, 16, s.pid, RANGE))
    }
    const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
    console.log(`wrk -t1 on loopback, ${SECONDS} s per run, median of ${ROUNDS} rounds in turns; CPU per request, server + wrk`)
    console.log(`${''.padEnd(24)} ${'full 8 MiB (8 conn.)'.padEnd(34)} 1 MiB Range (16 conn.)`)
    for (const [name, r] of runs) {
      const cell = (list: Run[]) =>
        `${f0(median(list.map((x) => x.mbps)))} MB/s, ${f0(median(list.map((x) => x.serverUs)))} + ${f0(median(list.map((x) => x.wrkUs)))} µs${list.some((x) => x.failed) ? ' (FAILED)' : ''}`
      console.log(`${name.padEnd(24)} ${cell(r.full).padEnd(34)} ${cell(r.range)}`)
    }
  } finally {
    for (const s of servers) await s.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--serve') {
  const variant = process.argv[3] as Variant
  const file = process.argv[4]
  const make = VARIANTS[variant]
  Bun.serve({
    port: Number(process.env.PORT),
    hostname: '127.0.0.1',
    ...(make ? { fetch: make(file) } : { routes: { '/big.mp3': new Response(Bun.file(file)) }, fetch: () => new Response(null, { status: 404 }) }),
  })
} else {
  await main()
}
