// Where the memory of a loaded server goes (decision 038): the server of
// `bun run start` (from the sources) in this process, the start-up row's mixed load (pages, API,
// a chart), then RSS right after the load, 3 s later, after a full GC, split into anonymous and
// file-backed pages, with the JS heap's object counts by type that grew during the load.
//   bun bench/memory-after-load.ts        (needs `bun run build`: the pages come from dist/)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { heapStats } from 'bun:jsc'

const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-memory-'))
const port = 41000 + Math.floor(Math.random() * 9000)
Object.assign(process.env, {
  DATA_DIR: dataDir,
  MEDIA_ROOT: dataDir,
  AUTH_SECRET: 'bench-secret-'.repeat(4),
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
})
const SECONDS = Number(process.env.SECONDS ?? 5)

const { serveFromDisk } = await import('~/server/serve-from-disk')
await serveFromDisk()
const url = `http://127.0.0.1:${port}`

function memory() {
  const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0)
  const { heapUsed, external } = process.memoryUsage()
  const mb = (n: number) => `${Math.round(n / 1024)}`
  return `RSS ${mb(kb('Rss'))} MB (anon ${mb(kb('Anonymous'))}, file ${mb(kb('Rss') - kb('Anonymous'))}); JS heap ${Math.round(heapUsed / 1048576)} MB, external ${Math.round(external / 1048576)} MB`
}

// Every target must answer 200 (a broken page would be measured as a cheap error answer).
for (const target of ['/', '/login', '/about', '/api/health', '/charts']) {
  const status = (await fetch(url + target)).status
  if (status !== 200) throw new Error(`${target} answered ${status}`)
}
await Bun.sleep(1000)
const before = heapStats().objectTypeCounts as Record<string, number>
console.log(`idle                 ${memory()}`)
for (const target of ['/', '/login', '/about', '/api/health', '/charts']) {
  // wrk runs in its own process; the server here answers between its own awaits.
  const proc = Bun.spawn(['wrk', '-t1', '-c16', `-d${SECONDS}s`, url + target], { stdout: 'ignore' })
  await proc.exited
  console.log(`  after ${target.padEnd(12)} ${memory()}`)
}
console.log(`right after the load ${memory()}`)
await Bun.sleep(3000)
console.log(`3 s later           ${memory()}`)
Bun.gc(true)
await Bun.sleep(500)
console.log(`after Bun.gc(true)   ${memory()}`)
const after = heapStats().objectTypeCounts as Record<string, number>
const grown = Object.entries(after)
  .map(([type, n]) => [type, n - (before[type] ?? 0)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 12)
console.log(`objects grown during the load: ${grown.map(([type, n]) => `${type} +${n}`).join(', ')}`)
if (process.env.MAPPINGS) {
  // The largest resident mappings: which allocator or file holds what stays.
  const maps = readFileSync('/proc/self/smaps', 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)
  const rows = maps.map((m) => {
    const [head] = m.split('\n')
    const [range, perms, , , , name = '[anon]'] = head.split(/\s+/)
    const [a, b] = range.split('-').map((x) => Number.parseInt(x, 16))
    return { name, perms, size: (b - a) / 1048576, rss: Number(/^Rss:\s+(\d+)/m.exec(m)?.[1] ?? 0) / 1024 }
  })
  for (const r of rows.sort((x, y) => y.rss - x.rss).slice(0, 14))
    console.log(`  ${r.rss.toFixed(1).padStart(6)} MB of ${r.size.toFixed(0).padStart(6)} MB ${r.perms} ${r.name}`)
}
rmSync(dataDir, { recursive: true, force: true })
process.exit(0)
