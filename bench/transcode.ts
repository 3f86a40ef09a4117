// How soon a converted track starts (goal: playing < 1 s after the request). For a
// 4-minute .wma (→ MP3) and a 30 s MPEG-4/MP3 .mkv (→ H.264 MP4), each run on a fresh copy so
// nothing is cached: time to the response headers, to the first byte and to the first 64 KB
// (about what <audio>/<video> needs for `canplay`), and to the end; then a cached Range request;
// then the real thing: Chromium from setting `src` to `canplay` on a fresh copy.
//   bun bench/transcode.ts
import { copyFileSync, existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import type { TranscodeProfile } from '~/server/media/transcode-profile'
import { launchBrowser, newPage } from '../tests/helpers/browser'
import { ffmpeg, makeTone } from '../tests/helpers/media'
import { startServer } from '../tests/helpers/server'

const SECRET = 'bench-secret-'.repeat(4)
const RUNS = 5
const FIRST_CHUNK = 64 * 1024

const app = await startServer({ AUTH_SECRET: SECRET })
const wma = path.join(app.mediaRoot, 'source.wma')
makeTone(wma, { seconds: 240, title: 'Bench' })
const mkv = path.join(app.mediaRoot, 'source.mkv')
ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=30', '-f', 'lavfi', '-i', 'sine=duration=30', '-c:v', 'mpeg4', '-c:a', 'libmp3lame', mkv)

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const fmt = (xs: number[]) => `median ${p(xs, 0.5).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`

async function timeOne(url: string) {
  const started = performance.now()
  const res = await fetch(app.url + url)
  const headers = performance.now() - started
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  let firstByte = 0
  let firstChunk = 0
  let n = 0
  for await (const chunk of res.body!) {
    if (!n) firstByte = performance.now() - started
    n += chunk.length
    if (!firstChunk && n >= FIRST_CHUNK) firstChunk = performance.now() - started
  }
  return { headers, firstByte, firstChunk, total: performance.now() - started, bytes: n }
}

async function bench(source: string, ext: string, profile: TranscodeProfile) {
  const runs = []
  let last = ''
  for (let i = 0; i < RUNS; i++) {
    const rel = `copy-${i}.${ext}`
    copyFileSync(source, path.join(app.mediaRoot, rel))
    last = signMediaUrl(SECRET, rel, profile)
    runs.push(await timeOne(last))
  }
  console.log(`${ext} → ${profile}, uncached (${RUNS} runs, ${(runs[0]!.bytes / 1024 / 1024).toFixed(1)} MB out):`)
  console.log(`  headers      ${fmt(runs.map((r) => r.headers))}`)
  console.log(`  first byte   ${fmt(runs.map((r) => r.firstByte))}`)
  console.log(`  first 64 KB  ${fmt(runs.map((r) => r.firstChunk))}`)
  console.log(`  whole file   ${fmt(runs.map((r) => r.total))}`)
  await Bun.sleep(300)
  const cached = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    const res = await fetch(app.url + last, { headers: { range: 'bytes=100000-' } })
    await res.arrayBuffer()
    if (res.status !== 206) throw new Error(`cached copy answered ${res.status}`)
    cached.push(performance.now() - started)
  }
  console.log(`  cached Range (206) ${fmt(cached)}`)
}

const cacheDir = path.join(app.dataDir, 'transcode-cache')
const cachedCount = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => !n.endsWith('.part')).length : 0)
async function cacheHolds(count: number) {
  for (let i = 0; i < 600 && cachedCount() < count; i++) await Bun.sleep(50)
}

async function chromium(sources: Array<[string, string, TranscodeProfile, 'audio' | 'video']>) {
  const browser = await launchBrowser()
  try {
    const { page } = await newPage(browser, app.url)
    await page.goto('/')
    for (const [source, ext, profile, tag] of sources) {
      const times = []
      for (let i = 0; i < RUNS; i++) {
        const rel = `browser-${i}.${ext}`
        copyFileSync(source, path.join(app.mediaRoot, rel))
        const url = signMediaUrl(SECRET, rel, profile)
        const before = cachedCount()
        const ms = await page.evaluate(
          ({ url, tag }) =>
            new Promise<number>((resolve, reject) => {
              const el = document.createElement(tag)
              el.muted = true
              const started = performance.now()
              el.addEventListener('canplay', () => resolve(performance.now() - started), { once: true })
              el.addEventListener('error', () => reject(new Error(`media error ${el.error?.code}`)))
              el.src = url
            }),
          { url, tag },
        )
        times.push(ms)
        // Let the conversion finish (one slot per client) before the next copy.
        await cacheHolds(before + 1)
      }
      console.log(`Chromium ${ext} → ${profile}: src to canplay ${fmt(times)}`)
    }
  } finally {
    await browser.close()
  }
}

try {
  await bench(wma, 'wma', 'mp3')
  await bench(mkv, 'mkv', 'mp4')
  await chromium([
    [wma, 'wma', 'mp3', 'audio'],
    [mkv, 'mkv', 'mp4', 'video'],
  ])
} finally {
  await app.stop()
}
