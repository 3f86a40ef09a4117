// Resume after a reload in Debian's Chromium against the real built server: a
// reload brings back a member's library queue at its track and position, paused, with its volume
// and shuffle/repeat settings; a second browser of the same member is offered "Resume from
// <device>" and taking it plays that track; a local folder's list is remembered and the player
// asks for that folder again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { expectTitle, media, playsPast, setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  mkdirSync(path.join(server.mediaRoot, 'library'))
  tone(path.join(server.mediaRoot, 'library', '01 First Light.mp3'), 30, { title: 'First Light', artist: 'Dawn Trio' })
  tone(path.join(server.mediaRoot, 'library', '02 Second Wind.mp3'), 30, { title: 'Second Wind', artist: 'Dawn Trio' }, 550)
  tone(path.join(server.mediaRoot, 'library', '03 Third Eye.mp3'), 30, { title: 'Third Eye', artist: 'Dawn Trio' }, 660)
  // Written while the start-up scan may be running (slower to start on PostgreSQL, which takes a
  // lease first): that scan can index a half-written file, so the folder's list is read after a scan.
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

type Member = Awaited<ReturnType<typeof createMember>>

async function signedInPage(m: Member) {
  const opened = await newPage(browser, server.url)
  await setAdChance(opened.page, 0)
  await opened.page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  return opened
}

async function folderFor(m: Member) {
  const res = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Dawn', path: '/library' } })
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

const trackList = (page: Page) => page.getByRole('list', { name: 'Track list' })

describe('resume', () => {
  test('a reload resumes a library queue at its track and position, paused, with its settings', async () => {
    const m = await createMember(server.url)
    const fid = await folderFor(m)
    const { page, context, consoleErrors } = await signedInPage(m)
    await gotoHydrated(page, `/player?fid=${fid}`)
    await expectTitle(page, 'First Light')
    await trackList(page)
      .getByRole('button', { name: /Second Wind/ })
      .click()
    await expectTitle(page, 'Second Wind')
    await page.getByRole('slider', { name: 'Seek' }).fill('12')
    await playsPast(page, 13)
    await page.getByRole('button', { name: 'Repeat' }).click()
    await page.getByRole('button', { name: 'Mute' }).click()
    // Pausing writes the place at once.
    await page.getByRole('button', { name: 'Pause' }).click()
    const at = (await media(page)).currentTime

    await page.reload()
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
    await expectTitle(page, 'Second Wind')
    await page.waitForFunction((t) => Math.abs((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime - t) < 2, at)
    const el = await media(page)
    expect(el.paused).toBe(true)
    expect(el.muted).toBe(true)
    expect(await page.getByRole('button', { name: 'Repeat' }).getAttribute('aria-pressed')).toBe('true')
    expect(await page.getByTestId('time-current').textContent()).toMatch(/^0:1[1-4]$/)
    // Play goes on from there.
    await page.getByRole('button', { name: 'Play', exact: true }).click()
    await page.waitForFunction((t) => {
      const e = document.querySelector('[data-testid=media]') as HTMLMediaElement
      return !e.paused && e.currentTime > t
    }, at)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('while playing, the position is kept every few seconds (a reload without pausing)', async () => {
    const m = await createMember(server.url)
    const fid = await folderFor(m)
    const { page, context } = await signedInPage(m)
    await gotoHydrated(page, `/player?fid=${fid}`)
    await expectTitle(page, 'First Light')
    await page.getByRole('slider', { name: 'Seek' }).fill('10')
    await playsPast(page, 16.5, 15_000)
    await page.reload()
    await expectTitle(page, 'First Light')
    // Written at most 5 s apart: the reload lands within a few seconds of where it was.
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime >= 10)
    expect((await media(page)).currentTime).toBeLessThanOrEqual(17.5)
    await context.close()
  })

  test('a second browser of the same member is offered "Resume from <device>", and taking it plays that track', async () => {
    const m = await createMember(server.url)
    const fid = await folderFor(m)
    const first = await signedInPage(m)
    await gotoHydrated(first.page, `/player?fid=${fid}`)
    await trackList(first.page)
      .getByRole('button', { name: /Third Eye/ })
      .click()
    await expectTitle(first.page, 'Third Eye')
    await first.page.getByRole('slider', { name: 'Seek' }).fill('8')
    await playsPast(first.page, 8.5)
    // The save is debounced; wait until the server has this queue.
    for (let tries = 0; ; tries++) {
      const saved = await api(server.url, 'GET', '/playlist/queue', { token: m.token })
      if (saved.body.data.index === 2) break
      if (tries > 50) throw new Error('the queue was never saved')
      await Bun.sleep(200)
    }
    // The saving device is never offered its own queue.
    expect(await first.page.getByTestId('resume-offer').count()).toBe(0)

    const second = await signedInPage(m)

    await gotoHydrated(second.page, '/charts')
    const offer = second.page.getByRole('region', { name: 'Resume from another device' })
    await offer.waitFor()
    expect(await offer.textContent()).toContain('Third Eye')
    await offer.getByRole('button', { name: 'Resume from Chrome on Linux' }).click()
    await second.page.getByRole('region', { name: 'Now playing' }).getByText('Third Eye').waitFor()
    await playsPast(second.page, 8)
    expect((await media(second.page)).src).toContain('/media/library/03%20Third%20Eye.mp3')
    expect(await offer.count()).toBe(0)
    expect(second.consoleErrors).toEqual([])
    await first.context.close()
    await second.context.close()
  })

  test('a local folder is remembered: after a reload the player asks for it again, and picking it resumes', async () => {
    const { page, context } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await gotoHydrated(page, '/')
    const folder = path.join(server.mediaRoot, 'library')
    const pick = () => page.getByTestId('folder-input').setInputFiles(folder)
    await pick()
    await expectTitle(page, 'First Light')
    await trackList(page)
      .getByRole('button', { name: /Second Wind/ })
      .click()
    await expectTitle(page, 'Second Wind')
    await page.getByRole('slider', { name: 'Seek' }).fill('6')
    await playsPast(page, 6.5)
    await page.getByRole('button', { name: 'Pause' }).click()

    await page.reload()
    await page.getByTestId('local-resume').waitFor()
    expect(await page.getByTestId('local-resume').textContent()).toContain('“library” (3 tracks). Select that folder again to resume where you left off.')
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    await pick()
    await expectTitle(page, 'Second Wind')
    await page.waitForFunction(() => {
      const e = document.querySelector('[data-testid=media]') as HTMLMediaElement
      return !e.paused && e.currentTime >= 5
    })
    expect(await page.getByTestId('local-resume').count()).toBe(0)
    await context.close()
  })
})
