// Share links in Debian's Chromium: a member shares an album from its page (expiry and
// description), the link opens in a fresh browser context with no session (a private window) and
// plays, the play is recorded with source `share`; the player's Share button copies a share link
// of the library track it plays; /profile "Shared links" lists and revokes them; a revoked and an
// expired link show their message; a playlist's owner shares it from its page and the link shows
// its tracks in playlist order. Screenshots of the public page and the /profile section at
// 1280×800 and 390×844 go to test-results/screens.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { playsPast, setAdChance, waitForRow } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]
let server: TestServer
let browser: Browser
let member: Awaited<ReturnType<typeof createMember>>

beforeAll(async () => {
  server = await startServer(adminEnv)
  const hours = { artist: 'Sky Trio', album: 'Hours', seconds: 20 }
  makeTone(path.join(server.mediaRoot, 'Sky Trio/Hours/01 Dawn.mp3'), { ...hours, title: 'Dawn', cover: true, metadata: { track: '1' } })
  makeTone(path.join(server.mediaRoot, 'Sky Trio/Hours/02 Dusk.mp3'), { ...hours, title: 'Dusk', frequency: 550, metadata: { track: '2' } })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  member = await createMember(server.url)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function memberPage(viewport = VIEWPORTS[0]) {
  const opened = await newPage(browser, server.url, { viewport })
  await opened.context.addInitScript((t) => localStorage.setItem('token', t), member.token)
  await setAdChance(opened.page, 0)
  return opened
}

/** The album page's "Share link" dialog: 7 days (the first choice) and a description; answers the link. */
async function shareAlbum(page: Page, description: string): Promise<string> {
  await gotoHydrated(page, '/library?tab=albums')
  await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Hours/ }).click()
  await page.getByRole('heading', { name: 'Hours' }).waitFor()
  await page.getByRole('button', { name: 'Share link' }).click()
  const dialog = page.getByRole('dialog', { name: 'Share "Hours"' })
  await expect(dialog.getByRole('combobox', { name: 'Link expires after' }).textContent()).resolves.toContain('7 days')
  await dialog.getByLabel('Description (optional)').fill(description)
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const link = (await dialog.getByTestId('share-link').textContent())!
  expect(link).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{24}$`))
  await dialog.getByRole('button', { name: 'Done' }).click()
  return link
}

describe('a share link plays in a private window', () => {
  test('share an album, open the link with no session, play it; the play is recorded with source share', async () => {
    const { context, page, consoleErrors } = await memberPage()
    const link = await shareAlbum(page, 'Morning to night')
    await context.close()

    for (const viewport of VIEWPORTS) {
      // A fresh context: no token, no cookies, as a private window.
      const visitor = await newPage(browser, server.url, { viewport })
      await gotoHydrated(visitor.page, link)
      await visitor.page.getByRole('heading', { name: 'Hours' }).waitFor()
      await visitor.page.getByText('Morning to night').waitFor()
      const rows = visitor.page.getByRole('region', { name: 'Shared tracks' }).getByRole('button')
      expect(await rows.allTextContents()).toEqual([expect.stringContaining('Dawn'), expect.stringContaining('Dusk')])
      await visitor.page.waitForFunction(() => [...document.images].every((i) => i.complete))
      await visitor.page.screenshot({ path: path.join(SHOTS, `share-page-${viewport.width}.png`) })
      if (viewport.width === 1280) {
        await visitor.page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
        await visitor.page.waitForFunction(() => {
          const audio = document.querySelector('[data-testid=share-audio]') as HTMLAudioElement
          return !audio.paused && audio.currentTime > 0.5 && decodeURIComponent(audio.currentSrc).includes('/01 Dawn.mp3')
        })
        const play = await waitForRow(server, "SELECT * FROM play_events WHERE source = 'share'", [])
        expect(play).toMatchObject({ user_id: null, title: 'Dawn', track_url: '/media/Sky%20Trio/Hours/01%20Dawn.mp3' })
        // The visitor's page never asked for anything of an account.
        expect(await visitor.page.evaluate(() => localStorage.getItem('token'))).toBeNull()
      }
      expect(visitor.consoleErrors).toEqual([])
      await visitor.context.close()
    }
    expect(consoleErrors).toEqual([])
  })
})

describe("the player's Share button and /profile", () => {
  test('Share copies a share link of the playing library track; /profile lists it with its counts and revokes it; the revoked link says so', async () => {
    const { context, page, consoleErrors } = await memberPage()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await gotoHydrated(page, '/library?tab=albums')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Hours/ }).click()
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.3)
    await page.getByRole('button', { name: 'Share', exact: true }).click()
    await page.getByText('Copied to clipboard').waitFor()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toMatch(new RegExp(`^Listening to "Dawn" by Sky Trio on Vibes ${server.url}/s/[A-Za-z0-9_-]{24}$`))
    const link = copied.split(' ').at(-1)!

    const visitor = await newPage(browser, server.url)
    await gotoHydrated(visitor.page, link)
    await visitor.page.getByRole('heading', { name: 'Dawn' }).waitFor()
    await visitor.context.close()

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport)
      await gotoHydrated(page, '/profile')
      const section = page.getByRole('region', { name: 'Shared links' })
      await section.getByText('1 visit').first().waitFor()
      expect(await section.getByRole('listitem').count()).toBe(2)
      await section.scrollIntoViewIfNeeded()
      await section.screenshot({ path: path.join(SHOTS, `profile-shared-links-${viewport.width}.png`) })
    }

    const dawn = page.getByRole('region', { name: 'Shared links' }).getByRole('listitem').filter({ hasText: 'Dawn' })
    await dawn.getByRole('button', { name: 'Copy link to Dawn' }).click()
    await page.getByText('Link to "Dawn" copied to the clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await dawn.getByRole('button', { name: 'Revoke link to Dawn' }).click()
    await page.getByText('Link to "Dawn" revoked.', { exact: false }).waitFor()
    expect(await page.getByRole('region', { name: 'Shared links' }).getByRole('listitem').count()).toBe(1)

    const after = await newPage(browser, server.url)
    await gotoHydrated(after.page, link)
    await after.page.getByRole('heading', { name: 'This share link was revoked' }).waitFor()
    expect(await after.page.getByText('Dawn').count()).toBe(0)
    await after.context.close()
    expect(consoleErrors).toEqual([])
  })

  test('an expired link shows "This share link has expired"', async () => {
    const { context, page } = await memberPage()
    const link = await shareAlbum(page, 'Soon gone')
    await context.close()
    const id = link.split('/s/')[1]
    await sqlOn(server, 'UPDATE shares SET expires_at = ? WHERE id = ?', [Date.now() - 1000, id])
    for (const viewport of VIEWPORTS) {
      const visitor = await newPage(browser, server.url, { viewport })
      const response = await visitor.page.goto(link)
      expect(response?.status()).toBe(410)
      await visitor.page.getByRole('heading', { name: 'This share link has expired' }).waitFor()
      await visitor.page.screenshot({ path: path.join(SHOTS, `share-expired-${viewport.width}.png`) })
      await visitor.context.close()
    }
  })
})

describe('a playlist shared from its page', () => {
  test('the owner\'s "Share link" makes a link that opens, with no session, to the playlist name and its tracks in playlist order', async () => {
    const created = await api(server.url, 'POST', '/user/playlists', {
      token: member.token,
      body: { name: 'Evening walk', trackUrls: ['/media/Sky%20Trio/Hours/02%20Dusk.mp3', '/media/Sky%20Trio/Hours/01%20Dawn.mp3'] },
    })
    expect(created.status).toBe(201)
    const { context, page, consoleErrors } = await memberPage()
    await gotoHydrated(page, `/playlists/${created.body.data.id}`)
    await page.getByRole('heading', { name: 'Evening walk' }).waitFor()
    await page.getByRole('button', { name: 'Share link' }).click()
    const dialog = page.getByRole('dialog', { name: 'Share "Evening walk"' })
    await dialog.getByRole('button', { name: 'Create link' }).click()
    const link = (await dialog.getByTestId('share-link').textContent())!
    expect(link).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{24}$`))
    await context.close()

    const visitor = await newPage(browser, server.url)
    await gotoHydrated(visitor.page, link)
    await visitor.page.getByRole('heading', { name: 'Evening walk' }).waitFor()
    await visitor.page.getByText('Shared playlist').waitFor()
    const rows = visitor.page.getByRole('region', { name: 'Shared tracks' }).getByRole('button')
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('Dusk'), expect.stringContaining('Dawn')])
    await visitor.page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await visitor.page.waitForFunction(() => {
      const audio = document.querySelector('[data-testid=share-audio]') as HTMLAudioElement
      return !audio.paused && audio.currentTime > 0.5 && decodeURIComponent(audio.currentSrc).includes('/02 Dusk.mp3')
    })
    expect(visitor.consoleErrors).toEqual([])
    await visitor.context.close()
    expect(consoleErrors).toEqual([])
  })
})
