// Benchmark: the silence at a track boundary (issue 10 "Gap at a track boundary"). Two generated
// tones (440 Hz then 660 Hz, 2 s each, same format) are picked as a local folder on / in
// Chromium; the first plays to its end and the player moves on by itself. Every media element the
// page plays is routed through one AudioContext into a ScriptProcessor that keeps the mixed
// output, and the longest run of silent samples between the first sound and the last is the gap.
// Run: bun run build && bun bench/player-gap.ts   (BENCH_RUNS=n runs per format, BENCH_FORMAT=wav|mp3|m4a)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gotoHydrated, launchBrowser, newPage } from '../tests/helpers/browser'
import { ffmpeg } from '../tests/helpers/media'
import { setAdChance } from '../tests/helpers/player'
import { startServer } from '../tests/helpers/server'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const ONLY = process.env.BENCH_FORMAT
const FORMATS: { ext: string; args: string[] }[] = [
  { ext: 'wav', args: ['-c:a', 'pcm_s16le'] },
  { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  { ext: 'm4a', args: ['-c:a', 'aac', '-b:a', '128k'] },
]

const root = mkdtempSync(path.join(tmpdir(), 'vibes-gap-'))
for (const f of FORMATS) {
  const dir = path.join(root, f.ext)
  mkdirSync(dir)
  for (const [name, hz] of [
    ['1 Low', 440],
    ['2 High', 660],
  ] as const)
    ffmpeg('-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=2`, '-ar', '44100', '-ac', '2', ...f.args, path.join(dir, `${name}.${f.ext}`))
}

/** Runs in the page before its scripts: routes every media element that plays into a recorder. */
function captureOutput() {
  const w = window as unknown as { __gap: { samples: Float32Array[]; rate: number; elements: number } }
  const ctx = new AudioContext()
  const recorder = ctx.createScriptProcessor(1024, 2, 1)
  const samples: Float32Array[] = []
  let recording = false
  recorder.onaudioprocess = (e) => {
    if (!recording) return
    const l = e.inputBuffer.getChannelData(0)
    const r = e.inputBuffer.getChannelData(1)
    const mixed = new Float32Array(l.length)
    for (let i = 0; i < l.length; i++) mixed[i] = Math.max(Math.abs(l[i]), Math.abs(r[i]))
    samples.push(mixed)
  }
  recorder.connect(ctx.destination)
  w.__gap = { samples, rate: ctx.sampleRate, elements: 0 }
  const routed = new WeakSet<HTMLMediaElement>()
  const play = HTMLMediaElement.prototype.play
  HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
    if (!routed.has(this)) {
      routed.add(this)
      w.__gap.elements++
      ctx.createMediaElementSource(this).connect(recorder)
      void ctx.resume()
      recording = true
    }
    return play.call(this)
  }
}

/**
 * Around the boundary (1.5–2.6 s after the first sound): the longest silent run (ms), where it
 * starts, and how long both tones sounded at once (|x| above one tone's 0.125 peak).
 */
function measure(): { gapMs: number; atMs: number; overlapMs: number; elements: number } {
  const g = (window as unknown as { __gap: { samples: Float32Array[]; rate: number; elements: number } }).__gap
  const all = new Float32Array(g.samples.reduce((n, s) => n + s.length, 0))
  let o = 0
  for (const s of g.samples) {
    all.set(s, o)
    o += s.length
  }
  const loud = (x: number) => x > 0.003
  const first = all.findIndex(loud)
  const from = first + Math.round(1.5 * g.rate)
  const to = Math.min(all.length, first + Math.round(2.6 * g.rate))
  let best = 0
  let bestAt = 0
  let run = 0
  let both = 0
  for (let i = from; i < to; i++) {
    if (all[i] > 0.14) both++
    if (loud(all[i])) run = 0
    else if (++run > best) {
      best = run
      bestAt = i - run + 1
    }
  }
  const ms = (n: number) => (n / g.rate) * 1000
  return { gapMs: ms(best), atMs: ms(bestAt - first), overlapMs: ms(both), elements: g.elements }
}

const server = await startServer()
const browser = await launchBrowser()
try {
  for (const f of FORMATS.filter((f) => !ONLY || f.ext === ONLY)) {
    const gaps: number[] = []
    for (let run = 0; run < RUNS; run++) {
      const { page, context } = await newPage(browser, server.url)
      page.setDefaultTimeout(30_000)
      await setAdChance(page, 0)
      await page.addInitScript(captureOutput)
      await gotoHydrated(page, '/')
      await page.getByTestId('folder-input').setInputFiles(path.join(root, f.ext))
      // The second tone is on and has played for a while: the boundary is behind us.
      await page.waitForFunction(() => document.querySelector('[data-testid=track-title]')?.textContent === '2 High')
      await page.waitForTimeout(1000)
      const m = await page.evaluate(measure)
      gaps.push(m.gapMs)
      console.log(
        `  ${f.ext} run ${run + 1}: gap ${m.gapMs.toFixed(1)} ms at ${(m.atMs / 1000).toFixed(3)} s, both tones at once ${m.overlapMs.toFixed(1)} ms, media elements played: ${m.elements}`,
      )
      await context.close()
    }
    const sorted = [...gaps].sort((a, b) => a - b)
    console.log(
      `${f.ext}: gap at the track boundary, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms (runs: ${gaps.map((g) => g.toFixed(1)).join(', ')})`,
    )
  }
} finally {
  await browser.close()
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
