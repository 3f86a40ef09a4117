// The installable app in Debian's Chromium: the manifest and service worker are valid and Chromium
// finds nothing in the way of installing; a page that cannot be fetched shows the offline page; an
// album downloaded for offline plays in the one player with the network cut, and that play reaches
// the server once the network is back (the queue survives a reload while offline); the app opened
// with no network (a new page, at / or at a member's address) shows the downloads page and plays
// from it, while a visitor with no downloads gets the offline page; the API is never answered from
// a cache, and the one page kept is the anonymous render; signing out deletes the downloads.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, launchPersistent, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { playsPast, readRows, setAdChance, waitForRow } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const TITLES = ['First Light', 'Second Wind', 'Third Eye']
const SHOTS = process.env.VIBES_SCREENSHOTS
let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of TITLES.entries())
    makeTone(path.join(server.mediaRoot, 'Low Sun', 'Night Drive', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Low Sun',
      album: 'Night Drive',
      seconds: 20,
      frequency: 330 + i * 110,
      metadata: { track: String(i + 1) },
    })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** Waits until the service worker controls the page (it claims open pages when it activates). */
const controlled = (page: Page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 })

/** A member's page with the service worker allowed, on the album, controlled by the worker. */
async function memberOnAlbum(viewport?: { width: number; height: number }) {
  const m = await createMember(server.url)
  const opened = await newPage(browser, server.url, { viewport, serviceWorkers: 'allow' })
  await setAdChance(opened.page, 0)
  await opened.context.addInitScript((t) => {
    if (!localStorage.getItem('vibes:test-signed-out')) localStorage.setItem('token', t)
  }, m.token)
  await gotoHydrated(opened.page, '/library?tab=albums')
  await controlled(opened.page)
  await opened.page
    .getByRole('list', { name: 'Albums' })
    .getByRole('link', { name: /Night Drive/ })
    .click()
  await opened.page.getByRole('heading', { level: 1, name: 'Night Drive' }).waitFor()
  return { m, ...opened }
}

async function downloadAlbum(page: Page) {
  await page.getByRole('button', { name: 'Download for offline' }).click()
  await page.getByRole('button', { name: 'Downloaded · Remove download of Night Drive' }).waitFor({ timeout: 20_000 })
}

const cacheNames = (page: Page) => page.evaluate(() => caches.keys())
const storedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname)
    return urls
  })

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')

/** axe-core's serious and critical findings on the page (injected through the DevTools protocol,
 *  which the page's policy does not govern). */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    type Found = { id: string; impact: string; nodes: Array<{ target: unknown[] }> }
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Found[] }> } }).axe
    const { violations } = await axe.run(document, { resultTypes: ['violations'] })
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`) })
}

describe('installing the app', () => {
  test('manifest with loading icons, a worker that controls the page, no installability errors', async () => {
    const { context, page, consoleErrors } = await newPage(browser, server.url, { serviceWorkers: 'allow' })
    await gotoHydrated(page, '/')
    const href = await page.locator('link[rel=manifest]').getAttribute('href')
    expect(href).toBe('/manifest.webmanifest')
    const manifest = await page.evaluate(async (url) => {
      const r = await fetch(url)
      return { type: r.headers.get('content-type'), body: await r.json() }
    }, href!)
    expect(manifest.type).toBe('application/manifest+json')
    expect(manifest.body).toMatchObject({
      name: 'Vibes',
      short_name: 'Vibes',
      display: 'standalone',
      start_url: '/',
      theme_color: '#0b0b12',
      background_color: '#0b0b12',
    })
    // Each icon loads as a PNG of the size it claims; one is maskable.
    const icons = manifest.body.icons as Array<{ src: string; sizes: string; purpose: string }>
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
    for (const icon of icons) {
      const size = await page.evaluate(async (src) => {
        const bitmap = await createImageBitmap(await (await fetch(src)).blob())
        return `${bitmap.width}x${bitmap.height}`
      }, icon.src)
      expect(size).toBe(icon.sizes)
    }

    await controlled(page)
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${server.url}/sw.js`)
    // The shell is stored: the offline page and the build's scripts, nothing else.
    const stored = await storedUrls(page)
    expect(stored).toContain('/offline.html')
    expect(stored.some((u) => u.startsWith('/assets/') && u.endsWith('.js'))).toBe(true)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('Chromium reports nothing in the way of installing it', async () => {
    // A browser profile of its own: Chromium never offers to install from an incognito context.
    const context = await launchPersistent(mkdtempSync(path.join(tmpdir(), 'vibes-pwa-')), server.url)
    const page = await context.newPage()
    await gotoHydrated(page, '/')
    await controlled(page)
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
    expect(installabilityErrors).toEqual([])
    const { url, errors } = await cdp.send('Page.getAppManifest')
    expect(url).toBe(`${server.url}/manifest.webmanifest`)
    expect(errors).toEqual([])
    await context.close()
  })

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])
    test(`a page that cannot be fetched shows the offline page (${viewport.width} px)`, async () => {
      const { context, page } = await newPage(browser, server.url, { viewport, serviceWorkers: 'allow' })
      await gotoHydrated(page, '/')
      await controlled(page)
      await context.setOffline(true)
      await page.goto('/library')
      await page.getByRole('heading', { level: 1, name: "You're offline" }).waitFor()
      expect(page.url()).toBe(`${server.url}/library`)
      await shot(page, `offline-page-${viewport.width}`)
      expect(await axeFindings(page)).toEqual([])
      // Back online, "Try again" loads the page asked for.
      await context.setOffline(false)
      await page.getByRole('link', { name: 'Try again' }).click()
      await page.getByRole('heading', { level: 1, name: "You're offline" }).waitFor({ state: 'detached' })
      await context.close()
    })
})

describe('downloads for offline', () => {
  test('a downloaded album plays with the network cut; the play is recorded once back online, even after a reload offline', async () => {
    const { m, context, page, consoleErrors } = await memberOnAlbum({ width: 1280, height: 800 })
    await downloadAlbum(page)
    await shot(page, 'album-downloaded-1280')
    await context.setOffline(true)
    const wentOffline = Date.now()
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await page.waitForFunction(() =>
      decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('/01 First Light.mp3'),
    )
    await playsPast(page, 1)
    const t1 = await page.evaluate(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime)
    await playsPast(page, t1 + 1.5)
    // A seek asks the worker for a byte range of the stored file.
    await page.evaluate(() => {
      ;(document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime = 15
    })
    await playsPast(page, 16)
    // Nothing reached the server while offline.
    const mine = () => readRows(server, 'SELECT title, listen_duration FROM play_events WHERE user_id = ?', m.user.id)
    expect(await mine()).toEqual([])

    // A reload with no network: the downloads page, and the queued play is still stored.
    await page.reload()
    await page.getByRole('heading', { level: 1, name: 'Downloads' }).waitFor()
    type Queued = { kind: string; event?: { title: string }; update?: { listenDuration?: number } }
    const queued = await page.evaluate(() => JSON.parse(localStorage.getItem('vibes:event-queue') ?? '[]') as Queued[])
    const first = queued.find((i) => i.kind === 'play' && i.event?.title === 'First Light')
    expect(first?.update?.listenDuration ?? 0, JSON.stringify(queued)).toBeGreaterThan(1)

    // Back online, the open downloads page sends the queue itself (on the browser's online event).
    const backOnline = Date.now()
    await context.setOffline(false)
    const row = await waitForRow<{ title: string; listen_duration: number; started_at: number }>(
      server,
      'SELECT title, listen_duration, started_at FROM play_events WHERE user_id = ? AND title = ?',
      [m.user.id, 'First Light'],
      // The play is created, then its listening time sent: wait for both.
      (r) => (r?.listen_duration ?? 0) > 0,
      20_000,
    )
    expect(row.listen_duration).toBeGreaterThan(1)
    // Recorded at the time it was played, not when it was sent.
    expect(row.started_at).toBeGreaterThanOrEqual(wentOffline)
    expect(row.started_at).toBeLessThan(backOnline)
    expect(await mine()).toHaveLength(1)
    expect(consoleErrors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([])
    await context.close()
  }, 120_000)

  test('the API is never answered from a cache: offline, a member data request fails', async () => {
    const { context, page } = await memberOnAlbum()
    await downloadAlbum(page)
    // Member data was fetched online (the album, the session): only the shell and the member's own
    // downloaded files are in any cache, no API answer and no page.
    const shellFiles = ['/offline.html', '/downloads', '/manifest.webmanifest', '/favicon.svg']
    const stored = await storedUrls(page)
    expect(stored.filter((u) => !/^\/(assets|media|icons)\//.test(u) && !shellFiles.includes(u))).toEqual([])
    expect(stored.filter((u) => u.startsWith('/media/')).length).toBe(TITLES.length)
    await context.setOffline(true)
    const answers = await page.evaluate(async () => {
      const tryFetch = (url: string) =>
        fetch(url, { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } }).then(
          (r) => `answered ${r.status}`,
          () => 'failed',
        )
      return Promise.all(['/api/trpc/auth.status', '/api/user/folders', '/rest/ping.view?f=json'].map(tryFetch))
    })
    expect(answers).toEqual(['failed', 'failed', 'failed'])
    // A member page asked for offline is never a stored copy of the page: it is the downloads page.
    await page.goto('/profile')
    await page.getByRole('heading', { level: 1, name: 'Downloads' }).waitFor()
    expect(page.url()).toBe(`${server.url}/downloads`)
    expect(await page.getByRole('heading', { name: 'Profile Settings' }).count()).toBe(0)
    await context.close()
  })

  test("a playlist downloads too, sharing the album's files; the profile shows used and limit; signing out deletes the downloads", async () => {
    const { m, context, page } = await memberOnAlbum({ width: 390, height: 844 })
    await shot(page, 'album-download-390')
    await downloadAlbum(page)
    await shot(page, 'album-downloaded-390')
    expect(await axeFindings(page)).toEqual([])
    const usedAfterAlbum = await page.evaluate(() => JSON.parse(localStorage.getItem('vibes:user:downloads') ?? '{}').sizes as Record<string, number>)

    const trackUrls = TITLES.slice(0, 2).map((t, i) => `/media/Low%20Sun/Night%20Drive/0${i + 1}%20${encodeURIComponent(t)}.mp3`)
    const made = await api(server.url, 'POST', '/user/playlists', { token: m.token, body: { name: 'Road Mix', trackUrls } })
    expect(made.status).toBe(201)
    await gotoHydrated(page, `/playlists/${made.body.data.id}`)
    await page.getByRole('button', { name: 'Download for offline' }).click()
    await page.getByRole('button', { name: 'Downloaded · Remove download of Road Mix' }).waitFor({ timeout: 20_000 })
    // Its files were already stored with the album: nothing more is kept.
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('vibes:user:downloads') ?? '{}').sizes)).toEqual(usedAfterAlbum)

    await gotoHydrated(page, '/profile')
    const section = page.getByRole('region', { name: 'Downloads on this device' })
    const list = section.getByRole('list', { name: 'Downloads' })
    await list.getByText('Night Drive').waitFor()
    await list.getByText('Road Mix').waitFor()
    expect(await section.getByTestId('downloads-usage').textContent()).toMatch(/^0\.\d MB of 1 GB used$/)
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'profile-downloads-390')
    await page.setViewportSize({ width: 1280, height: 800 })
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'profile-downloads-1280')
    expect(await axeFindings(page)).toEqual([])
    expect(await cacheNames(page)).toContain('vibes-downloads')
    // Removing the album keeps the two files the playlist holds.
    await section.getByRole('button', { name: 'Remove download of Night Drive' }).click()
    await list.getByText('Night Drive').waitFor({ state: 'detached' })
    expect((await storedUrls(page)).filter((u) => u.startsWith('/media/')).sort()).toEqual(trackUrls)

    await signOut(page)
    await page.waitForFunction(async () => !(await caches.has('vibes-downloads')) && localStorage.getItem('vibes:user:downloads') === null)
    // Nothing of the member's music is left to play offline.
    await context.setOffline(true)
    const offline = await page.evaluate(async () => {
      const r = await fetch('/media/Low%20Sun/Night%20Drive/01%20First%20Light.mp3').then(
        (x) => x.status,
        () => 'failed',
      )
      return r
    })
    expect(offline).toBe('failed')
    await context.close()
  })
})

describe('opening the app with no network', () => {
  test('a new page at / or at a member address shows the downloads and plays them; the play reaches the server once back online', async () => {
    const { m, context, page: first } = await memberOnAlbum({ width: 1280, height: 800 })
    const albumPath = new URL(first.url()).pathname
    await downloadAlbum(first)
    // The page the worker keeps is the anonymous render: the same for everyone, no member data.
    const kept = await first.evaluate(async () => {
      for (const name of await caches.keys()) {
        const r = await (await caches.open(name)).match('/downloads')
        if (r) return r.text()
      }
      return null
    })
    expect(kept).toContain('Downloads')
    expect(kept).not.toContain(m.user.email)
    expect(kept).not.toContain(m.user.username)
    expect(kept).not.toContain(m.user.id)
    await first.close()

    await context.setOffline(true)
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text())
    })
    page.on('pageerror', (err) => consoleErrors.push(String(err)))
    await setAdChance(page, 0)
    await gotoHydrated(page, '/')
    expect(page.url()).toBe(`${server.url}/downloads`)
    await page.getByRole('heading', { level: 1, name: 'Downloads' }).waitFor()
    await page.getByRole('status').getByText('You are offline').waitFor()
    const album = page.getByRole('region', { name: 'Night Drive' })
    await album.getByText('Album · 3 songs').waitFor()
    const tracks = album.getByRole('list', { name: 'Tracks of Night Drive' }).getByRole('button')
    expect(await tracks.allTextContents()).toEqual(TITLES.map((t, i) => `${i + 1}${t}Low Sun0:20`))
    await shot(page, 'offline-downloads-1280')
    expect(await axeFindings(page)).toEqual([])

    const wentOffline = Date.now()
    await tracks.filter({ hasText: 'Second Wind' }).click()
    await page.waitForFunction(() =>
      decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('/02 Second Wind.mp3'),
    )
    await playsPast(page, 2)
    await page.setViewportSize({ width: 390, height: 844 })
    await shot(page, 'offline-downloads-390')
    expect(await axeFindings(page)).toEqual([])
    // API calls failing offline stay quiet: the page says it is offline, no error toasts.
    expect(await page.getByText('Network Error').count()).toBe(0)
    expect(await page.getByText('You are offline').count()).toBe(1)
    await page.close()

    // At a member's address the same: sent to the downloads page, which plays.
    const member = await context.newPage()
    await setAdChance(member, 0)
    await gotoHydrated(member, albumPath)
    expect(member.url()).toBe(`${server.url}/downloads`)
    await member.getByRole('button', { name: 'Play Night Drive' }).click()
    await playsPast(member, 1)
    expect(await readRows(server, 'SELECT title FROM play_events WHERE user_id = ?', m.user.id)).toEqual([])

    const backOnline = Date.now()
    await context.setOffline(false)
    const row = await waitForRow<{ listen_duration: number; started_at: number }>(
      server,
      'SELECT listen_duration, started_at FROM play_events WHERE user_id = ? AND title = ?',
      [m.user.id, 'Second Wind'],
      (r) => (r?.listen_duration ?? 0) > 0,
      20_000,
    )
    expect(row.listen_duration).toBeGreaterThan(1)
    expect(row.started_at).toBeGreaterThanOrEqual(wentOffline)
    expect(row.started_at).toBeLessThan(backOnline)
    expect(await readRows(server, 'SELECT id FROM play_events WHERE user_id = ? AND title = ?', m.user.id, 'Second Wind')).toHaveLength(1)
    expect(consoleErrors.filter((e) => !e.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([])
    await context.close()
  }, 150_000)

  test('a visitor and a member with no downloads opening the app offline get the offline page', async () => {
    const { context, page: first } = await newPage(browser, server.url, { serviceWorkers: 'allow' })
    await gotoHydrated(first, '/')
    await controlled(first)
    await first.close()
    await context.setOffline(true)
    const page = await context.newPage()
    await page.goto('/')
    await page.getByRole('heading', { level: 1, name: "You're offline" }).waitFor()
    expect(page.url()).toBe(`${server.url}/`)
    await context.close()

    const member = await memberOnAlbum()
    await member.page.close()
    await member.context.setOffline(true)
    const again = await member.context.newPage()
    await again.goto('/library')
    await again.getByRole('heading', { level: 1, name: "You're offline" }).waitFor()
    expect(again.url()).toBe(`${server.url}/library`)
    await member.context.close()
  })
})

async function signOut(page: Page) {
  // The init script signs the member in on every load: from here on it must not.
  await page.evaluate(() => localStorage.setItem('vibes:test-signed-out', '1'))
  await page.getByRole('button', { name: /^Account menu for/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await page.getByRole('button', { name: /^Account menu for/ }).waitFor({ state: 'detached' })
}
