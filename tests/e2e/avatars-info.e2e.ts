// A member's picture and an artist's biography in Debian's Chromium against the built server: on
// /profile the member uploads a picture (a PNG made by ffmpeg), sees it on the page and in the
// account menu, removes it and gets the initial back; an artist whose folder holds artist.txt and
// artist.jpg shows that text and picture on its page. Screenshots at 1280 and 390 px wide.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { ffmpeg, makeImage, makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const BIOGRAPHY = 'Ada Lark plays the piano at dawn, in a house by the sea.\nHer first record was made in one night.'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([startServer(adminEnv), launchBrowser()])
  const lib = (p: string) => path.join(server.mediaRoot, p)
  makeTone(lib('Ada Lark/Dawn/1 First Light.mp3'), { artist: 'Ada Lark', album: 'Dawn', title: 'First Light', seconds: 1 })
  makeImage(lib('Ada Lark/artist.jpg'), 'teal')
  writeFileSync(lib('Ada Lark/artist.txt'), BIOGRAPHY)
  await scanLibraryNow(server.url, await loginAdmin(server.url))
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function logIn(page: Page, email: string, password: string) {
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

describe('pictures and biographies', () => {
  for (const width of [1280, 390]) {
    test(`at ${width} px: upload a picture on /profile, see it in the account menu, remove it`, async () => {
      const m = await createMember(server.url)
      const photo = path.join(server.dataDir, `photo-${width}.png`)
      ffmpeg('-f', 'lavfi', '-i', 'testsrc=s=640x480', '-frames:v', '1', photo)
      const { page, consoleErrors } = await newPage(browser, server.url, { viewport: { width, height: 900 } })
      await logIn(page, m.email, m.password)
      await gotoHydrated(page, '/profile')
      await page.getByLabel('Choose a picture').setInputFiles(photo)
      await page.getByRole('status').filter({ hasText: 'Picture saved.' }).waitFor()
      const shown = page.getByRole('img', { name: 'You, as others see you' })
      await shown.waitFor()
      expect(await shown.getAttribute('src')).toStartWith('data:image/jpeg;base64,')
      const menuPicture = page.getByRole('button', { name: /Account menu/ }).locator('img')
      await menuPicture.waitFor()
      await page.screenshot({ path: path.join(SHOTS, `profile-avatar-${width}.png`), fullPage: false })

      await page.getByRole('button', { name: 'Remove', exact: true }).click()
      await page.getByRole('status').filter({ hasText: 'Picture removed.' }).waitFor()
      expect(
        await page
          .getByRole('button', { name: /Account menu/ })
          .locator('img')
          .count(),
      ).toBe(0)
      expect((await api(server.url, 'GET', '/trpc/profile.avatar', { token: m.token })).body.result.data.json.avatar).toBeNull()
      expect(consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([])
    })

    test(`at ${width} px: the artist page shows artist.txt and artist.jpg`, async () => {
      const m = await createMember(server.url)
      const { page } = await newPage(browser, server.url, { viewport: { width, height: 900 } })
      await logIn(page, m.email, m.password)
      const search = await api(server.url, 'GET', `/trpc/library.search?input=${encodeURIComponent(JSON.stringify({ json: { q: 'Ada Lark' } }))}`, {
        token: m.token,
      })
      const id = search.body.result.data.json.artists[0].id as string
      await gotoHydrated(page, `/library/artists/${id}`)
      const bio = page.getByTestId('artist-biography')
      await bio.waitFor()
      expect(await bio.textContent()).toBe(BIOGRAPHY)
      const picture = page.locator('section header img[src^="/media/Ada%20Lark/artist.jpg?cover=1&"]')
      await picture.waitFor()
      expect(await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      await page.screenshot({ path: path.join(SHOTS, `artist-biography-${width}.png`), fullPage: false })
    })
  }
})
