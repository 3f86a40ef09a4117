// Playlists as a member uses them, in Debian's Chromium on a desktop (1280×800) and a phone
// (390×844): make a playlist on /playlists, add songs from an album's track menu (⋯ → Add to
// playlist…), reorder them with the grip's arrow keys (and, on the desktop, by dragging the
// grip), and play the playlist in the one player (its row marked as playing). The order the page shows is the order the
// server keeps, the phone's controls are 44 px touch targets and axe finds no serious or critical
// violation on either page. SCREENSHOT_DIR=… saves pictures of the pages.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { linkSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const TITLES = ['Dawn', 'Dusk', 'Dark']
/** A long playlist: this many library files (hard links of one tone, then one named Finale). */
const LONG = 2000
let server: TestServer
let browser: Browser
let albumId: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of TITLES.entries())
    makeTone(path.join(server.mediaRoot, 'Sky Trio', 'Hours', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Sky Trio',
      album: 'Hours',
      seconds: 30,
      frequency: 440 + i * 110,
      metadata: { track: String(i + 1) },
    })
  const long = path.join(server.mediaRoot, 'Long')
  mkdirSync(long, { recursive: true })
  makeTone(path.join(long, 'tone.mp3'), { title: 'Tone', artist: 'Many', album: 'Long', seconds: 1 })
  for (let i = 1; i < LONG - 1; i++) linkSync(path.join(long, 'tone.mp3'), path.join(long, `tone ${i}.mp3`))
  makeTone(path.join(long, 'zz finale.mp3'), { title: 'Finale', artist: 'Many', album: 'Long', seconds: 1 })
  const admin = await loginAdmin(server.url)
  await scanLibraryNow(server.url, admin)
  albumId = (await api(server.url, 'GET', '/library/albums', { token: admin })).body.data.albums[0].id
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const songs = (page: Page) => page.getByRole('list', { name: 'Songs' })
/** The titles in the playlist page's order. */
const shownOrder = (page: Page) =>
  songs(page)
    .getByRole('button', { name: /^Move / })
    .evaluateAll((grips) => grips.map((g) => (g.getAttribute('aria-label') ?? '').replace(/^Move /, '')))
async function serverOrder(token: string, id: string): Promise<string[]> {
  const res = await api(server.url, 'GET', `/user/playlists/${id}`, { token })
  return res.body.data.entries.map((e: { title: string }) => e.title)
}
async function expectOrder(page: Page, token: string, id: string, order: string[]) {
  await page.waitForFunction(
    (want) =>
      JSON.stringify(
        [...document.querySelectorAll('ul[aria-label=Songs] [data-drag-handle]')].map((g) => (g.getAttribute('aria-label') ?? '').replace(/^Move /, '')),
      ) === want,
    JSON.stringify(order),
  )
  for (let i = 0; i < 50 && JSON.stringify(await serverOrder(token, id)) !== JSON.stringify(order); i++) await Bun.sleep(100)
  expect(await serverOrder(token, id)).toEqual(order)
}

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
/** axe-core's serious and critical violations on the page as it stands (rule and selectors). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: any[] }> } }).axe
    const { violations } = await axe.run(document, { resultTypes: ['violations'] })
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${(v.nodes as { target: unknown[] }[]).map((n) => n.target.join(' ')).join(', ')}`)
  })
}

async function screenshot(page: Page, name: string, width: number) {
  const dir = process.env.SCREENSHOT_DIR
  if (dir) await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true })
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`${viewport.width}×${viewport.height}`, () => {
    test('create a playlist, add songs from the track menu, reorder, play it', async () => {
      const m = await createMember(server.url)
      const { context, page, consoleErrors } = await newPage(browser, server.url, { viewport })
      await setAdChance(page, 0)
      await context.addInitScript((t) => localStorage.setItem('token', t), m.token)

      await gotoHydrated(page, '/playlists')
      await page.getByRole('heading', { level: 1, name: 'Playlists' }).waitFor()
      await page.getByRole('button', { name: 'New playlist' }).click()
      await page.getByLabel('Playlist name').fill('Night drive')
      await page.getByRole('button', { name: 'Create playlist' }).click()
      await page.getByRole('heading', { level: 1, name: 'Night drive' }).waitFor()
      const id = new URL(page.url()).pathname.split('/').pop()!

      // Add Dusk, Dawn, Dark (in that order) from the album's track menu.
      await page.goto(`/library/albums/${albumId}`)
      await page.getByRole('heading', { level: 1, name: 'Hours' }).waitFor()
      for (const title of ['Dusk', 'Dawn', 'Dark']) {
        await page.getByRole('button', { name: `More actions for ${title}` }).click()
        await page.getByRole('menuitem', { name: 'Add to playlist…' }).click()
        const dialog = page.getByRole('dialog', { name: 'Add to playlist' })
        await dialog.getByRole('button', { name: /Night drive/ }).waitFor()
        if (title === 'Dusk') await screenshot(page, 'playlist-picker', viewport.width)
        await dialog.getByRole('button', { name: /Night drive/ }).click()
        await page.getByText('Added to Night drive').first().waitFor()
        await dialog.waitFor({ state: 'detached' })
      }

      await page.goto('/playlists')
      await page.getByRole('link', { name: /Night drive/ }).click()
      await page.getByRole('heading', { level: 1, name: 'Night drive' }).waitFor()
      await expectOrder(page, m.token, id, ['Dusk', 'Dawn', 'Dark'])
      if (viewport.width < 500) {
        for (const name of ['Move Dusk', 'Remove Dusk from the playlist', 'More actions for Dusk', 'Play all', 'Edit', 'Export M3U8', 'Delete']) {
          const box = await page.getByRole('button', { name, exact: true }).boundingBox()
          expect([name, Math.round(box!.height) >= 44, Math.round(box!.width) >= 44]).toEqual([name, true, true])
        }
      }
      await screenshot(page, 'playlist', viewport.width)
      expect(await seriousViolations(page)).toEqual([])

      // Keyboard: Dark up twice → first; focus stays on its grip.
      await page.getByRole('button', { name: 'Move Dark', exact: true }).focus()
      await page.keyboard.press('ArrowUp')
      await expectOrder(page, m.token, id, ['Dusk', 'Dark', 'Dawn'])
      await page.keyboard.press('ArrowUp')
      await expectOrder(page, m.token, id, ['Dark', 'Dusk', 'Dawn'])
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move Dark')

      if (viewport.width >= 1024) {
        // Drag: Dawn's grip onto Dark's row.
        await page.getByRole('button', { name: 'Move Dawn', exact: true }).dragTo(songs(page).getByRole('listitem').first())
        await expectOrder(page, m.token, id, ['Dawn', 'Dark', 'Dusk'])
      }
      const order = await shownOrder(page)

      await page.getByRole('main').getByRole('button', { name: 'Play all' }).click()
      await page.waitForFunction(
        (file) => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes(file),
        `/0${TITLES.indexOf(order[0]) + 1} ${order[0]}.mp3`,
      )
      await playsPast(page, 0.5)
      await songs(page).locator('[aria-current=true]', { hasText: order[0] }).waitFor()

      if (viewport.width >= 1024) {
        // The queue drawer saves what plays as a new playlist, in the queue's order.
        await page.getByRole('button', { name: 'Queue', exact: true }).click()
        await page.getByRole('button', { name: 'Save as playlist' }).click()
        await page.getByLabel('Playlist name').fill('From the queue')
        await page.getByRole('button', { name: 'Create playlist' }).click()
        await page.getByText('Saved to From the queue').first().waitFor()
        await screenshot(page, 'queue-saved', viewport.width)
        await page.keyboard.press('Escape')
        const saved = (await api(server.url, 'GET', '/user/playlists', { token: m.token })).body.data.find((p: { name: string }) => p.name === 'From the queue')
        expect(await serverOrder(m.token, saved.id)).toEqual(order)
      }

      await page.goto('/playlists')
      await page.getByRole('link', { name: /Night drive/ }).waitFor()
      if (viewport.width < 500)
        for (const name of ['New playlist', 'Import M3U8'])
          expect(Math.round((await page.getByRole('button', { name }).boundingBox())!.height)).toBeGreaterThanOrEqual(44)
      await screenshot(page, 'playlists', viewport.width)
      expect(await seriousViolations(page)).toEqual([])
      expect(consoleErrors).toEqual([])
      await context.close()
    }, 90_000)
  })
}

/** A new member's playlist of every file in Long, Finale last: its id. */
async function longPlaylist(m: Awaited<ReturnType<typeof createMember>>): Promise<string> {
  const folder = (await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Long', path: '/Long' } })).body.data
  const tracks: { url: string; title: string }[] = (await api(server.url, 'GET', `/user/folders/${folder.id}/playlist`, { token: m.token })).body.data
  expect(tracks.length).toBe(LONG)
  const trackUrls = [...tracks.filter((t) => t.title !== 'Finale'), ...tracks.filter((t) => t.title === 'Finale')].map((t) => t.url)
  const created = await api(server.url, 'POST', '/user/playlists', { token: m.token, body: { name: 'Long list', trackUrls } })
  expect(created.status).toBe(201)
  return created.body.data.id
}

test(`signed in by the session cookie, a ${LONG}-song playlist's first HTML shows its rows; Play all plays before the whole list is loaded and queues every song`, async () => {
  const m = await createMember(server.url)
  const id = await longPlaylist(m)
  const cookie = { name: 'vibes_session', value: m.token, url: server.url, httpOnly: true, sameSite: 'Lax' as const }

  // What the server sent, before any script runs: the header and the first rows.
  const bare = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false })
  await bare.addCookies([cookie])
  const html = await bare.newPage()
  await html.goto(`/playlists/${id}`)
  await html.getByRole('heading', { name: 'Long list' }).waitFor()
  await html.getByText(`${LONG.toLocaleString('en-US')} songs`).waitFor()
  expect(await songs(html).getByRole('button', { name: /^Tone/ }).count()).toBeGreaterThan(5)
  await bare.close()

  const { context, page, consoleErrors } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  // As the login form leaves a browser: the token in storage, the session cookie.
  await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await context.addCookies([cookie])
  // The whole list is held back until Play all has been clicked: it plays from the first rows.
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route('**/api/trpc/playlists.byId**', async (route) => {
    await held
    await route.continue()
  })
  await gotoHydrated(page, `/playlists/${id}`)
  await page.getByRole('main').getByRole('button', { name: 'Play all' }).click()
  await page.waitForFunction(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('/Long/'))
  release()
  // The rest joins the queue when it comes: it holds the whole playlist, in order.
  await page.getByRole('button', { name: 'Queue', exact: true }).click()
  await page.getByRole('list', { name: 'Track list' }).locator(`li[aria-setsize="${LONG}"]`).first().waitFor()
  await page.getByRole('button', { name: 'Save as playlist' }).click()
  await page.getByLabel('Playlist name').fill('Queued at once')
  await page.getByRole('button', { name: 'Create playlist' }).click()
  await page.getByText('Saved to Queued at once').first().waitFor()
  const saved = (await api(server.url, 'GET', '/user/playlists', { token: m.token })).body.data.find((p: { name: string }) => p.name === 'Queued at once')
  const order = await serverOrder(m.token, saved.id)
  expect(order.length).toBe(LONG)
  expect(order.at(-1)).toBe('Finale')
  expect(consoleErrors).toEqual([])
  await context.close()
}, 90_000)

test(`a ${LONG}-song playlist renders a window of rows; scrolling to the end shows the last song`, async () => {
  const m = await createMember(server.url)
  const id = await longPlaylist(m)

  const { context, page, consoleErrors } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(page, `/playlists/${id}`)
  const rows = songs(page).getByRole('listitem')
  await rows.first().waitFor()
  const shown = await rows.count()
  expect(shown).toBeGreaterThan(0)
  expect(shown).toBeLessThan(100)
  // Each row still tells assistive technology where it stands in the whole list.
  expect(await rows.first().getAttribute('aria-setsize')).toBe(String(LONG))

  await songs(page).evaluate((list) => {
    const scroller = list.parentElement as HTMLElement
    scroller.scrollTop = scroller.scrollHeight
  })
  const last = songs(page).locator(`li[aria-posinset="${LONG}"]`)
  await last.getByRole('button', { name: 'Move Finale', exact: true }).waitFor()
  expect(await last.isVisible()).toBe(true)
  expect(await rows.count()).toBeLessThan(100)
  expect(consoleErrors).toEqual([])
  await context.close()
}, 90_000)
