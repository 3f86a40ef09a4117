// One player for the whole app (changing pages never stops what plays), in Debian's
// Chromium: the defects a new user hit — a shorter folder crashing the page, navigation stopping
// the music, a bad ?fid remembered as the last folder — and the now-playing bar every page shows
// while something is loaded, at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { expectTitle, media, playsPast, setAdChance, tone, openPlayer } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let three: string
let one: string

const PHONE = { width: 390, height: 844 }

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-player-app-'))
  three = path.join(fixtures, 'Three Songs')
  one = path.join(fixtures, 'One Song')
  mkdirSync(three)
  mkdirSync(one)
  // Long enough that nothing ends by itself while a test navigates.
  tone(path.join(three, '01 First.mp3'), 30, { title: 'First', artist: 'Trio' })
  tone(path.join(three, '02 Second.mp3'), 30, { title: 'Second', artist: 'Trio' }, 550)
  tone(path.join(three, '03 Third.mp3'), 30, { title: 'Third', artist: 'Trio' }, 660)
  tone(path.join(one, 'Lonely.mp3'), 30, { title: 'Lonely', artist: 'Solo' }, 330)
  server = await startServer(adminEnv)
  mkdirSync(path.join(server.mediaRoot, 'library'))
  tone(path.join(server.mediaRoot, 'library', '01 Long Tone.mp3'), 30, { title: 'Long Tone', artist: 'Drone Unit' })
  // Written while the start-up scan may be running (slower to start on PostgreSQL, which takes a
  // lease first): that scan can index a half-written file, so the folder's list is read after a scan.
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

const open = (viewport?: { width: number; height: number }) => openPlayer(browser, server.url, viewport)

const nowPlaying = (page: Page) => page.getByRole('region', { name: 'Now playing' })
const mediaTime = (page: Page) => media(page).then((m) => m.currentTime)

/** Clicks a top-bar link (client-side navigation, as a user does) and waits for the address. */
async function navigate(page: Page, name: string, pathname: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click()
  await page.waitForURL((u) => u.pathname === pathname)
}

describe('one player for the app', () => {
  test('picking a folder with fewer tracks than the one playing plays the new folder', async () => {
    const { page, context, consoleErrors } = await open()
    await page.getByTestId('folder-input').setInputFiles(three)
    await expectTitle(page, 'First')
    await page.getByRole('list', { name: 'Track list' }).getByRole('button', { name: /Third/ }).click()
    await expectTitle(page, 'Third')
    await page.getByTestId('folder-input').setInputFiles(one)
    await expectTitle(page, 'Lonely')
    await playsPast(page, 0.3)
    expect(await page.getByText('Something went wrong').count()).toBe(0)
    expect(consoleErrors.filter((e) => !e.includes('favicon'))).toEqual([])
    await context.close()
  })

  test('moving between pages never stops or forgets what plays; the bar follows on every page', async () => {
    const { page, context, consoleErrors } = await open()
    await page.getByTestId('folder-input').setInputFiles(three)
    await expectTitle(page, 'First')
    await playsPast(page, 0.5)
    const bar = nowPlaying(page)

    let last = await mediaTime(page)
    for (const [name, pathname] of [
      ['Charts', '/charts'],
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Charts', '/charts'],
    ] as const) {
      await navigate(page, name, pathname)
      await bar.waitFor()
      expect(await bar.getByText('First', { exact: true }).count()).toBe(1)
      await bar.getByRole('button', { name: 'Pause' }).waitFor()
      await page.waitForFunction((t) => {
        const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
        return !el.paused && el.currentTime > t
      }, last)
      last = await mediaTime(page)
    }

    // Next from the bar changes the track away from the player screen.
    await bar.getByRole('button', { name: 'Next', exact: true }).click()
    await bar.getByText('Second', { exact: true }).waitFor()

    // Back home: the same list and track, still playing, no restart.
    await page.goBack()
    await page.goBack()
    await page.goBack()
    await page.goBack()
    await page.waitForURL((u) => u.pathname === '/')
    await expectTitle(page, 'Second')
    const before = await mediaTime(page)
    expect(before).toBeGreaterThan(0)
    await playsPast(page, before)
    expect(await page.getByRole('list', { name: 'Track list' }).getByRole('listitem').count()).toBe(3)
    expect(consoleErrors.filter((e) => !e.includes('favicon'))).toEqual([])
    await context.close()
  })

  test('the bar pauses and resumes, and opens the full player', async () => {
    const { page, context } = await open()
    await page.getByTestId('folder-input').setInputFiles(three)
    await expectTitle(page, 'First')
    await playsPast(page, 0.3)
    await navigate(page, 'About', '/about')
    const bar = nowPlaying(page)
    await bar.getByRole('button', { name: 'Pause' }).click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
    await bar.getByRole('button', { name: 'Play' }).click()
    await playsPast(page, 0.5)
    await bar.getByRole('link', { name: 'Open player' }).click()
    await page.waitForURL((u) => u.pathname === '/')
    await expectTitle(page, 'First')
    expect((await media(page)).paused).toBe(false)
    await context.close()
  })

  test('after /player?fid=<unknown>, plain /player plays the last real folder', async () => {
    const m = await createMember(server.url)
    const made = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Drones', path: '/library' } })
    expect(made.status).toBe(201)
    const { page, context } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, `/player?fid=${made.body.data.id}`)
    await expectTitle(page, 'Long Tone')
    await gotoHydrated(page, `/player?fid=${crypto.randomUUID()}`)
    await page.getByText('Folder not found').waitFor()
    await gotoHydrated(page, '/player')
    await page.getByRole('heading', { name: 'Drones' }).waitFor()
    await expectTitle(page, 'Long Tone')
    expect(await page.getByText('Folder not found').count()).toBe(0)
    await context.close()
  })

  test('phone: after picking a folder the player controls are in view; other pages get a bottom mini-player with 44 px targets', async () => {
    const { page, context } = await open(PHONE)
    await page.getByTestId('folder-input').setInputFiles(three)
    await expectTitle(page, 'First')
    await playsPast(page, 0.3)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    const controls = await page.getByRole('toolbar', { name: 'Playback controls' }).boundingBox()
    expect(controls!.y + controls!.height).toBeLessThanOrEqual(PHONE.height)
    // Client-side navigation through the side sheet's link list.
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog').getByRole('link', { name: 'About', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/about')
    const bar = nowPlaying(page)
    await bar.waitFor()
    const box = await bar.boundingBox()
    expect(box).not.toBeNull()
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height + 1)
    expect(box!.y).toBeGreaterThan(PHONE.height / 2)
    for (const name of ['Previous', 'Pause', 'Next']) {
      const b = await bar.getByRole('button', { name, exact: true }).boundingBox()
      expect(b!.width).toBeGreaterThanOrEqual(44)
      expect(b!.height).toBeGreaterThanOrEqual(44)
    }
    expect((await media(page)).paused).toBe(false)
    await context.close()
  })
})
