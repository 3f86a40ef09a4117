// The dashboard's Library panel in Debian's Chromium against the built server (the scan
// runs on demand from the admin console): after a scan of a small ffmpeg-made library the admin
// sees its counts and when it was scanned, and "Scan library" shows its progress and picks up a
// file copied in since. A screenshot of the scanning panel goes to $TMPDIR/vibes-admin-shots.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Locator, Route } from 'playwright-core'
import { adminEnv, api, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let admin: string

async function scanAndWait(tracks: number) {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  const deadline = Date.now() + 30_000
  for (;;) {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    if (!status.body.data.scanning && status.body.data.tracks === tracks) return
    if (Date.now() > deadline) throw new Error(`the scan never indexed ${tracks} tracks: ${JSON.stringify(status.body)}`)
    await Bun.sleep(200)
  }
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(adminEnv), launchBrowser()])
  admin = await loginAdmin(server.url)
  makeTone(path.join(server.mediaRoot, 'Alpha', 'One', '01 First.mp3'), { title: 'First', artist: 'Alpha', album: 'One', seconds: 1 })
  makeTone(path.join(server.mediaRoot, 'Alpha', 'One', '02 Second.mp3'), { title: 'Second', artist: 'Alpha', album: 'One', seconds: 1 })
  makeTone(path.join(server.mediaRoot, 'Beta', 'Two', '01 Third.mp3'), { title: 'Third', artist: 'Beta', album: 'Two', seconds: 1 })
  await scanAndWait(3)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The figure shown under a Stat's label. */
const stat = (panel: Locator, label: string) => panel.getByText(label, { exact: true }).locator('xpath=following-sibling::span[1]')

test('the admin sees the library counts and last scan, and "Scan library" indexes a newly copied file', async () => {
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await context.addInitScript((t) => localStorage.setItem('token', t), admin)
  await gotoHydrated(page, '/admin/dashboard')
  const panel = page.getByRole('region', { name: 'Library', exact: true })
  await expect(stat(panel, 'Tracks').textContent()).resolves.toBe('3')
  expect(await stat(panel, 'Albums').textContent()).toBe('2')
  expect(await stat(panel, 'Artists').textContent()).toBe('2')
  expect(await panel.getByText(/^Last scan /).textContent()).toBe('Last scan just now')

  // Both buttons are comfortable touch targets.
  for (const name of ['Scan library', 'Full rescan']) {
    const box = await panel.getByRole('button', { name }).boundingBox()
    expect(box?.height).toBeGreaterThanOrEqual(44)
  }

  mkdirSync(path.join(server.mediaRoot, 'Gamma', 'Three'), { recursive: true })
  copyFileSync(path.join(server.mediaRoot, 'Beta', 'Two', '01 Third.mp3'), path.join(server.mediaRoot, 'Gamma', 'Three', '01 Copy.mp3'))
  // Status answers are held back so the running scan's state stays on screen to look at.
  const held: Route[] = []
  const isStatus = (url: URL) => url.pathname.startsWith('/api/trpc/') && url.pathname.includes('library.scan.status')
  await page.route(isStatus, (route) => void held.push(route))
  await panel.getByRole('button', { name: 'Scan library' }).click()
  const bar = panel.getByRole('progressbar', { name: 'Library scan' })
  await bar.waitFor()
  expect(await bar.getAttribute('aria-valuemin')).toBe('0')
  await panel.getByText(/^Scanning…/).waitFor()
  expect(await panel.getByRole('button', { name: 'Scan library' }).isDisabled()).toBe(true)
  expect(await panel.getByRole('button', { name: 'Full rescan' }).isDisabled()).toBe(true)
  const shots = path.join(tmpdir(), 'vibes-admin-shots')
  mkdirSync(shots, { recursive: true })
  await panel.screenshot({ path: path.join(shots, 'dashboard-library-scanning.png') })
  await page.unroute(isStatus)
  for (const route of held.splice(0)) await route.continue()
  // The panel polls while the scan runs and shows the new count once it ends.
  await page.waitForFunction(
    () => {
      const region = [...document.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === 'Library')
      const label = [...(region?.querySelectorAll('span') ?? [])].find((s) => s.textContent === 'Tracks')
      return label?.nextElementSibling?.textContent === '4'
    },
    undefined,
    { timeout: 30_000 },
  )
  expect(await panel.getByRole('progressbar').count()).toBe(0)
  expect(await panel.getByRole('button', { name: 'Scan library' }).isEnabled()).toBe(true)
  expect(consoleErrors).toEqual([])
  await context.close()
})

test('Music Management on /admin/music and /music shows the real library, and its Play buttons play', async () => {
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await context.addInitScript((t) => localStorage.setItem('token', t), admin)
  for (const p of ['/music', '/admin/music']) {
    await gotoHydrated(page, p)
    await page.getByRole('heading', { name: 'Music Management' }).waitFor()
    const albums = page.getByRole('region', { name: 'Recently added albums' })
    for (const name of ['One', 'Two']) await albums.getByRole('link', { name, exact: true }).waitFor()
    const songs = page.getByRole('region', { name: 'Songs' })
    for (const title of ['First', 'Second', 'Third']) await songs.getByRole('cell', { name: title, exact: true }).first().waitFor()
    await page.getByRole('region', { name: 'Library', exact: true }).getByRole('button', { name: 'Scan library' }).waitFor()
    for (const sample of ['Summer Vibes', 'Blinding Lights', 'Upload Songs']) expect(await page.getByText(sample).count()).toBe(0)
  }
  await page.getByRole('region', { name: 'Songs' }).getByRole('button', { name: 'Play Second' }).click()
  await page.getByRole('region', { name: 'Now playing' }).getByText('Second').waitFor()
  await page.getByRole('region', { name: 'Recently added albums' }).getByRole('button', { name: 'Play Two' }).click()
  await page.getByRole('region', { name: 'Now playing' }).getByText('Third').waitFor()
  const shots = process.env.SCREENSHOT_DIR
  if (shots) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.waitForTimeout(150)
      await page.screenshot({ path: path.join(shots, `admin-music-${width}.png`), fullPage: true })
    }
  }
  expect(consoleErrors).toEqual([])
  await context.close()
})

test('hostile names in Recent Activities are shown as text, never run', async () => {
  const markup = '<img src=x onerror="window.__pwned=1">'
  expect(
    (await api(server.url, 'POST', '/contact', { body: { fullName: 'Mallory <b>bold</b>', email: 'mallory@example.com', message: `${markup} hello` } })).status,
  ).toBe(201)
  mkdirSync(path.join(server.mediaRoot, 'Alpha', 'Evil'), { recursive: true })
  const me = (await api(server.url, 'GET', '/auth/session', { token: admin })).body.data.user.id
  expect(
    (await api(server.url, 'POST', `/admin/users/${me}/folders`, { token: admin, body: { label: '<script>window.__pwned=2</script>', path: '/Alpha/Evil' } }))
      .status,
  ).toBe(201)
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await context.addInitScript((t) => localStorage.setItem('token', t), admin)
  await gotoHydrated(page, '/admin/dashboard')
  const activities = page.getByRole('region', { name: 'Recent Activities' })
  await activities.getByText(`Message from Mallory <b>bold</b>: ${markup} hello`, { exact: true }).waitFor()
  await activities.getByText('Folder "<script>window.__pwned=2</script>" added for admin', { exact: true }).waitFor()
  expect(await activities.locator('img, script, b').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  expect(consoleErrors).toEqual([])
  await context.close()
})

test('axe finds no serious or critical violation on Music Management and the dashboard at 1280 and 390 px', async () => {
  const axeSource = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
  const report: string[] = []
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    const { page, context } = await newPage(browser, server.url)
    await page.setViewportSize(viewport)
    await context.addInitScript((t) => localStorage.setItem('token', t), admin)
    for (const [where, ready] of [
      ['/admin/music', 'Recently added albums'],
      ['/admin/dashboard', 'Recent Activities'],
    ] as const) {
      await gotoHydrated(page, where)
      await page
        .getByRole('region', { name: ready })
        .getByRole(where === '/admin/music' ? 'link' : 'listitem')
        .first()
        .waitFor()
      await page.evaluate(axeSource)
      const found = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: any[] }> } }).axe
        const { violations } = await axe.run(document, { resultTypes: ['violations'] })
        return violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${(v.nodes as { target: unknown[] }[]).map((n) => n.target.join(' ')).join(', ')}`)
      })
      for (const f of found) report.push(`${viewport.width} ${where}: ${f}`)
    }
    await context.close()
  }
  expect(report).toEqual([])
})
