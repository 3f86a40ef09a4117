// Benchmark: pick a folder of 5,000 media files on / in Chromium and time how long until the
// track list shows them and the first track is playing; also report the JavaScript the player
// page loads (gzipped). Run: bun run build && bun bench/player-local-folder.ts
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gotoHydrated, launchBrowser, newPage } from '../tests/helpers/browser'
import { ffmpeg } from '../tests/helpers/media'
import { startServer } from '../tests/helpers/server'

const FILES = Number(process.env.BENCH_FILES ?? 5000)
const RUNS = 3

const root = mkdtempSync(path.join(tmpdir(), 'vibes-bench-'))
const folder = path.join(root, 'Big Library')
mkdirSync(folder)
const seed = path.join(root, 'seed.mp3')
ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-metadata', 'title=Seed', '-metadata', 'artist=Bench', seed)
for (let i = 0; i < FILES; i++) copyFileSync(seed, path.join(folder, `Artist ${i % 97} - Track ${i + 1}.mp3`))

const server = await startServer()
const browser = await launchBrowser()
try {
  // JavaScript loaded by the player page, gzipped as a server would send it.
  const { page: sizePage, context: sizeContext } = await newPage(browser, server.url)
  const scripts = new Map<string, number>()
  sizePage.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return
    try {
      scripts.set(res.url(), Bun.gzipSync(new Uint8Array(await res.body())).length)
    } catch {}
  })
  await gotoHydrated(sizePage, '/')
  await sizePage.waitForLoadState('networkidle')
  const initial = [...scripts.values()].reduce((a, b) => a + b, 0)
  await sizeContext.close()

  const pickTimes: number[] = []
  const playTimes: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const { page, context } = await newPage(browser, server.url)
    page.setDefaultTimeout(60_000)
    await page.addInitScript(() => ((window as unknown as { __vibesAdChance: number }).__vibesAdChance = 0))
    await gotoHydrated(page, '/')
    const input = page.getByTestId('folder-input')
    // Time inside the page from the input's change event to the list on screen and playback.
    await page.evaluate((files) => {
      const w = window as unknown as { __bench: { picked?: number; listed?: number; playing?: number } }
      w.__bench = {}
      document.querySelector('[data-testid=folder-input]')!.addEventListener('change', () => (w.__bench.picked = performance.now()), { capture: true })
      const media = document.querySelector('[data-testid=media]')!
      media.addEventListener('playing', () => (w.__bench.playing ??= performance.now()))
      new MutationObserver(() => {
        if (!w.__bench.listed && document.querySelector('[data-testid=track-count]')?.textContent?.startsWith(`${files} tracks`))
          w.__bench.listed = performance.now()
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    }, FILES)
    await input.setInputFiles(folder)
    await page.waitForFunction(() => {
      const b = (window as unknown as { __bench: { listed?: number; playing?: number } }).__bench
      return b.listed !== undefined && b.playing !== undefined
    })
    const b = await page.evaluate(() => (window as unknown as { __bench: { picked: number; listed: number; playing: number } }).__bench)
    pickTimes.push(b.listed - b.picked)
    playTimes.push(b.playing - b.picked)
    const rows = await page.getByRole('list', { name: 'Track list' }).getByRole('listitem').count()
    if (run === 0) console.log(`track list rows in the DOM for ${FILES} tracks: ${rows}`)
    await context.close()
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  console.log(`local folder of ${FILES} files → list shown: median ${median(pickTimes).toFixed(0)} ms (runs: ${pickTimes.map((t) => t.toFixed(0)).join(', ')})`)
  console.log(
    `local folder of ${FILES} files → first track playing: median ${median(playTimes).toFixed(0)} ms (runs: ${playTimes.map((t) => t.toFixed(0)).join(', ')})`,
  )
  console.log(`player page (/) JavaScript loaded: ${scripts.size} files, ${(initial / 1024).toFixed(1)} KiB gzipped`)
  for (const [url, size] of [...scripts].sort((a, b) => b[1] - a[1])) console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KiB  ${new URL(url).pathname}`)
} finally {
  await browser.close()
  await server.stop()
  rmSync(root, { recursive: true, force: true })
}
