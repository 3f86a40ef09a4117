// An album's Play as a new listener presses it, in Debian's Chromium on a phone (390×844): Play,
// then a row (the second track), then Play again — playing, paused, and after a reload restored
// the queue — always starts the album from its first track, playing. The album page marks the
// track that plays (aria-current and a visible mark).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { media, playsPast, setAdChance, waitPaused } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const TITLES = ['Dawn', 'Dusk', 'Dark']
let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of TITLES.entries())
    makeTone(path.join(server.mediaRoot, 'Sky Trio', 'Hours', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Sky Trio',
      album: 'Hours',
      seconds: 30,
      frequency: 440 + i * 110,
      metadata: { track: String(i + 1) },
    })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const mediaFile = (page: Page) => page.evaluate(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc))
const albumPlay = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Play', exact: true })
// The rows' own buttons (each row also has its ⋯ menu button).
const rows = (page: Page) => page.getByRole('list', { name: 'Tracks of Hours' }).getByRole('button', { name: /^(?!More actions)/ })

/** Waits until the album's first track plays from its start, and the page marks its row. */
async function playsFirstTrack(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
    return decodeURIComponent(el.currentSrc).includes('/01 Dawn.mp3') && !el.paused && el.currentTime < 5
  })
  await page.locator('[aria-current=true]', { hasText: 'Dawn' }).waitFor()
}

describe('an album Play the queue already holds', () => {
  test('Play → second track → Play (playing, paused, after a reload) starts the album from its first track', async () => {
    const m = await createMember(server.url)
    const { context, page, consoleErrors } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    await setAdChance(page, 0)
    await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/library?tab=albums')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Hours/ }).click()
    await page.getByRole('heading', { level: 1, name: 'Hours' }).waitFor()

    await albumPlay(page).click()
    await playsFirstTrack(page)
    await rows(page).nth(1).click()
    await page.waitForFunction(() =>
      decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('/02 Dusk.mp3'),
    )
    await playsPast(page, 0.5)
    await page.locator('[aria-current=true]', { hasText: 'Dusk' }).waitFor()
    expect(await page.locator('[aria-current=true]').count()).toBe(1)

    // Playing the second track: Play starts the album over.
    await albumPlay(page).click()
    await playsFirstTrack(page)

    // Paused on the second track: Play starts the album over, playing.
    await rows(page).nth(1).click()
    await playsPast(page, 0.5)
    await page.getByTestId('now-playing').getByRole('button', { name: 'Pause' }).click()
    await waitPaused(page)
    expect(await mediaFile(page)).toContain('/02 Dusk.mp3')
    await albumPlay(page).click()
    await playsFirstTrack(page)

    // A reload restores the queue on the second track (paused); Play starts the album over.
    await rows(page).nth(1).click()
    await playsPast(page, 1)
    await page.reload()
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
    await page.getByTestId('now-playing').getByText('Dusk').waitFor()
    await albumPlay(page).click()
    await playsFirstTrack(page)
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})

describe('Previous and the volume keys', () => {
  test('Previous past 3 s restarts the track, within 3 s goes back; ↑ while muted unmutes to the kept volume', async () => {
    const m = await createMember(server.url)
    const { context, page, consoleErrors } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/library?tab=albums')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Hours/ }).click()
    await rows(page).nth(1).click()
    await playsPast(page, 4.6, 15_000)
    const previous = page.getByTestId('now-playing').getByRole('button', { name: 'Previous' })
    await previous.click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime < 2)
    expect(await mediaFile(page)).toContain('/02 Dusk.mp3')
    await previous.click()
    await playsFirstTrack(page)

    // The full player's keys: M mutes, ↑ brings back the volume it kept (0.8), not 5 %.
    await page.getByTestId('now-playing').getByRole('link', { name: 'Open player' }).click()
    await page.getByTestId('track-title').waitFor()
    await page.keyboard.press('m')
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).muted)
    await page.keyboard.press('ArrowUp')
    await page.waitForFunction(() => !(document.querySelector('[data-testid=media]') as HTMLMediaElement).muted)
    expect((await media(page)).volume).toBeCloseTo(0.8)
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
