// Internet radio in Debian's Chromium, against a real Icecast server fed by ffmpeg on loopback:
// an admin adds a station in the admin console (a loopback address is refused under its field),
// a member stars it on /radio, plays it in the one player (no seek bar, "Live" for its length, the
// station's ICY title under its name, and a new title shows when the station changes it), the
// play is recorded with source `radio` and the admin's analytics name it. Screenshots of the Radio page with the player playing a
// station at 1280×800 and 390×844 go to test-results/screens.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { ICECAST_HOST, startIcecast, type TestIcecast } from '../helpers/icecast'
import { playsPast, setAdChance, waitForRow } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]
let icecast: TestIcecast
let server: TestServer
let browser: Browser
let adminToken: string
let member: Awaited<ReturnType<typeof createMember>>

beforeAll(async () => {
  icecast = await startIcecast()
  await icecast.feed('/jazz.mp3', 'Loopback Jazz')
  await icecast.setTitle('/jazz.mp3', 'Miles Davis - So What')
  server = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: ICECAST_HOST })
  adminToken = await loginAdmin(server.url)
  member = await createMember(server.url)
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await icecast?.stop()
})

/** A signed-in page: the token the app keeps and the session cookie sign-in sets (the player's stream carries the cookie). */
async function signedIn(token: string, viewport = VIEWPORTS[0]) {
  const opened = await newPage(browser, server.url, { viewport })
  await opened.context.addCookies([{ name: 'vibes_session', value: token, url: server.url }])
  await opened.context.addInitScript((t) => localStorage.setItem('token', t), token)
  await setAdChance(opened.page, 0)
  return opened
}

describe('internet radio', () => {
  test('an admin adds a station in the admin console; a loopback address is refused under its field', async () => {
    const { page, consoleErrors } = await signedIn(adminToken)
    await gotoHydrated(page, '/admin/music')
    await page.getByText('No stations yet').waitFor()
    await page.getByRole('button', { name: 'Add station' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add station' })
    await dialog.getByLabel('Name').fill('Loopback Jazz')
    await dialog.getByLabel('Stream URL').fill('http://127.0.0.1:8000/jazz.mp3')
    await dialog.getByRole('button', { name: 'Add station' }).click()
    await dialog.getByText('Remote URL refused: 127.0.0.1 is a loopback address').waitFor()
    await dialog.getByLabel('Stream URL').fill(`${icecast.url}/jazz.mp3`)
    await dialog.getByLabel('Homepage (optional)').fill(`${icecast.url}/`)
    await dialog.getByRole('button', { name: 'Add station' }).click()
    await dialog.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Loopback Jazz/ })
    await row.waitFor()
    expect(await row.textContent()).toContain(`${icecast.url}/jazz.mp3`)
    // A second station, added through the API: the Radio page orders them.
    await page.getByRole('button', { name: 'Add station' }).click()
    await dialog.getByLabel('Name').fill('Another Station')
    await dialog.getByLabel('Stream URL').fill(`${icecast.url}/other.mp3`)
    await dialog.getByRole('button', { name: 'Add station' }).click()
    await page.getByRole('row', { name: /Another Station/ }).waitFor()
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport)
      await page.waitForTimeout(300)
      await page.getByRole('region', { name: 'Internet radio' }).screenshot({ path: path.join(SHOTS, `admin-radio-${viewport.width}.png`) })
    }
    expect(consoleErrors.filter((e) => !e.includes('400'))).toEqual([])
    await page.context().close()
  })

  test('a member stars a station, plays it live and sees what it plays now; the play counts as radio', async () => {
    const { page, context, consoleErrors } = await signedIn(member.token)
    await gotoHydrated(page, '/radio')
    const names = () => page.getByTestId('station').locator('span > span:first-child').allTextContents()
    await page.getByRole('button', { name: 'Favourite Loopback Jazz' }).waitFor()
    expect(await names()).toEqual(['Another Station', 'Loopback Jazz'])
    await page.getByRole('button', { name: 'Favourite Loopback Jazz' }).click()
    await page.waitForFunction(() => document.querySelector('[data-testid=station] span > span')?.textContent === 'Loopback Jazz')
    expect(await page.getByRole('button', { name: 'Favourite Loopback Jazz' }).getAttribute('aria-pressed')).toBe('true')

    await page.getByRole('button', { name: 'Play Loopback Jazz' }).click()
    await playsPast(page, 1.5, 20_000)
    const bar = page.getByTestId('now-playing')
    expect(await bar.getByTestId('bar-title').textContent()).toBe('Loopback Jazz')
    await page.waitForFunction(() => document.querySelector('[data-testid=bar-subtitle]')?.textContent === 'Miles Davis - So What')
    expect(await page.getByTestId('station-now-playing').textContent()).toBe('Miles Davis - So What')
    // Live: through the server, no seek bar, no length.
    expect(await page.evaluate(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc)).toMatch(/\/api\/radio\/stream\//)
    expect(await bar.getByRole('slider', { name: 'Seek' }).count()).toBe(0)
    expect(await bar.getByTestId('time-duration').textContent()).toBe('Live')

    const played = await waitForRow<{ source: string; title: string }>(
      server,
      'SELECT source, title FROM play_events WHERE user_id = ? ORDER BY started_at DESC LIMIT 1',
      [member.user.id],
    )
    expect(played).toEqual({ source: 'radio', title: 'Loopback Jazz' })

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport)
      await page.waitForTimeout(300)
      await page.screenshot({ path: path.join(SHOTS, `radio-playing-${viewport.width}.png`) })
    }
    // A phone's bar, opened: the live line and "Live" where a track's seek bar and length are.
    await bar.getByRole('button', { name: 'More controls' }).click()
    await bar.getByTestId('time-duration').waitFor()
    expect(await bar.getByRole('button', { name: 'Share' }).isDisabled()).toBe(true)
    await page.screenshot({ path: path.join(SHOTS, 'radio-playing-390-expanded.png') })
    await bar.getByRole('button', { name: 'More controls' }).click()
    await page.setViewportSize(VIEWPORTS[0])

    // The station changes its title: the bar follows within the poll (15 s) and the server's reuse (10 s).
    await icecast.setTitle('/jazz.mp3', 'John Coltrane - Naima')
    await page.waitForFunction(() => document.querySelector('[data-testid=bar-subtitle]')?.textContent === 'John Coltrane - Naima', undefined, {
      timeout: 40_000,
    })

    // Pause lets the stream go; play tunes in again.
    await page.getByRole('button', { name: 'Pause Loopback Jazz' }).click()
    await page.waitForFunction(() => !(document.querySelector('[data-testid=media]') as HTMLMediaElement).getAttribute('src'))
    await page.getByRole('button', { name: 'Play Loopback Jazz' }).click()
    await playsPast(page, 0.5, 20_000)
    expect(consoleErrors).toEqual([])
    await context.close()
  }, 90_000)

  test('an admin sees radio listening in the analytics', async () => {
    const { page, context, consoleErrors } = await signedIn(adminToken)
    await gotoHydrated(page, '/admin/listening-analytics')
    await page.getByText('Internet radio', { exact: true }).waitFor({ timeout: 20_000 })
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
