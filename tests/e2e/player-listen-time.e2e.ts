// Listen time as a new listener makes it, in Debian's Chromium: a member plays an album from the
// library, pauses, plays on, reloads the page mid-track, resumes and finally closes the page. Every
// second heard must reach the admin's analytics (`totalListenTime`) once: a pause reports the play's
// listen duration, and so does a page that goes away (reload or close).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { media, playsPast, readRows, setAdChance, waitPaused } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let admin: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of ['Morning', 'Noon', 'Night'].entries())
    makeTone(path.join(server.mediaRoot, 'Tone Trio', 'Day', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Tone Trio',
      album: 'Day',
      seconds: 60,
      frequency: 440 + i * 110,
      metadata: { track: String(i + 1) },
    })
  admin = await loginAdmin(server.url)
  await scanLibraryNow(server.url, admin)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const bar = (page: Page) => page.getByRole('region', { name: 'Now playing' })
/** Keeps the page's main thread busy for `ms` (what a slow device does now and then). */
declare function busy(ms: number): void
const now = (page: Page) => media(page).then((m) => m.currentTime)

/** The member's summed listen time as the admin's analytics report it. */
async function totalListenTime(): Promise<number> {
  const res = await api(server.url, 'GET', '/analytics/listening-overview?days=1', { token: admin })
  expect(res.status).toBe(200)
  return res.body.data.overview.totalListenTime
}

describe('listen time', () => {
  test('pauses, a reload and a closed page lose no listened second and count none twice', async () => {
    const m = await createMember(server.url)
    const { context, page } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await context.addInitScript(() => {
      ;(window as unknown as { busy: (ms: number) => void }).busy = (ms) => {
        const end = performance.now() + ms
        while (performance.now() < end) {}
      }
    })
    await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/library?tab=albums')
    await page.getByRole('link', { name: /Day/ }).first().click()
    await page.getByRole('heading', { name: 'Day' }).waitFor()

    let heard = 0
    // Play 4 s, pause (the pause reports).
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 4, 15_000)
    await bar(page).getByRole('button', { name: 'Pause' }).click()
    await waitPaused(page)
    heard += await now(page)
    // Go on, with the page busy for 2.5 s twice (a slow phone): the sound goes on meanwhile.
    let from = await now(page)
    await bar(page).getByRole('button', { name: 'Play' }).click()
    await playsPast(page, from + 1, 15_000)
    for (let i = 0; i < 2; i++) await page.evaluate(() => busy(2500))
    await playsPast(page, from + 7, 15_000)
    await bar(page).getByRole('button', { name: 'Pause' }).click()
    await waitPaused(page)
    heard += (await now(page)) - from
    // Play on and reload while playing: the play is cut by the reload.
    from = await now(page)
    await bar(page).getByRole('button', { name: 'Play' }).click()
    await playsPast(page, from + 3, 15_000)
    const beforeReload = await now(page)
    await page.reload()
    heard += beforeReload - from
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
    // The restored queue resumes where the reload left it; play 3 s more and close the page.
    await bar(page).getByRole('button', { name: 'Play' }).waitFor()
    from = await now(page)
    await bar(page).getByRole('button', { name: 'Play' }).click()
    await playsPast(page, from + 3, 15_000)
    const beforeClose = await now(page)
    await page.close()
    heard += beforeClose - from
    await context.close()

    // The reload and the close each played on for a moment after the last reading: allow 1 s.
    const deadline = Date.now() + 10_000
    let total = await totalListenTime()
    while (Math.abs(total - heard) > 1 && Date.now() < deadline) {
      await Bun.sleep(200)
      total = await totalListenTime()
    }
    if (Math.abs(total - heard) > 1) console.log({ heard, total, plays: await readRows(server, 'SELECT title, listen_duration, skip_time FROM play_events') })
    expect(Math.abs(total - heard)).toBeLessThanOrEqual(1)
  })
})
