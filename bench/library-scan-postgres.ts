// The library scanner writing a large index into PostgreSQL beside SQLite: one media root of FILES
// paths (hard links of a few ffmpeg-made MP3s with different tags, ten to an album folder, ten
// albums to an artist folder: FILES index rows without FILES copies on disk), scanned by the
// server's start-up scan, once per engine, one engine after the other. Per engine: tracks per
// second (the scanner's own "library scan done" log), the server's peak resident memory (VmHWM
// from /proc/<pid>/status, read once the scan is done), the CPU the server and the PostgreSQL
// cluster used (/proc), and the slowest GET /api/health asked every 50 ms meanwhile.
// Durability of each engine (both on the same file system, the temp dir):
//   SQLite: what the server always runs with, journal_mode=WAL and synchronous=NORMAL (src/db/client.ts):
//     a commit is written to the WAL without waiting for the disk; the WAL is fsynced at checkpoints.
//   PostgreSQL: by default its own defaults, fsync=on, synchronous_commit=on, full_page_writes=on:
//     every commit waits for its WAL to reach the disk (stricter than SQLite's NORMAL). With
//     --fsync-off, the three off as in the tests' clusters (the bench's readings before that flag).
//   bun run build && bun bench/library-scan-postgres.ts [--files 100000] [--fsync-off]
//   Writes bench/results/library-scan-postgres.json.
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { makeTone } from '../tests/helpers/media'
import { benchPostgres, flag, loadAverage, type Node, postmasterPid, startNode, writeResults } from './lib/nodes'
import { treeCpuSeconds } from './lib/wrk'

const FILES = flag('files', 100_000)
const SOURCES = 8
// The durable cluster by default: the like-for-like comparison with SQLite, which commits to disk too.
const FSYNC = !process.argv.includes('--fsync-off')
const loadBefore = loadAverage()

const media = mkdtempSync(path.join(tmpdir(), 'vibes-bench-scan-'))
// Outside the media root (not indexed), on the same file system (hard links).
const sourceDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-sources-'))
const sources = Array.from({ length: SOURCES }, (_, i) => {
  const file = path.join(sourceDir, `${i}.mp3`)
  makeTone(file, {
    title: `Song ${i}`,
    artist: `Artist ${i}`,
    album: `Album ${i}`,
    genre: ['Jazz', 'Rock', 'Folk', 'Pop'][i % 4],
    year: 1970 + i,
    seconds: 1,
  })
  return file
})
let started = performance.now()
for (let i = 0; i < FILES; i++) {
  const dir = path.join(media, `Artist ${Math.floor(i / 100)}`, `Album ${Math.floor(i / 10)}`)
  if (i % 10 === 0) mkdirSync(dir, { recursive: true })
  linkSync(sources[i % SOURCES], path.join(dir, `${(i % 10) + 1} Song ${i}.mp3`))
}
console.error(`… ${FILES.toLocaleString('en-US')} hard links in ${((performance.now() - started) / 1000).toFixed(1)} s`)

type Scan = { files: number; read: number; ms: number }
const scanDone = (node: Node) => node.logs.filter((l) => l.includes('"library scan done"')).map((l) => JSON.parse(l).scan as Scan)[0]
const kb = (pid: number, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)

/** Starts a node on the media root (its start-up scan begins), pings /api/health until the scan is done. */
async function scanOn(databaseUrl?: string) {
  const postgres = databaseUrl ? await postmasterPid(databaseUrl) : undefined
  const pgCpuBefore = postgres ? treeCpuSeconds(postgres) : 0
  started = performance.now()
  const node = await startNode(media, databaseUrl)
  try {
    let slowest = 0
    while (!scanDone(node)) {
      const t = performance.now()
      await fetch(`${node.url}/api/health`).then((r) => r.arrayBuffer())
      slowest = Math.max(slowest, performance.now() - t)
      await Bun.sleep(50)
    }
    const scan = scanDone(node)
    return {
      engine: node.engine,
      ...scan,
      tracksPerSecond: (scan.read / scan.ms) * 1000,
      startToDoneMs: performance.now() - started,
      peakRssMb: kb(node.pid, 'VmHWM') / 1024,
      rssAfterMb: kb(node.pid, 'VmRSS') / 1024,
      serverCpuSeconds: treeCpuSeconds(node.pid),
      postgresCpuSeconds: postgres ? treeCpuSeconds(postgres) - pgCpuBefore : null,
      slowestHealthMs: slowest,
    }
  } finally {
    await node.stop()
  }
}

const pg = await benchPostgres({ durable: FSYNC })
try {
  const results = []
  for (const url of [undefined, pg.databaseUrl]) {
    results.push(await scanOn(url))
    console.error(`… ${results.at(-1)?.engine} done, load average ${loadAverage().join(' ')}`)
  }
  const f0 = (n: number) => Math.round(n).toLocaleString('en-US')
  console.log(
    `\nstart-up scan of ${FILES.toLocaleString('en-US')} files (hard links of ${SOURCES} MP3s), one engine after the other; PostgreSQL fsync ${FSYNC ? 'on' : 'off'}`,
  )
  console.log(
    `${'engine'.padEnd(12)}${'read'.padStart(9)}${'scan s'.padStart(9)}${'tracks/s'.padStart(10)}${'peak RSS MB'.padStart(13)}${'CPU s server/pg'.padStart(17)}${'slowest health ms'.padStart(19)}`,
  )
  for (const r of results) {
    console.log(
      `${(r.engine === 'postgres' ? 'PostgreSQL' : 'SQLite').padEnd(12)}${f0(r.read).padStart(9)}${(r.ms / 1000).toFixed(1).padStart(9)}${f0(r.tracksPerSecond).padStart(10)}${f0(r.peakRssMb).padStart(13)}${`${r.serverCpuSeconds.toFixed(1)}/${r.postgresCpuSeconds?.toFixed(1) ?? '–'}`.padStart(17)}${f0(r.slowestHealthMs).padStart(19)}`,
    )
  }
  const loadAfter = loadAverage()
  console.log(`load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`)
  writeResults('library-scan-postgres', { files: FILES, sources: SOURCES, postgresFsync: FSYNC, loadBefore, loadAfter, results })
} finally {
  await pg.stop()
  rmSync(media, { recursive: true, force: true })
  rmSync(sourceDir, { recursive: true, force: true })
}
