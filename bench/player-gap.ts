// Benchmark: the silence a listener hears at a track boundary (decision 051). Two generated tones
// (440 Hz then 660 Hz, 3 s each, 44.1 kHz stereo, same format) are picked as a local folder on /
// in Chromium; the first plays to its end and the player moves on by itself — uninterrupted, or
// after the listener sought (the Seek slider) into the last second of the first track. What the
// tab sends to the speakers is recorded by Chromium's own tab capture (tests/helpers/tab-audio.ts:
// nothing is added to the page's audio graph), and the gap is the silence before the 660 Hz tone.
// Run: bun run build && bun bench/player-gap.ts
//   BENCH_RUNS=n runs per case (default 5), BENCH_FORMAT=wav|flac|mp3, BENCH_CASE=plain|seek
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gotoHydrated, newPage } from '../tests/helpers/browser'
import { ffmpeg } from '../tests/helpers/media'
import { setAdChance } from '../tests/helpers/player'
import { startServer } from '../tests/helpers/server'
import { allowTabCapture, findBoundary, launchCaptureBrowser, startTabRecording, stopTabRecording } from '../tests/helpers/tab-audio'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const ONLY_FORMAT = process.env.BENCH_FORMAT
const ONLY_CASE = process.env.BENCH_CASE
const SECONDS = 3
const RATE = 48_000
/** One tone's peak as the tab plays it: ffmpeg's sine (1/8) at the player's default volume 0.8. */
const LEVEL = 0.125 * 0.8
const FORMATS: { ext: string; args: string[] }[] = [
  { ext: 'wav', args: ['-c:a', 'pcm_s16le'] },
  { ext: 'flac', args: ['-c:a', 'flac'] },
  { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '192k'] },
]
const CASES = ['plain', 'seek'] as const

const root = mkdtempSync(path.join(tmpdir(), 'vibes-gap-'))
for (const f of FORMATS) {
  const dir = path.join(root, f.ext)
  mkdirSync(dir)
  for (const [name, hz] of [
    ['1 Low', 440],
    ['2 High', 660],
  ] as const)
    ffmpeg('-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=${SECONDS}`, '-ar', '44100', '-ac', '2', ...f.args, path.join(dir, `${name}.${f.ext}`))
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const server = await startServer()
const browser = await launchCaptureBrowser()
const summary: string[] = []
try {
  for (const f of FORMATS.filter((f) => !ONLY_FORMAT || f.ext === ONLY_FORMAT)) {
    for (const c of CASES.filter((c) => !ONLY_CASE || c === ONLY_CASE)) {
      const gaps: number[] = []
      const overlaps: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const { page, context } = await newPage(browser, server.url)
        page.setDefaultTimeout(30_000)
        await setAdChance(page, 0)
        await allowTabCapture(page)
        await gotoHydrated(page, '/')
        await startTabRecording(page)
        await page.getByTestId('folder-input').setInputFiles(path.join(root, f.ext))
        // The element that plays the first tone is marked: a hand-over leaves it behind.
        await page.waitForFunction(() => document.querySelector('[data-testid=track-title]')?.textContent === '1 Low')
        await page.evaluate(() => ((document.querySelector('[data-testid=media]') as HTMLMediaElement & { first?: boolean }).first = true))
        if (c === 'seek') {
          await page.waitForFunction(() => {
            const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
            return !el.paused && el.currentTime > 0.3
          })
          await page.getByRole('slider', { name: 'Seek' }).fill(String(SECONDS - 0.8))
        }
        // The second tone is on and has played for a while: the boundary is behind us.
        await page.waitForFunction(() => document.querySelector('[data-testid=track-title]')?.textContent === '2 High')
        await page.waitForTimeout(800)
        const handedOver = await page.evaluate(() => !(document.querySelector('[data-testid=media]') as HTMLMediaElement & { first?: boolean }).first)
        const samples = await stopTabRecording(page, RATE)
        await context.close()
        const b = findBoundary(samples, RATE, 440, 660, LEVEL)
        if (!b) {
          console.log(`  ${f.ext} ${c} run ${run + 1}: no boundary found in ${(samples.length / RATE).toFixed(2)} s of recording`)
          continue
        }
        gaps.push(b.gapMs)
        overlaps.push(b.overlapMs)
        console.log(
          `  ${f.ext} ${c} run ${run + 1}: gap ${b.gapMs.toFixed(1)} ms, both tones at once ${b.overlapMs.toFixed(1)} ms, high tone at ${(b.atMs / 1000).toFixed(3)} s, ${handedOver ? 'handed over' : 'one element'}`,
        )
      }
      if (gaps.length === 0) continue
      const line = `${f.ext} ${c === 'plain' ? 'uninterrupted' : 'after a seek into the last second'}: gap median ${median(gaps).toFixed(1)} ms (runs: ${gaps.map((g) => g.toFixed(1)).join(', ')}), overlap median ${median(overlaps).toFixed(1)} ms`
      console.log(line)
      summary.push(line)
    }
  }
} finally {
  await browser.close()
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
console.log(`\n${summary.join('\n')}`)
