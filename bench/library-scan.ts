// The library scanner on a generated 10,000-file library (goals: first scan ≥ 500 tracks/s, a
// rescan with nothing changed < 2 s). Every file is a real MP3 (one ffmpeg-made 1 s tone) with
// its own ID3v2.3 tag written here (title, artist, album, track, genre, year), in 200 artist ×
// 5 album folders with a cover.jpg in each album folder, so the scanner parses 10,000 different
// tags, not one cached answer. The first scan is the server's start-up scan; then a rescan with
// nothing changed and a full rescan through POST /api/admin/library/scan. While the first scan
// runs, /api/health is asked every 50 ms: the slowest answer shows how long a scan ever holds
// the event loop.
//   bun bench/library-scan.ts
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, loginAdmin } from '../tests/helpers/api'
import { ffmpeg, makeImage } from '../tests/helpers/media'
import { startServer } from '../tests/helpers/server'

const FILES = Number(process.env.FILES ?? 10_000)
const root = mkdtempSync(path.join(tmpdir(), 'vibes-bench-media-'))
const dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-data-'))
const tone = path.join(dataDir, 'tone.mp3')
ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '1', '-ar', '22050', '-b:a', '32k', '-id3v2_version', '0', tone)
const audio = new Uint8Array(readFileSync(tone))

const enc = new TextEncoder()
/** An ID3v2.3 tag with UTF-16 text frames (so "Björk"-style names survive). */
function id3(frames: Record<string, string>): Uint8Array {
  const parts: Uint8Array[] = []
  for (const [id, value] of Object.entries(frames)) {
    const text = new Uint8Array(3 + value.length * 2)
    text.set([1, 0xff, 0xfe]) // encoding 1 = UTF-16 with BOM (little-endian)
    for (let i = 0; i < value.length; i++) new DataView(text.buffer).setUint16(3 + i * 2, value.charCodeAt(i), true)
    const head = new Uint8Array(10)
    head.set(enc.encode(id))
    new DataView(head.buffer).setUint32(4, text.length)
    parts.push(head, text)
  }
  const size = parts.reduce((n, p) => n + p.length, 0)
  const header = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
  return concat([header, ...parts])
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const genres = ['Jazz', 'Rock', 'Électronique', 'Folk', 'Hip-Hop', 'Klassik', 'Pop', 'Ambient']
const started = performance.now()
for (let i = 0; i < FILES; i++) {
  const artist = `Artist ${Math.floor(i / 50)} Ø${Math.floor(i / 50) % 7}`
  const album = `Album ${Math.floor(i / 10)}`
  const dir = path.join(root, artist, album)
  if (i % 10 === 0) {
    mkdirSync(dir, { recursive: true })
    if (i % 50 === 0) makeImage(path.join(dir, 'cover.jpg'))
  }
  const tag = id3({
    TIT2: `Song ${i} – número ${i * 7}`,
    TPE1: artist,
    TALB: album,
    TRCK: String((i % 10) + 1),
    TCON: genres[i % genres.length],
    TYER: String(1960 + (i % 60)),
  })
  writeFileSync(path.join(dir, `${(i % 10) + 1} Song ${i}.mp3`), concat([tag, audio]))
}
console.log(`generated ${FILES} tagged MP3s in ${((performance.now() - started) / 1000).toFixed(1)} s`)

const app = await startServer(adminEnv, { dataDir, mediaRoot: root })
const scanLogs = () => app.logs.filter((l) => l.includes('"library scan done"')).map((l) => JSON.parse(l).scan as { files: number; read: number; ms: number })

/** Waits for `n` scans to have finished; pings /api/health meanwhile; returns the slowest ping. */
async function untilScans(n: number): Promise<number> {
  let slowest = 0
  while (scanLogs().length < n) {
    const t = performance.now()
    await fetch(`${app.url}/api/health`).then((r) => r.arrayBuffer())
    slowest = Math.max(slowest, performance.now() - t)
    await Bun.sleep(50)
  }
  return slowest
}

const slowest = await untilScans(1)
const first = scanLogs()[0]
console.log(
  `first scan: ${first.read} files read in ${first.ms} ms = ${Math.round((first.read / first.ms) * 1000)} tracks/s (goal ≥ 500); slowest /api/health meanwhile: ${slowest.toFixed(0)} ms`,
)

const admin = await loginAdmin(app.url)
for (const [label, body, goal] of [
  ['rescan, nothing changed', undefined, 'goal < 2000 ms'],
  ['full rescan', { full: true }, 'every file re-read'],
] as const) {
  const t = performance.now()
  const n = scanLogs().length
  const res = await api(app.url, 'POST', '/admin/library/scan', { token: admin, body })
  if (res.status !== 202) throw new Error(`scan refused: ${res.status}`)
  await untilScans(n + 1)
  const scan = scanLogs()[n]
  console.log(`${label}: ${scan.ms} ms in the scanner (${scan.read} read), ${(performance.now() - t).toFixed(0)} ms request to idle (${goal})`)
}
const status = (await api(app.url, 'GET', '/admin/library/scan', { token: admin })).body.data
console.log(`index: ${status.tracks} tracks, ${status.albums} albums, ${status.artists} artists`)
await app.stop()
if (!process.env.KEEP) rmSync(root, { recursive: true, force: true })
if (!process.env.KEEP) rmSync(dataDir, { recursive: true, force: true })
else console.log(root, dataDir)
