// Gapless in what the listener hears (decision 051): the tab's own audio output, recorded by
// Chromium's tab capture (tests/helpers/tab-audio.ts), has no silence worth the name between two
// WAV tones picked as a local folder. The bound is generous on purpose — a machine busy with other
// work must not fail it, while the old output (each element on its own way to the speakers: 60 ms
// and more) does; the figure itself is bench/player-gap.ts's.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { gotoHydrated, newPage } from '../helpers/browser'
import { ffmpeg } from '../helpers/media'
import { expectTitle, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'
import { allowTabCapture, findBoundary, launchCaptureBrowser, startTabRecording, stopTabRecording } from '../helpers/tab-audio'

/** Silence at the boundary that only a real gap reaches (the old output measured 59–300 ms). */
const GAP_BOUND_MS = 40

let server: TestServer
let browser: Browser
let fixtures: string

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-gap-output-'))
  mkdirSync(path.join(fixtures, 'Tones'))
  for (const [name, hz] of [
    ['1 Low', 440],
    ['2 High', 660],
  ] as const)
    ffmpeg('-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=2`, '-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', path.join(fixtures, 'Tones', `${name}.wav`))
  server = await startServer()
  browser = await launchCaptureBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

/** Plays the two tones from a fresh page and returns the silence the tab put between them (ms). */
async function gapHeard(): Promise<number> {
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await allowTabCapture(page)
  await gotoHydrated(page, '/')
  await startTabRecording(page)
  await page.getByTestId('folder-input').setInputFiles(path.join(fixtures, 'Tones'))
  await expectTitle(page, '2 High')
  await page.waitForTimeout(500)
  const samples = await stopTabRecording(page)
  await context.close()
  // Chromium reports the denied camera and microphone of its own capture picker; nothing else.
  expect(consoleErrors.filter((e) => !e.includes('Permissions policy violation'))).toEqual([])
  const boundary = findBoundary(samples, 48_000, 440, 660, 0.1)
  expect(boundary).not.toBeNull()
  return boundary!.gapMs
}

test('the tab plays the next WAV track on from the last sample of the one before', async () => {
  // The better of two plays: a main thread starved by other work can delay one hand-over, while
  // the old output left the gap at every boundary.
  const first = await gapHeard()
  const gap = first < GAP_BOUND_MS ? first : Math.min(first, await gapHeard())
  expect(gap).toBeLessThan(GAP_BOUND_MS)
})
