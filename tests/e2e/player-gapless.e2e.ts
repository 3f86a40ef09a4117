// Gapless track changes (decision 023), in Debian's Chromium: the next track is
// preloaded in a second media element that takes over at the end of the current one, and
// everything that follows "the media element" — the title, the play/pause state, the element
// tests and the full player find — follows the hand-over. An advert, when due, still comes between
// tracks. The gap itself is a figure of bench/player-gap.ts, not an assertion here. With a
// crossfade set, both elements sound at once across the boundary, one fading out as the other
// fades in.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { expectTitle, media, playsPast, setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let pair: string
let fadePair: string

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-gapless-'))
  pair = path.join(fixtures, 'Pair')
  mkdirSync(pair)
  tone(path.join(pair, '01 Low.mp3'), 2, { title: 'Low', artist: 'Tones' })
  tone(path.join(pair, '02 High.mp3'), 6, { title: 'High', artist: 'Tones' }, 660)
  fadePair = path.join(fixtures, 'Fade')
  mkdirSync(fadePair)
  tone(path.join(fadePair, '01 Dusk.mp3'), 5, { title: 'Dusk', artist: 'Tones' })
  tone(path.join(fadePair, '02 Dawn.mp3'), 6, { title: 'Dawn', artist: 'Tones' }, 660)
  server = await startServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

describe('gapless track change', () => {
  test('the next track starts in a preloaded second element, which becomes the player’s element', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await gotoHydrated(page, '/')
    await page.getByTestId('folder-input').setInputFiles(pair)
    await expectTitle(page, 'Low')
    // Mark the element that plays the first track, to tell it from the one that takes over.
    await page.evaluate(() => ((document.querySelector('[data-testid=media]') as HTMLMediaElement & { first?: boolean }).first = true))
    await expectTitle(page, 'High')
    await playsPast(page, 0.5)
    const after = await page.evaluate(() => {
      const all = document.querySelectorAll('[data-testid=media]')
      const el = all[0] as HTMLMediaElement & { first?: boolean }
      return { count: all.length, first: !!el.first }
    })
    expect(after.count).toBe(1)
    expect(after.first).toBe(false)
    // The full player's controls drive the new element.
    await page.getByRole('button', { name: 'Pause', exact: true }).first().click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
    expect((await media(page)).paused).toBe(true)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('an advert that is due still comes between the tracks', async () => {
    const { page, context } = await newPage(browser, server.url)
    await setAdChance(page, 1)
    await gotoHydrated(page, '/')
    await page.getByTestId('folder-input').setInputFiles(pair)
    await expectTitle(page, 'Low')
    await page.getByRole('dialog').waitFor()
    expect(await page.getByTestId('track-title').textContent()).toBe('Low')
    expect(await page.evaluate(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)).toBe(true)
    await context.close()
  })
})

describe('crossfade', () => {
  test('set to 2 s, the next track starts before the end and both play at once, then it is current', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await gotoHydrated(page, '/')
    await page.getByText('Playback settings').click()
    await page.getByRole('slider', { name: 'Crossfade' }).fill('2')
    await page.getByText('2 s', { exact: true }).waitFor()
    await page.getByTestId('folder-input').setInputFiles(fadePair)
    await expectTitle(page, 'Dusk')
    // Both elements playing at once, the old one turned down and the new one coming up.
    const overlap = await page.waitForFunction(
      () => {
        const playing = [...document.querySelectorAll('video')].filter((v) => !v.paused && !v.ended && v.currentTime > 0)
        if (playing.length < 2) return null
        return playing.map((v) => ({ time: v.currentTime, duration: v.duration, volume: v.volume, current: v.dataset.testid === 'media' }))
      },
      undefined,
      { polling: 100, timeout: 15_000 },
    )
    const both = (await overlap.jsonValue()) as Array<{ time: number; duration: number; volume: number; current: boolean }>
    const old = both.find((e) => !e.current)
    const next = both.find((e) => e.current)
    expect(old && next).toBeTruthy()
    // The old track is within its last 2 s (and a little for the poll); the new one near its start.
    expect(old!.duration - old!.time).toBeLessThan(2.3)
    expect(next!.time).toBeLessThan(2.3)
    expect(old!.volume).toBeLessThan(1)
    expect(await page.getByTestId('track-title').textContent()).toBe('Dawn')
    // After the boundary: one element left, the next track current, at the player's volume (0.8 by default).
    await page.waitForFunction(() => [...document.querySelectorAll('video')].filter((v) => !v.paused).length === 1, undefined, { timeout: 10_000 })
    await page.waitForFunction(() => Math.abs((document.querySelector('[data-testid=media]') as HTMLMediaElement).volume - 0.8) < 1e-6)
    await playsPast(page, 2.5)
    expect(await page.getByTestId('track-title').textContent()).toBe('Dawn')
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
