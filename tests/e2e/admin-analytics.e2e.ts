// The admin's dashboard, System Statistics, Insights and Listening Analytics in Debian's Chromium
// against the built server, with real records made through the API (plays with devices and
// places behind TRUST_PROXY, page hits, contact messages).
// SCREENSHOT_DIR=/some/dir also saves each screen at 1280 and 390 px wide.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { ADMIN, adminEnv, api, createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

async function play(token: string, headers: Record<string, string>, body: Record<string, unknown>, update: Record<string, unknown>) {
  const created = await api(server.url, 'POST', '/playlist/plays', { token, headers, body })
  if (created.status !== 201) throw new Error(JSON.stringify(created.body))
  const id = created.body.data.playEventId as string
  await api(server.url, 'PUT', `/playlist/plays/${id}`, { token, headers, body: update })
  return id
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ ...adminEnv, TRUST_PROXY: 'true' }), launchBrowser()])
  const ann = await createMember(server.url, { username: 'ann' })
  const ben = await createMember(server.url, { username: 'ben' })
  const us = { 'user-agent': DESKTOP, 'cf-ipcountry': 'US', 'cf-region': 'California', 'cf-ipcity': 'Los Angeles' }
  const gb = { 'user-agent': PHONE, 'cf-ipcountry': 'GB', 'cf-region': 'England', 'cf-ipcity': 'London' }
  await play(
    ann.token,
    us,
    { trackUrl: 'https://nas.example.com/a.mp3', title: 'Blue in Green', duration: 200, genre: 'Jazz', source: 'playlist', playlistId: 'pl-aaaaaaaa-1111' },
    { listenDuration: 200, completed: true, liked: true },
  )
  await play(
    ann.token,
    us,
    { trackUrl: 'https://nas.example.com/b.mp3', title: 'So What', duration: 100, genre: 'Jazz', source: 'playlist', playlistId: 'pl-aaaaaaaa-1111' },
    { listenDuration: 40, skipped: true },
  )
  await play(
    ben.token,
    gb,
    { trackUrl: 'https://nas.example.com/c.mp3', title: 'Paranoid Android', duration: 300, source: 'shuffle' },
    { listenDuration: 300, completed: true, bufferCount: 1 },
  )
  const old = await play(
    ben.token,
    gb,
    { trackUrl: 'https://nas.example.com/c.mp3', title: 'Paranoid Android', duration: 300, source: 'direct' },
    { listenDuration: 30 },
  )
  await sqlOn(server, 'UPDATE play_events SET started_at = ? WHERE id = ?', [Date.now() - 10 * 86_400_000, old])
  for (const page of ['home', 'home', 'charts', 'about']) await api(server.url, 'GET', `/hits/page-hits?page=${page}`, { headers: { 'user-agent': DESKTOP } })
  for (const n of [1, 2, 3])
    await api(server.url, 'POST', '/contact', {
      body: { fullName: `Sender ${n}`, email: `s${n}@example.com`, message: `Hello number ${n}, a question about the folders page.` },
    })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function loginAsAdmin(page: Page) {
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.waitForURL('**/admin')
}

async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR
  if (!dir) return
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.waitForTimeout(150) // let the layout (and the chart's resize) settle before the picture
    await page.screenshot({ path: path.join(dir, `admin-${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Whether a canvas has any painted pixel. */
const canvasPainted = (page: Page) =>
  page
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d')
      if (!ctx || canvas.width === 0 || canvas.height === 0) return false
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true
      return false
    })

describe('admin analytics in the browser', () => {
  test('dashboard: cards with message and user counts, hit analytics, recent activities and health', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    const sidebar = page.getByRole('navigation', { name: 'Admin' })
    await sidebar.getByRole('link', { name: 'Stats' }).waitFor()
    expect(await sidebar.getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Users',
      'Folders',
      'Music',
      'Insights',
      'Listening Analytics',
      'Stats',
      'Messages',
    ])
    const messages = page.getByRole('link', { name: /^Messages/ })
    await messages.getByText('3 total · 0 important').waitFor()
    await messages.getByText('3 new').waitFor()
    await page
      .getByRole('link', { name: /^User Management/ })
      .getByText('3 users · 1 admin', { exact: true })
      .waitFor()
    const hits = page.getByRole('region', { name: 'Hit Analytics · 7 days' })
    // home, charts and about from the API; the browser's own visits (login, admin) add rows of their own.
    for (const name of ['home', 'charts', 'about']) await hits.getByRole('cell', { name, exact: true }).waitFor()
    // Recent Activities: this server's real events, not the three sample lines of old.
    const activities = page.getByRole('region', { name: 'Recent Activities' })
    await activities.getByText('New user registered: ben', { exact: true }).waitFor()
    await activities.getByText('New user registered: ann', { exact: true }).waitFor()
    expect(await page.getByText('System backup completed').count()).toBe(0)
    const health = page.getByRole('region', { name: 'System Health' })
    await health.getByText('Operational').waitFor()
    await health.getByText('Connected').waitFor()
    await screenshot(page, 'dashboard')

    // Clearing hit data asks first, then empties the panel.
    await hits.getByRole('button', { name: 'Clear Hit Data' }).click()
    const dialog = page.getByRole('alertdialog')
    await dialog.getByText('Are you sure you want to clear all hit data? This action cannot be undone.').waitFor()
    await dialog.getByRole('button', { name: 'Clear Hit Data' }).click()
    await page.getByText(/^Cleared \d+ hit records$/).waitFor()
    await hits.getByText('No hits recorded').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('stats: System tab with cards, a drawn Page Views chart and Top Pages; Traffic and Errors tabs', async () => {
    for (const page of ['home', 'home', 'charts']) await api(server.url, 'GET', `/hits/page-hits?page=${page}`, { headers: { 'user-agent': PHONE } })
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Stats' }).click()
    await page.waitForURL('**/admin/stats')
    await page.getByRole('heading', { name: 'System Statistics' }).waitFor()
    expect(await page.getByRole('tab', { name: 'System' }).getAttribute('aria-selected')).toBe('true')
    const active = page.getByRole('region', { name: 'Active Users' })
    await active.getByText('Daily').waitFor()
    expect(await active.getByText('3', { exact: true }).count()).toBe(2) // admin + ann + ben logged in today
    const music = page.getByRole('region', { name: 'Music', exact: true })
    await music.getByText('Total songs').waitFor()
    const views = page.getByRole('region', { name: 'Views' })
    await views.getByText('Unique visitors').waitFor()
    await views.getByText('just now').waitFor()
    const chart = page.getByRole('region', { name: 'Page Views' })
    await chart.getByText('Last 30 days').waitFor()
    await chart.locator('canvas').waitFor()
    await page.waitForFunction(() => {
      const c = document.querySelector('canvas')
      return !!c && c.width > 0 && c.height > 0
    })
    expect(await canvasPainted(page)).toBe(true)
    const topPages = page.getByRole('region', { name: 'Top Pages' })
    await topPages.getByText('Home', { exact: true }).waitFor()
    // The browser's own visits count too (the footer records each page), so only the order is fixed.
    const homeViews = Number(await topPages.getByRole('row').nth(1).getByRole('cell').nth(1).textContent())
    expect(homeViews).toBeGreaterThanOrEqual(2)
    await page.getByRole('region', { name: 'API Performance' }).getByText('Requests / min').waitFor()
    await screenshot(page, 'stats-system')

    await page.getByRole('tab', { name: 'Traffic' }).click()
    const activity = page.getByRole('region', { name: 'User Activity' })
    const today = activity.getByRole('row').nth(1)
    await today.getByText('Today').waitFor()
    // admin, ann and ben joined today; the admin has logged in twice (one per test so far)
    expect(await today.getByRole('cell').allTextContents()).toEqual(['Today', '+3', '4'])
    await page.getByRole('region', { name: 'Daily Active Users' }).getByText('DAU / WAU').waitFor()
    await screenshot(page, 'stats-traffic')

    await page.getByRole('tab', { name: 'Errors' }).click()
    await page.getByRole('tabpanel').getByRole('region', { name: 'Recent Errors' }).getByText('No server errors in the last 24 hours.').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('stats without a stored token asks the admin to log in', async () => {
    const { page, context } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    // The session cookie still says "admin", but the stored token is gone.
    await page.evaluate(() => localStorage.removeItem('token'))
    await gotoHydrated(page, '/admin/stats')
    await page.getByRole('heading', { name: 'Authentication Required' }).waitFor()
    await page.getByText('You need to be logged in as an admin to view system statistics.').waitFor()
    expect(await page.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login?returnUrl=%2Fadmin%2Fstats')
    await context.close()
  })

  test('listening analytics: six tabs switch and show their data; the period changes the figures', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    await gotoHydrated(page, '/admin/listening-analytics')
    await page.getByRole('heading', { name: 'Listening Analytics' }).waitFor()
    expect(await page.getByRole('combobox', { name: 'Period', exact: true }).textContent()).toContain('Last 7 days')
    const panel = page.getByRole('tabpanel')
    await panel.getByText('Total Plays').waitFor()
    await panel.getByText('2 unique users').waitFor()
    await panel.getByRole('region', { name: 'Top Sources' }).getByText('Playlist').waitFor()
    await panel.getByRole('region', { name: 'Top Devices' }).getByText('Desktop').waitFor()
    await screenshot(page, 'listening-overview')

    await page.getByRole('tab', { name: 'User Behavior' }).click()
    const users = page.getByRole('tabpanel').getByRole('region', { name: 'Top Users by Activity' })
    expect(await users.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([expect.stringContaining('ann'), '2', '4m', '50%', '2', '1'])

    await page.getByRole('tab', { name: 'Patterns' }).click()
    const hours = page.getByRole('tabpanel').getByRole('list', { name: 'Plays per hour of the day' })
    await hours.waitFor()
    expect(await hours.getByRole('listitem').count()).toBe(24)
    await page.getByRole('tabpanel').getByRole('region', { name: 'Top Genres' }).getByText('Unknown').waitFor()
    await screenshot(page, 'listening-patterns')

    await page.getByRole('tab', { name: 'Geographic' }).click()
    await page.getByRole('tabpanel').getByRole('region', { name: 'Top Cities' }).getByText('Los Angeles, US').waitFor()
    // DB-IP's licence: the panel that shows its places links to it.
    expect(await page.getByRole('tabpanel').getByRole('link', { name: 'IP Geolocation by DB-IP' }).getAttribute('href')).toBe('https://db-ip.com')
    await screenshot(page, 'listening-geographic')

    await page.getByRole('tab', { name: 'Playlists' }).click()
    const playlists = page.getByRole('tabpanel').getByRole('region', { name: 'Playlist Performance' })
    expect(await playlists.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['pl-aaaaa', '2', '1', '—Not known', '50%', '4m'])

    await page.getByRole('tab', { name: 'Engagement' }).click()
    const engagement = page.getByRole('tabpanel')
    await engagement.getByText('Retention Rate').waitFor()
    await engagement.getByRole('region', { name: 'Quality Metrics' }).getByText('Buffer events').waitFor()
    await screenshot(page, 'listening-engagement')

    // 90 days brings in the play from ten days ago.
    await page.getByRole('tab', { name: 'Overview' }).click()
    await page.getByRole('combobox', { name: 'Period', exact: true }).click()
    await page.getByRole('option', { name: 'Last 90 days' }).click()
    await page.getByRole('tabpanel').getByText('4', { exact: true }).first().waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('insights: cards, bars, engagement and patterns follow the period; the full-analytics link', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Insights' }).click()
    await page.getByRole('heading', { name: 'User Insights' }).waitFor()
    const plays = page.getByText('Total Plays').locator('..')
    await plays.getByText('3', { exact: true }).waitFor()
    await page.getByRole('region', { name: 'Traffic Sources' }).getByText('Shuffle').waitFor()
    await page.getByRole('region', { name: 'Device Types' }).getByText('Mobile').waitFor()
    // A bar's label, count and share are three words to a screen reader ("Desktop 2 66.7%"), not one.
    expect(await page.getByRole('region', { name: 'Device Types' }).getByRole('listitem').first().textContent()).toMatch(/^[A-Za-z]+ \d+ \d+(\.\d)?%$/)
    await page.getByRole('region', { name: 'User Engagement' }).getByText('Retention rate').waitFor()
    await page.getByRole('region', { name: 'Listening Patterns' }).getByText('Jazz').waitFor()
    await page.getByRole('region', { name: 'Top Tracks' }).getByText('Blue in Green').waitFor()
    await page.getByRole('region', { name: 'User Activity' }).getByText('Today').waitFor()
    await screenshot(page, 'insights')

    await page.getByRole('combobox', { name: 'Period', exact: true }).click()
    await page.getByRole('option', { name: 'Last 2 weeks' }).click()
    await plays.getByText('4', { exact: true }).waitFor()

    await page.getByRole('link', { name: 'View Full Analytics' }).click()
    await page.waitForURL('**/admin/listening-analytics')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('music: the same screen on /admin/music and /music, with an empty library it says so (no sample songs)', async () => {
    const { page, context } = await newPage(browser, server.url)
    await loginAsAdmin(page)
    for (const p of ['/admin/music', '/music']) {
      await gotoHydrated(page, p)
      await page.getByRole('heading', { name: 'Music Management' }).waitFor()
      await page.getByRole('region', { name: 'Songs' }).getByText('No songs yet').waitFor()
      for (const sample of ['Summer Vibes', 'Blinding Lights', 'Upload Songs']) expect(await page.getByText(sample).count()).toBe(0)
    }
    await screenshot(page, 'music')
    await context.close()
  })
})
