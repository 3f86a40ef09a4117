// Every screen of the app under its real Content-Security-Policy in Debian's Chromium: the app
// runs with no CSP violation. Public pages, the member's player and folders, every admin screen; along the way a dialog or two, client-side navigation (chunks
// loaded by import()), chart artwork from an http feed, and playback from each source the policy
// has to allow: a signed /media URL, a remote http folder, and local files (blob: media and cover).
// A screen fails on any `securitypolicyviolation` event, any console message about the policy,
// and any console error or uncaught exception.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { gotoHydrated, launchBrowser } from '../helpers/browser'
import { startPython, type ListingServer } from '../helpers/listing-servers'
import { ffmpeg, makeTone } from '../helpers/media'
import { clip, expectTitle, playsPast, setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let listing: ListingServer
let feed: ReturnType<typeof Bun.serve>
let served: string

beforeAll(async () => {
  served = mkdtempSync(path.join(tmpdir(), 'vibes-csp-'))
  makeTone(path.join(served, 'remote', '01 Remote Tone.mp3'), { seconds: 15 })
  mkdirSync(path.join(served, 'device', 'Clips'), { recursive: true })
  clip(path.join(served, 'device', 'Clips', '01 Test Card.mp4'), 6)
  makeTone(path.join(served, 'device', 'Covers', '01 Cover Song.mp3'), { title: 'Cover Song', artist: 'Painter', cover: true, seconds: 10 })
  mkdirSync(path.join(served, 'art'))
  ffmpeg('-f', 'lavfi', '-i', 'color=c=orange:s=100x100', '-frames:v', '1', path.join(served, 'art', 'art.png'))
  const artwork = readFileSync(path.join(served, 'art', 'art.png'))

  // The upstream chart feed, on plain http: its artwork comes from the feed's own origin.
  feed = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      if (url.pathname === '/art.png') return new Response(new Uint8Array(artwork), { headers: { 'content-type': 'image/png' } })
      const results = [1, 2, 3].map((n) => ({
        name: `Feed Song ${n}`,
        artistName: 'Feed Artist',
        artworkUrl100: `${url.origin}/art.png?n=${n}`,
        contentAdvisoryRating: n === 1 ? 'Explicit' : undefined,
      }))
      return Response.json({ feed: { updated: new Date().toISOString(), results } })
    },
  })
  ;[server, listing, browser] = await Promise.all([
    startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: '127.0.0.1', CHARTS_SOURCE_URL: `http://127.0.0.1:${feed.port}/{region}/songs.json` }),
    startPython(served, '127.0.0.1'),
    launchBrowser(),
  ])
  mkdirSync(path.join(server.mediaRoot, 'library'))
  makeTone(path.join(server.mediaRoot, 'library', '01 Library Tone.mp3'), { title: 'Library Tone', artist: 'Drone Unit', cover: true, seconds: 15 })
  tone(path.join(server.mediaRoot, 'library', '02 Second Tone.mp3'), 10, { title: 'Second Tone' })
  // Indexed once written: the start-up scan may have walked while ffmpeg was still writing (decision 099).
  await scanLibraryNow(server.url, await loginAdmin(server.url))
})

afterAll(async () => {
  await browser?.close()
  await listing?.stop()
  await server?.stop()
  feed?.stop(true)
  rmSync(served, { recursive: true, force: true })
})

type Problems = string[]

/** A fresh context whose pages report every CSP violation, CSP console message and console error. */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; problems: () => Promise<Problems> }> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })
  await context.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __cspViolations: string[] }).__cspViolations = [])
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
    )
  })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  await setAdChance(page, 0)
  const consoleProblems: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content.Security.Policy|Permissions.Policy/i.test(msg.text())) consoleProblems.push(`console ${msg.type()}: ${msg.text()}`)
  })
  page.on('pageerror', (err) => consoleProblems.push(`page error: ${err}`))
  // A page without its policy would pass everything above without proving anything.
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document') return
    const policy = response.headers()['content-security-policy'] ?? ''
    if (!/script-src [^;]*'nonce-/.test(policy)) consoleProblems.push(`no nonce-based Content-Security-Policy on ${response.url()}`)
  })
  const problems = async () => {
    // Violations are reported asynchronously; let the last ones arrive.
    await page.waitForTimeout(300)
    const violations = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []).catch(() => [] as string[])
    return [...violations, ...consoleProblems.splice(0)]
  }
  return { context, page, problems }
}

/** Opens each path (a full page load each), lets it settle and collects what went wrong. */
async function walk(page: Page, problems: () => Promise<Problems>, paths: string[], settle?: (path: string) => Promise<void>) {
  const found: Record<string, Problems> = {}
  for (const p of paths) {
    await gotoHydrated(page, p)
    await page.waitForLoadState('networkidle')
    await settle?.(p)
    const list = await problems()
    if (list.length) found[p] = list
  }
  return found
}

async function login(page: Page, email: string, password: string) {
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
}

describe('public screens', () => {
  test('every public page loads, hydrates and navigates without a violation', async () => {
    const { context, page, problems } = await watchedPage()
    const found = await walk(
      page,
      problems,
      ['/', '/about', '/charts', '/contact', '/login', '/register', '/forgot-password', '/reset-password/not-a-real-token'],
      async (p) => {
        if (p === '/charts') {
          // The artwork is on the feed's http origin, which the policy names.
          const art = page.locator('img[src*="/art.png"]').first()
          await art.waitFor()
          await page.waitForFunction(() =>
            [...document.querySelectorAll<HTMLImageElement>('img[src*="/art.png"]')].some((img) => img.complete && img.naturalWidth > 0),
          )
        }
      },
    )
    // Client-side navigation loads route chunks through import() from the nonced entry script.
    await gotoHydrated(page, '/')
    for (const name of ['About', 'Charts', 'Contact']) {
      await page.getByRole('link', { name, exact: true }).first().click()
      await page.waitForURL(`**/${name.toLowerCase()}`)
      await page.waitForLoadState('networkidle')
    }
    const navigation = await problems()
    if (navigation.length) found['client-side navigation'] = navigation
    expect(found).toEqual({})
    await context.close()
  })

  test('local files play as blob: media with their cover art; video goes fullscreen', async () => {
    const { context, page, problems } = await watchedPage()
    await gotoHydrated(page, '/')
    await page.getByTestId('folder-input').setInputFiles(path.join(served, 'device', 'Covers'))
    await expectTitle(page, 'Cover Song')
    await playsPast(page, 0.3)
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img[src^="blob:"]')].some((img) => img.complete && img.naturalWidth > 0))
    await page.getByTestId('folder-input').setInputFiles(path.join(served, 'device', 'Clips'))
    await expectTitle(page, '01 Test Card')
    await playsPast(page, 0.3)
    // Permissions-Policy keeps fullscreen for our own pages.
    await page.getByRole('button', { name: 'Fullscreen' }).click()
    await page.waitForFunction(() => document.fullscreenElement !== null)
    await page.evaluate(() => document.exitFullscreen())
    expect(await problems()).toEqual([])
    await context.close()
  })
})

describe('member screens', () => {
  test('player (library and remote folder), folders, a dialog and the library run without a violation', async () => {
    const m = await createMember(server.url)
    const folder = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Drones', path: '/library' } })
    expect(folder.status).toBe(201)
    const { context, page, problems } = await watchedPage()
    await login(page, m.email, m.password)
    await page.waitForURL(`${server.url}/`)
    const found: Record<string, Problems> = {}

    // A signed /media URL from the server library, with its cover from /media?cover=1.
    await gotoHydrated(page, `/player?fid=${folder.body.data.id}`)
    await expectTitle(page, 'Library Tone')
    await playsPast(page, 0.3)
    await page
      .getByRole('list', { name: 'Track list' })
      .getByRole('button', { name: /Second Tone/ })
      .click()
    await expectTitle(page, 'Second Tone')
    found['/player'] = await problems()

    // A remote folder: the browser streams the http URL straight into <audio>.
    await gotoHydrated(page, '/')
    await page.getByRole('tab', { name: 'Remote URL' }).click()
    await page.getByLabel('Remote Folder URL').fill(`${listing.url}/remote/`)
    await page.getByRole('button', { name: 'Load Remote Playlist' }).click()
    await expectTitle(page, '01 Remote Tone')
    await playsPast(page, 0.3)
    found['/ (remote folder)'] = await problems()

    await gotoHydrated(page, '/folders')
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    await page.getByRole('dialog').waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'hidden' })
    found['/folders'] = await problems()

    // The server library: its albums (a signed cover from the index), an album page, the search box.
    const adminToken = (await api(server.url, 'POST', '/auth/login', { body: ADMIN })).body.data.token
    expect((await api(server.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
    for (let tries = 0; ; tries++) {
      const status = (await api(server.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data
      if (!status.scanning && status.tracks >= 2) break
      if (tries > 100) throw new Error(`the library scan never finished: ${JSON.stringify(status)}`)
      await Bun.sleep(200)
    }
    await gotoHydrated(page, '/library')
    await page.getByRole('combobox', { name: 'Search library' }).pressSequentially('tone')
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link').first().click()
    await page.getByRole('button', { name: 'Add to queue' }).waitFor()
    found['/library'] = await problems()

    expect(Object.fromEntries(Object.entries(found).filter(([, list]) => list.length))).toEqual({})
    await context.close()
  })
})

describe('admin screens', () => {
  test('every admin screen, its tabs and a dialog run without a violation', async () => {
    const member = await createMember(server.url)
    await api(server.url, 'POST', '/contact', {
      body: { fullName: 'Csp Sender', email: 'csp@example.com', message: 'Hello admin, a question about the player.' },
    })
    const { context, page, problems } = await watchedPage()
    await login(page, ADMIN.email, ADMIN.password)
    await page.waitForURL('**/admin')
    const screens = [
      '/admin',
      '/admin/dashboard',
      '/admin/users',
      '/admin/folders',
      '/admin/messages',
      '/admin/music',
      '/music',
      '/admin/stats',
      '/admin/insights',
      '/admin/listening-analytics',
    ]
    const found = await walk(page, problems, screens, async (p) => {
      if (p === '/admin/stats') {
        for (const tab of ['Traffic', 'Errors', 'System']) await page.getByRole('tab', { name: tab }).click()
        await page.locator('canvas').first().waitFor()
      }
      if (p === '/admin/users') {
        // A confirmation dialog (Ark's portal, focus trap and scroll lock).
        await page.getByRole('button', { name: `Delete ${member.username}` }).click()
        await page.getByRole('alertdialog').or(page.getByRole('dialog')).first().waitFor()
        await page.keyboard.press('Escape')
      }
      if (p === '/admin/messages') await page.getByText('Csp Sender').first().click()
      if (p === '/admin/dashboard') {
        // The admin's health panel still gets the host figures the public check no longer carries.
        const health = page.getByRole('region', { name: 'System Health' })
        await health.getByText('Operational').waitFor()
        await health.getByText(/^\d+(\.\d+)? MB$/).waitFor()
      }
    })
    expect(found).toEqual({})
    await context.close()
  })
})
