// Adverts are the operator's choice in Debian's Chromium: the admin adds a
// promotion on the Music page, switches the four defaults off and sets the chance to 100 %; a
// visitor's "Featured Promotions" grid then shows only the new one, and at a track end the advert
// modal shows it (no test override of the chance). With adverts off the next track follows at once.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { adminEnv, api, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { expectTitle, playsPast, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let admin: string
let fixtures: string
let two: string
const SHOTS = '/work/shots/player3'

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-player-adverts-'))
  two = path.join(fixtures, 'Two')
  mkdirSync(two)
  tone(path.join(two, '01 First.mp3'), 3, { title: 'First' })
  tone(path.join(two, '02 Second.mp3'), 3, { title: 'Second' }, 660)
  mkdirSync(SHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([startServer(adminEnv), launchBrowser()])
  admin = await loginAdmin(server.url)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

test('the admin picks the promotions and the chance; the visitor sees them in the grid and between tracks', async () => {
  const adminPage = await newPage(browser, server.url)
  await adminPage.context.addInitScript((t) => localStorage.setItem('token', t), admin)
  const { page } = adminPage
  await gotoHydrated(page, '/admin/music')
  const panel = page.getByRole('region', { name: 'Adverts & Promotions' })
  const list = panel.getByRole('list', { name: 'Promotions' })
  await list.getByText('Vibes Premium', { exact: true }).waitFor()

  await panel.getByRole('button', { name: 'Add Promotion' }).click()
  const form = panel.getByRole('form', { name: 'New promotion' })
  await form.getByLabel('Title').fill('Night Market')
  await form.getByLabel('Description').fill('Street food and vinyl every Saturday.')
  await form.getByLabel('Link').fill('/about')
  await form.getByLabel('Background colour').fill('#1e3a8a')
  await form.getByRole('button', { name: 'Add Promotion' }).click()
  await list.getByText('Night Market', { exact: true }).waitFor()
  await form.waitFor({ state: 'detached' })

  for (const title of ['Vibes Premium', 'Live Sessions Weekly', 'Top of the Charts', 'Studio Headphones Sale']) {
    const item = list.getByRole('listitem').filter({ hasText: title })
    expect(await item.getByRole('switch', { name: `Show ${title}` }).isChecked()).toBe(true)
    await item.locator('[data-scope=switch][data-part=control]').click()
    // Saved and read back: the switch shows the stored state.
    await item.locator('[data-scope=switch][data-part=root][data-state=unchecked]').waitFor()
  }
  const settings = panel.getByRole('form', { name: 'Advert settings' })
  await settings.getByLabel('Chance at a track end (%)').fill('100')
  await settings.getByRole('button', { name: 'Save Settings' }).click()
  await page.getByText('Adverts play at 100% of track ends.').waitFor()
  await page.screenshot({ path: path.join(SHOTS, 'admin-adverts-1280.png'), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await panel.scrollIntoViewIfNeeded()
  await page.screenshot({ path: path.join(SHOTS, 'admin-adverts-390.png'), fullPage: true })
  expect(adminPage.consoleErrors).toEqual([])
  await adminPage.context.close()

  // A visitor: the grid and the advert show the admin's promotion, at the admin's chance.
  const visitor = await newPage(browser, server.url)
  await gotoHydrated(visitor.page, '/')
  const grid = visitor.page.getByRole('region', { name: 'Featured Promotions' })
  expect(await grid.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Night Market'])
  await visitor.page.getByTestId('folder-input').setInputFiles(two)
  await expectTitle(visitor.page, 'First')
  await playsPast(visitor.page, 0.2)
  await visitor.page.getByRole('slider', { name: 'Seek' }).fill('2.7')
  const dialog = visitor.page.getByRole('dialog')
  await dialog.waitFor()
  expect(await dialog.getByRole('heading', { name: 'Night Market' }).count()).toBe(1)
  await dialog.getByRole('button', { name: 'Close advertisement' }).click()
  await expectTitle(visitor.page, 'Second')
  expect(visitor.consoleErrors).toEqual([])
  await visitor.context.close()
})

test('with adverts off, a track end goes straight to the next track', async () => {
  expect((await api(server.url, 'PUT', '/admin/adverts', { token: admin, body: { enabled: false, chancePercent: 100 } })).status).toBe(200)
  const { page, context } = await newPage(browser, server.url)
  await gotoHydrated(page, '/')
  await page.getByTestId('folder-input').setInputFiles(two)
  await expectTitle(page, 'First')
  await playsPast(page, 0.2)
  await page.getByRole('slider', { name: 'Seek' }).fill('2.7')
  await expectTitle(page, 'Second')
  await playsPast(page, 0.2)
  expect(await page.getByRole('dialog').count()).toBe(0)
  await context.close()
})
