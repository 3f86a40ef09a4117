// `bun run bench`: the fast-path table (decision 028), measured side by side in one run, then every
// other bench/*.ts. The references run in the same run under the same loads as the app, so the
// ratios hold on a machine whose absolute speed swings with other work: a bare Bun.serve (its
// own process, a JSON answer like /api/health's) for the API rows, nginx (sendfile, a static copy
// of the app's own `/` HTML and the same media file) for the page and media rows. Load is wrk on
// loopback, one thread, SECONDS per row. Start-up rows spawn `bun run start` and dist/vibes (when
// built and current), five cold starts each (a first start from an empty data directory, and a
// restart on a migrated one, which the goal is about) in turns with a bare Bun.serve started the
// same way (`bun bare.ts`, a compiled bare binary), and read RSS from /proc. Each row prints its
// goal and whether it holds; everything lands in bench/results/latest.json. The API rows also
// give the server's CPU per request beside the reference's (from /proc), a ratio that other work
// on a shared machine disturbs far less than req/s.
//   bun run bench                 the table, then the other benches (each cut at 3 minutes)
//   bun run bench -- --table      the table only
//   bun run bench -- --start-up   the start-up and memory rows only
//   bun run bench -- --media      the /media row only
//   SECONDS=5 (default) sets the wrk duration per row.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { openUp, startNginx } from '../tests/helpers/listing-servers'
import { BINARY_OUTPUT, buildIsStale } from '../scripts/build-state'
import { rssMb, SECRET, type Spawned, spawnServer } from './lib/spawn'
import { type Load, processTree, SECONDS, wrk } from './lib/wrk'

const root = path.resolve(import.meta.dir, '..')

const MEDIA_BYTES = 8 * 1024 * 1024
const OTHER_BENCH_LIMIT_MS = 3 * 60_000
const mediaOnly = process.argv.includes('--media')
const SETTLE_MS = 3000

type Row = { row: string; figures: string; goal: string; holds: boolean | null; data: Record<string, unknown> }
const rows: Row[] = []
function report(row: Row) {
  rows.push(row)
  const verdict = row.holds === null ? 'n/a  ' : row.holds ? 'holds' : 'MISSES'
  console.log(`${row.row.padEnd(34)} ${row.figures.padEnd(64)} goal ${row.goal.padEnd(34)} ${verdict}`)
}
const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
const f2 = (n: number) => n.toFixed(2)
/** Server CPU per request beside the reference's: the steadier reading of the same ratio. */
const cpu = (app: Load, reference: Load) =>
  app.cpuUsPerRequest && reference.cpuUsPerRequest
    ? `; CPU ${f0(app.cpuUsPerRequest)} vs ${f0(reference.cpuUsPerRequest)} µs/req (${f2(reference.cpuUsPerRequest / app.cpuUsPerRequest)}×)`
    : ''

async function bare() {
  // The reference: what Bun.serve itself does for a small JSON answer, and for a file (the media
  // rows' second reference: the runtime's own file serving, a Range as a sliced Bun.file).
  const body = { success: true, data: { status: 'ok' } }
  const mediaFile = process.env.MEDIA_FILE ?? ''
  Bun.serve({
    port: Number(process.env.PORT),
    hostname: '127.0.0.1',
    fetch(request) {
      if (!new URL(request.url).pathname.startsWith('/big.mp3')) return Response.json(body)
      const file = Bun.file(mediaFile)
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.get('range') ?? '')
      if (!range) return new Response(file)
      const [start, end] = [Number(range[1]), Number(range[2])]
      return new Response(file.slice(start, end + 1), { status: 206, headers: { 'content-range': `bytes ${start}-${end}/${file.size}` } })
    },
  })
}

async function apiAndPages() {
  const app = await spawnServer(['bun', 'src/server/entry.ts'], { RATE_LIMIT: 'off' })
  const reference = await spawnServer(['bun', import.meta.path, '--bare'], { MEDIA_FILE: path.join(app.dataDir, 'big.mp3') })
  openUp(app.dataDir)
  const media = new Uint8Array(MEDIA_BYTES)
  for (let i = 0; i < MEDIA_BYTES; i += 4096) media[i] = i & 255
  writeFileSync(path.join(app.dataDir, 'big.mp3'), media)
  // nginx serves the app's own anonymous `/` as a file: what a page costs when it is static.
  writeFileSync(path.join(app.dataDir, 'index.html'), await (await fetch(`${app.url}/`)).text())
  const nginx = await startNginx(app.dataDir, '127.0.0.1')
  try {
    const email = `bench${Date.now()}@example.com`
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `bench${Date.now()}`, email, password: 'tune-in-2-vibes' }),
    })
    if (signup.status !== 201) throw new Error(`signup: ${signup.status}`)
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'tune-in-2-vibes' }),
    })
    const token = ((await login.json()) as { data: { token: string } }).data.token
    const bearer = { authorization: `Bearer ${token}` }

    // Warm every target (JIT, page cache, connections).
    const mediaUrl = app.url + signMediaUrl(SECRET, 'big.mp3')
    for (const [url, h] of [
      [`${reference.url}/api/health`, {}],
      [`${app.url}/api/health`, {}],
      [`${app.url}/api/user/folders`, bearer],
      [`${app.url}/`, {}],
      [`${app.url}/folders`, bearer],
      [`${nginx.url}/index.html`, {}],
    ] as const) {
      for (let i = 0; i < 200; i++) await (await fetch(url, { headers: h })).arrayBuffer()
    }

    if (!mediaOnly) await apiRows(app, reference, nginx, bearer)
    await mediaRow(app, reference, nginx, mediaUrl)
  } finally {
    await nginx.stop()
    await reference.stop()
    await app.stop()
  }
}

type Nginx = Awaited<ReturnType<typeof startNginx>>

async function apiRows(app: Spawned, reference: Spawned, nginx: Nginx, bearer: Record<string, string>) {
  {
    const bareHealth = await wrk(`${reference.url}/api/health`, 64, {}, reference.pid)
    const health = await wrk(`${app.url}/api/health`, 64, {}, app.pid)
    report({
      row: 'GET /api/health, 64 connections',
      figures: `${f0(health.rate)} req/s, ${f2(health.rate / bareHealth.rate)}× bare (${f0(bareHealth.rate)}), p99 ${health.p99.toFixed(1)} ms${cpu(health, bareHealth)}`,
      goal: '≥ 0.5× bare, p99 < 5 ms',
      holds: health.rate / bareHealth.rate >= 0.5 && health.p99 < 5 && health.non2xx === 0,
      data: { app: health, bare: bareHealth },
    })
    const bareAgain = await wrk(`${reference.url}/api/health`, 64, {}, reference.pid)
    const folders = await wrk(`${app.url}/api/user/folders`, 64, bearer, app.pid)
    report({
      row: 'GET /api/user/folders (Bearer)',
      figures: `${f0(folders.rate)} req/s, ${f2(folders.rate / bareAgain.rate)}× bare (${f0(bareAgain.rate)}), p99 ${folders.p99.toFixed(1)} ms${cpu(folders, bareAgain)}`,
      goal: '≥ 0.3× bare, p99 < 10 ms',
      holds: folders.rate / bareAgain.rate >= 0.3 && folders.p99 < 10 && folders.non2xx === 0,
      data: { app: folders, bare: bareAgain },
    })
    const staticPage = await wrk(`${nginx.url}/index.html`, 64)
    const page = await wrk(`${app.url}/`, 64)
    report({
      row: 'SSR GET / anonymous',
      figures: `${f0(page.rate)} req/s, ${f2(page.rate / staticPage.rate)}× nginx static (${f0(staticPage.rate)}), p50 ${page.p50.toFixed(1)} ms`,
      goal: '≥ 0.3× static',
      holds: page.rate / staticPage.rate >= 0.3 && page.non2xx === 0,
      data: { app: page, nginx: staticPage },
    })
    const member = await wrk(`${app.url}/folders`, 64, bearer, app.pid)
    report({
      row: "SSR of a member's page (/folders)",
      figures: `${f0(member.rate)} req/s, p50 ${member.p50.toFixed(1)} ms, p99 ${member.p99.toFixed(1)} ms, ${f0(member.cpuUsPerRequest ?? 0)} µs CPU/req`,
      goal: '≥ 2,000 req/s',
      holds: member.rate >= 2000 && member.non2xx === 0,
      data: { app: member },
    })
  }
}

const MEDIA_ROUNDS = 3

/**
 * /media beside nginx (sendfile on, tcp_nopush on: the reference the goal names) and a bare
 * Bun.serve answering the file itself, each load run in turns for MEDIA_ROUNDS rounds (medians).
 * A third server, the same nginx with tcp_nopush off, shows what the TCP_CORK around a reply's
 * headers and sendfile is worth: Bun.serve sends headers and body without it (decision 041).
 * Beside MB/s: the server's and wrk's CPU per request. On loopback the kernel charges the delivery
 * of an uncorked sendfile to the receiver, wrk, the single thread every row's req/s is bound by.
 */
async function mediaRow(app: Spawned, reference: Spawned, nginx: Nginx, mediaUrl: string) {
  const uncorked = await startNginx(app.dataDir, '127.0.0.1', 'tcp_nopush off;')
  try {
    const targets = {
      nginx: { url: `${nginx.url}/big.mp3`, pid: nginx.pid },
      uncorked: { url: `${uncorked.url}/big.mp3`, pid: uncorked.pid },
      bare: { url: `${reference.url}/big.mp3`, pid: reference.pid },
      app: { url: mediaUrl, pid: app.pid },
    }
    type Name = keyof typeof targets
    const loads = {
      full: { connections: 8, headers: {} },
      range: { connections: 16, headers: { range: `bytes=${MEDIA_BYTES / 2}-${MEDIA_BYTES / 2 + 1048575}` } },
    }
    const runs = { full: {} as Record<Name, Load[]>, range: {} as Record<Name, Load[]> }
    for (let round = 0; round < MEDIA_ROUNDS; round++) {
      for (const load of ['full', 'range'] as const) {
        for (const name of Object.keys(targets) as Name[]) {
          const { connections, headers } = loads[load]
          const run = await wrk(targets[name].url, connections, headers, targets[name].pid)
          ;(runs[load][name] ??= []).push(run)
        }
      }
    }
    /** The median run of each figure (each figure's own median, not one run's). */
    const med = (load: 'full' | 'range', name: Name) => {
      const list = runs[load][name]
      const of = (pick: (l: Load) => number) => median(list.map(pick))
      return {
        mbps: of((l) => l.mbps),
        cpu: of((l) => l.cpuUsPerRequest ?? Number.NaN),
        client: of((l) => l.clientCpuUsPerRequest),
        non2xx: list.reduce((sum, l) => sum + l.non2xx, 0),
      }
    }
    const m = {
      full: { nginx: med('full', 'nginx'), uncorked: med('full', 'uncorked'), bare: med('full', 'bare'), app: med('full', 'app') },
      range: { nginx: med('range', 'nginx'), uncorked: med('range', 'uncorked'), bare: med('range', 'bare'), app: med('range', 'app') },
    }
    const fullRatio = m.full.app.mbps / m.full.nginx.mbps
    const rangeRatio = m.range.app.mbps / m.range.nginx.mbps
    const cpuPair = (f: { cpu: number; client: number }) => `${f0(f.cpu)}+${f0(f.client)}`
    report({
      row: '/media full (8 MiB) / 1 MiB Range',
      figures:
        `${f2(fullRatio)}× / ${f2(rangeRatio)}× nginx sendfile (${f0(m.full.app.mbps)} vs ${f0(m.full.nginx.mbps)}, ${f0(m.range.app.mbps)} vs ${f0(m.range.nginx.mbps)} MB/s); ` +
        `${f2(m.full.app.mbps / m.full.bare.mbps)}× / ${f2(m.range.app.mbps / m.range.bare.mbps)}× bare Bun.serve Bun.file; ` +
        `${f2(m.full.app.mbps / m.full.uncorked.mbps)}× / ${f2(m.range.app.mbps / m.range.uncorked.mbps)}× nginx without tcp_nopush; ` +
        `Range CPU µs/req server+wrk: app ${cpuPair(m.range.app)}, bare ${cpuPair(m.range.bare)}, nginx ${cpuPair(m.range.nginx)}, uncorked ${cpuPair(m.range.uncorked)} ` +
        `(median of ${MEDIA_ROUNDS} rounds in turns)`,
      goal: '≥ 0.95× both',
      holds: fullRatio >= 0.95 && rangeRatio >= 0.95 && m.full.app.non2xx + m.range.app.non2xx === 0,
      data: { medians: m, runs },
    })
  } finally {
    await uncorked.stop()
  }
}

/** What a server costs to start: a bare Bun.serve answering /api/health's JSON. */
const BARE_SERVER = `const body = { success: true, data: { status: 'ok' } }
Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: () => Response.json(body) })
`

type Cold = { ms: number; cpuMs: number }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Median cold start of the app and of its reference, started in turns so both meet the same load:
 *  a first start (empty data directory: every migration runs before listening) and a restart (the
 *  database already migrated, as after a reboot or an upgrade without new migrations). */
async function coldStarts(app: { cmd: string[]; cwd: string }, reference: { cmd: string[]; cwd: string }, runs = 5) {
  const samples = { first: [] as Cold[], restart: [] as Cold[], reference: [] as Cold[] }
  const migrated = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
  await (await spawnServer(app.cmd, {}, app.cwd, migrated)).stop()
  for (let i = 0; i < runs; i++) {
    for (const [name, { cmd, cwd }, dataDir] of [
      ['reference', reference, undefined],
      ['first', app, undefined],
      ['restart', app, migrated],
    ] as const) {
      const server = await spawnServer(cmd, {}, cwd, dataDir)
      samples[name].push({ ms: server.startMs, cpuMs: server.startCpuMs })
      await server.stop()
    }
  }
  rmSync(migrated, { recursive: true, force: true })
  const summary = (s: Cold[]): Cold => ({ ms: median(s.map((c) => c.ms)), cpuMs: median(s.map((c) => c.cpuMs)) })
  return { first: summary(samples.first), restart: summary(samples.restart), reference: summary(samples.reference) }
}

/** Start-up (median of cold starts beside a bare Bun.serve started the same way), memory idle and
 *  after a short mixed load (pages, API, assets). */
async function startUp(
  label: string,
  app: { cmd: string[]; cwd: string },
  reference: { cmd: string[]; cwd: string },
  goal: { processes?: number; idleMb?: number; loadMb: number; startMs: number },
  extra = '',
) {
  const cold = await coldStarts(app, reference)
  const bare = await spawnServer(reference.cmd, {}, reference.cwd)
  await Bun.sleep(1000)
  const bareIdle = rssMb(bare.pid)
  await bare.stop()
  const server = await spawnServer(app.cmd, {}, app.cwd)
  await Bun.sleep(1000)
  const processes = processTree(server.pid).length
  const idle = rssMb(server.pid)
  for (const target of ['/', '/login', '/about', '/api/health', '/charts']) await wrk(server.url + target, 16)
  const load = rssMb(server.pid)
  // Read as wrk stops, RSS is mid-collection; the figure after SETTLE_MS idle is what stays.
  await Bun.sleep(SETTLE_MS)
  const settled = rssMb(server.pid)
  const exit = await server.stop()
  const holds =
    (goal.processes === undefined || processes <= goal.processes) &&
    (goal.idleMb === undefined || idle <= goal.idleMb) &&
    load <= goal.loadMb &&
    cold.restart.ms <= goal.startMs &&
    exit === 0
  const goals = [
    goal.processes ? `${goal.processes} process` : '',
    goal.idleMb ? `≤ ${goal.idleMb} MB idle` : '',
    `≤ ${goal.loadMb} MB after load`,
    `≤ ${goal.startMs} ms`,
  ].filter(Boolean)
  report({
    row: label,
    figures:
      `${processes} process${processes > 1 ? 'es' : ''}, ${f0(idle)} MB idle, ${f0(load)} MB right after load (${f0(settled)} MB ${SETTLE_MS / 1000} s later), ` +
      `${f0(cold.restart.ms)} ms to first answer (first start ${f0(cold.first.ms)} ms; bare Bun.serve ${f0(cold.reference.ms)} ms, ${f0(bareIdle)} MB; ` +
      `CPU ${f0(cold.restart.cpuMs)} / ${f0(cold.first.cpuMs)} vs ${f0(cold.reference.cpuMs)} ms)${extra}`,
    goal: goals.join(', '),
    holds,
    data: {
      processes,
      idleMb: idle,
      loadMb: load,
      settledMb: settled,
      restart: cold.restart,
      firstStart: cold.first,
      exitCode: exit,
      bare: { ...cold.reference, idleMb: bareIdle },
    },
  })
}

/** Benches that compare with something named on their command line: run by hand, not by `bun run bench`. */
const NEEDS_ARGUMENTS = ['builds-side-by-side.ts']

async function otherBenches() {
  const others = readdirSync(import.meta.dir).filter((f) => f.endsWith('.ts') && f !== path.basename(import.meta.path) && !NEEDS_ARGUMENTS.includes(f))
  const results: Record<string, { exitCode: number | null; seconds: number; output: string }> = {}
  for (const file of others) {
    console.log(`\n== bench/${file}`)
    const started = performance.now()
    const proc = Bun.spawn(['bun', path.join(import.meta.dir, file)], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    const timer = setTimeout(() => proc.kill('SIGTERM'), OTHER_BENCH_LIMIT_MS)
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()])
    clearTimeout(timer)
    const exitCode = await proc.exited
    const output = `${out}${exitCode === 0 ? '' : err}`.trim()
    console.log(output.split('\n').slice(-12).join('\n'))
    results[file] = { exitCode, seconds: (performance.now() - started) / 1000, output: output.slice(-4000) }
  }
  return results
}

async function main() {
  if (buildIsStale(root)) {
    console.log('Building Vibes…')
    if (Bun.spawnSync(['bun', 'run', 'build'], { cwd: root, stdout: 'ignore', stderr: 'inherit' }).exitCode !== 0) process.exit(1)
  }
  console.log(`Vibes fast path, wrk -t1 on loopback, ${SECONDS} s per row, ${new Date().toISOString()}`)
  const startUpOnly = process.argv.includes('--start-up')
  if (!startUpOnly) await apiAndPages()
  if (mediaOnly) return

  const emptyDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-cwd-'))
  writeFileSync(path.join(emptyDir, 'bare.ts'), BARE_SERVER)
  await startUp(
    '`bun run start`',
    { cmd: ['bun', 'run', 'start'], cwd: root },
    { cmd: ['bun', 'bare.ts'], cwd: emptyDir },
    { processes: 1, loadMb: 100, startMs: 150 },
  )
  const binary = path.join(root, BINARY_OUTPUT)
  if (!buildIsStale(root, BINARY_OUTPUT)) {
    const size = statSync(binary).size / 1048576
    // The reference for the binary is a bare server compiled the same way.
    const compiled = Bun.spawnSync(['bun', 'build', '--compile', '--bytecode', 'bare.ts', '--outfile', 'bare'], {
      cwd: emptyDir,
      stdout: 'ignore',
      stderr: 'inherit',
    })
    if (compiled.exitCode !== 0) throw new Error('could not compile the bare reference')
    const appDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-cwd-'))
    await startUp(
      '`dist/vibes`',
      { cmd: [binary], cwd: appDir },
      { cmd: [path.join(emptyDir, 'bare')], cwd: emptyDir },
      { idleMb: 60, loadMb: 90, startMs: 50 },
      `, ${f0(size)} MB file`,
    )
    rmSync(appDir, { recursive: true, force: true })
  } else {
    report({ row: '`dist/vibes`', figures: 'not built or older than the build (bun run build:binary)', goal: '', holds: null, data: {} })
  }
  rmSync(emptyDir, { recursive: true, force: true })

  const others = process.argv.includes('--table') || startUpOnly ? {} : await otherBenches()
  mkdirSync(path.join(import.meta.dir, 'results'), { recursive: true })
  const file = path.join(import.meta.dir, 'results/latest.json')
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), secondsPerRow: SECONDS, rows, others }, null, 2)}\n`)
  console.log(`\nwrote ${path.relative(root, file)}`)
}

await (process.argv[2] === '--bare' ? bare() : main())
