// The full player's Lyrics panel, in Debian's Chromium against the real built server and a library
// made with ffmpeg: a song with a sidecar .lrc (synced, with an offset), one with plain lyrics in
// its tags and one with none. At 1280×800 the sung line follows playback (marked, and scrolled
// into the panel's view) and a click on a line seeks there; plain lyrics and "No lyrics" show as
// such. Screenshots at 1280×800 and 390×844 when SCREENSHOT_DIR is set.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { expectTitle, media, playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

// Line n is stamped at n×2.5 s; the offset of +500 ms shows each half a second sooner, at n×2.5 − 0.5 s.
const LINES = Array.from({ length: 16 }, (_, n) => `Line ${n}`)
const stampOf = (n: number) => {
  const ms = n * 2500
  return `[${String(Math.floor(ms / 60000)).padStart(2, '0')}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}.${String((ms % 1000) / 10).padStart(2, '0')}]`
}
const LRC = `[offset:+500]\n${LINES.map((l, n) => `${stampOf(n)}${l}`).join('\n')}\n`

beforeAll(async () => {
  server = await startServer(adminEnv)
  const album = (file: string) => path.join(server.mediaRoot, 'Lyra', 'Words', file)
  const tags = { artist: 'Lyra', album: 'Words', seconds: 45 }
  makeTone(album('01 Sung.mp3'), { ...tags, title: 'Sung', metadata: { track: '1' } })
  writeFileSync(album('01 Sung.lrc'), LRC)
  makeTone(album('02 Told.flac'), { ...tags, title: 'Told', metadata: { track: '2', lyrics: 'Once upon a time\nThe end' } })
  makeTone(album('03 Hummed.mp3'), { ...tags, title: 'Hummed', metadata: { track: '3' } })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A member's page that plays the album from its first track and then opens the full player. */
async function playAlbum(viewport: { width: number; height: number }) {
  const m = await createMember(server.url)
  const opened = await newPage(browser, server.url, { viewport })
  await setAdChance(opened.page, 0)
  await opened.context.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(opened.page, '/library?tab=albums')
  await opened.page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Words/ }).click()
  await opened.page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
  await playsPast(opened.page, 0.2)
  await opened.page.getByRole('link', { name: 'Vibes home' }).click()
  await expectTitle(opened.page, 'Sung')
  return opened
}

const panel = (page: Page) => page.getByTestId('lyrics-panel')

/**
 * Waits until Line n is the one marked as sung and returns the media time then. The panel follows
 * the player's last timeupdate, a little behind the element: a line is never marked before its
 * time, and is left within a moment of the next line's.
 */
async function waitSung(page: Page, n: number): Promise<number> {
  await page.waitForFunction((t) => document.querySelector('[data-testid=lyrics-synced] [aria-current=true]')?.textContent === t, `Line ${n}`)
  const time = (await media(page)).currentTime
  expect(time).toBeGreaterThanOrEqual(lineStart(n))
  expect(time).toBeLessThan(lineStart(n + 1) + 1)
  return time
}

/** Whether the sung line lies inside the panel's scrolled view. */
const sungLineInView = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector('[data-testid=lyrics-synced]')!.getBoundingClientRect()
    const line = document.querySelector('[data-testid=lyrics-synced] [aria-current=true]')?.getBoundingClientRect()
    return line !== undefined && line.top >= list.top - 1 && line.bottom <= list.bottom + 1
  })

/** When the offset LRC above starts singing Line n, in seconds. */
const lineStart = (n: number) => Math.max(0, n * 2.5 - 0.5)

describe('the Lyrics panel', () => {
  test('1280×800: the sung line follows playback and stays in view; a click on a line seeks there; plain lyrics and No lyrics', async () => {
    const { page, context, consoleErrors } = await playAlbum({ width: 1280, height: 800 })
    await panel(page).getByRole('heading', { name: 'Lyrics' }).waitFor()
    await page.getByTestId('lyrics-synced').waitFor()
    expect(await page.getByTestId('lyrics-synced').getByRole('button').allTextContents()).toEqual(LINES)

    // From the start (a click on the first line seeks there), each line is marked when its time
    // comes: Line 0 from 0 s, Line 1 from 2.0 s.
    await panel(page).getByRole('button', { name: 'Line 0', exact: true }).click()
    await waitSung(page, 0)
    await waitSung(page, 1)
    expect(await page.locator('[data-testid=lyrics-synced] [aria-current=true]').count()).toBe(1)

    // A click on a line far down seeks to its time less the offset: Line 12 at 29.5 s.
    await panel(page).getByRole('button', { name: 'Line 12', exact: true }).click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime >= 29.5)
    const after = await media(page)
    expect(after.currentTime).toBeLessThan(31)
    await waitSung(page, 12)
    // Scrolled down the panel to it (smoothly: wait until it has arrived).
    await page.waitForFunction(() => {
      const list = document.querySelector('[data-testid=lyrics-synced]')!
      return list.scrollTop > 0
    })
    await page.waitForFunction(() => {
      const list = document.querySelector('[data-testid=lyrics-synced]')!.getBoundingClientRect()
      const line = document.querySelector('[data-testid=lyrics-synced] [aria-current=true]')!.getBoundingClientRect()
      return line.top >= list.top - 1 && line.bottom <= list.bottom + 1
    })
    expect(await sungLineInView(page)).toBe(true)
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, 'player-lyrics-1280.png') })

    // It keeps following: the next line is marked when its time comes.
    await waitSung(page, 13)

    // The next song has plain lyrics in its tags; the one after has none.
    await page.getByTestId('now-playing').getByRole('button', { name: 'Next' }).click()
    await expectTitle(page, 'Told')
    await page.getByTestId('lyrics-plain').waitFor()
    expect(await page.getByTestId('lyrics-plain').locator('p').allTextContents()).toEqual(['Once upon a time', 'The end'])
    await page.getByTestId('now-playing').getByRole('button', { name: 'Next' }).click()
    await expectTitle(page, 'Hummed')
    await page.getByTestId('lyrics-empty').waitFor()
    expect(await page.getByTestId('lyrics-empty').textContent()).toBe('No lyrics')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('390×844: the panel fits the phone (screenshot)', async () => {
    const { page, context, consoleErrors } = await playAlbum({ width: 390, height: 844 })
    await page.getByTestId('lyrics-synced').waitFor()
    await page.getByTestId('lyrics-synced').scrollIntoViewIfNeeded()
    await playsPast(page, 2.2)
    await page.waitForFunction(() => document.querySelector('[data-testid=lyrics-synced] [aria-current=true]') !== null)
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    const dir = process.env.SCREENSHOT_DIR
    if (dir) await page.screenshot({ path: path.join(dir, 'player-lyrics-390.png') })
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
