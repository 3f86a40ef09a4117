// Liked songs and the track menu in Debian's Chromium, on a library made with ffmpeg and indexed by
// the real scanner. /library/liked lists the member's likes newest first (the same list an app gets
// from getStarred2), Play all plays them in that order, Unlike takes the row off and the song is no
// longer starred over /rest, and axe finds nothing on the page. Every list of tracks (album,
// artist, songs, search, folder) has the ⋯ menu: Play next and Add to queue change the queue the
// player keeps (Up Next, as the player stores it to resume after a reload), by mouse and by keyboard.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'
import { parseXml } from '../helpers/xml'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }
const HARBOR = ['Anchor', 'Beacon', 'Current']
const DELTA = ['Estuary', 'Flood', 'Gale', 'Inlet']

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  // Long enough that no track ends by itself while a test looks at it.
  for (const [i, title] of HARBOR.entries())
    makeTone(path.join(server.mediaRoot, 'Ada Lane', 'Harbor', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Ada Lane',
      album: 'Harbor',
      seconds: 30,
      frequency: 440 + i * 55,
      metadata: { track: String(i + 1) },
    })
  for (const [i, title] of DELTA.entries())
    makeTone(path.join(server.mediaRoot, 'Bo Rivers', 'Delta', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Bo Rivers',
      album: 'Delta',
      seconds: 30,
      frequency: 330 + i * 55,
      metadata: { track: String(i + 1) },
    })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function memberPage(viewport = DESKTOP) {
  const m = await createMember(server.url)
  const opened = await newPage(browser, server.url, { viewport })
  await setAdChance(opened.page, 0)
  await opened.page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  return { ...opened, member: m }
}

/** The queue the player saved for the member's other devices, once it holds `n` tracks. */
async function savedQueue(token: string, n: number) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const q = await api(server.url, 'GET', '/playlist/queue', { token })
    if (q.body.data.tracks.length === n || Date.now() > deadline) return q.body.data as { tracks: { title: string }[]; index: number }
    await Bun.sleep(200)
  }
}

/** The titles an app sees starred (OpenSubsonic getStarred2, the member's password). */
async function starredOverRest(m: { username: string; password: string }): Promise<string[]> {
  const url = new URL(`${server.url}/rest/getStarred2.view`)
  for (const [k, v] of Object.entries({ u: m.username, p: m.password, c: 'vibes-test', v: '1.16.1' })) url.searchParams.set(k, v)
  const root = parseXml(await (await fetch(url)).text())
  expect(root.attributes.status).toBe('ok')
  const starred = root.children.find((c) => c.name === 'starred2')!
  return starred.children.filter((c) => c.name === 'song').map((s) => s.attributes.title)
}

const mediaSrc = (page: Page) => page.evaluate(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc))
/** The visible titles of a track list's rows, top to bottom. */
const rowTitles = (list: Locator) =>
  list.evaluate((ul) => [...ul.querySelectorAll('li')].map((li) => li.querySelector('button > span:nth-of-type(2) > span')?.textContent ?? ''))

describe('Liked songs', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${name}: newest like first, Play all plays them, Unlike unstars over /rest, no axe violation`, async () => {
      const { context, page, member, consoleErrors } = await memberPage(viewport)
      // Two likes made on library tracks (their /media/ URL), one by title alone (as a local file's).
      const like = (title: string, trackUrl?: string) =>
        api(server.url, 'PUT', '/playlist/likes', { token: member.token, body: { title, liked: true, trackUrl } })
      expect((await like('Anchor', '/media/Ada%20Lane/Harbor/01%20Anchor.mp3')).status).toBe(200)
      await Bun.sleep(20)
      expect((await like('Flood')).status).toBe(200)
      await Bun.sleep(20)
      expect((await like('Current', '/media/Ada%20Lane/Harbor/03%20Current.mp3')).status).toBe(200)
      expect(await starredOverRest(member)).toEqual(['Current', 'Flood', 'Anchor'])

      await gotoHydrated(page, '/library')
      await page
        .getByRole('link', { name: /Liked songs/ })
        .first()
        .click()
      await page.getByRole('heading', { level: 1, name: 'Liked songs' }).waitFor()
      const list = page.getByRole('list', { name: 'Liked songs' })
      await list.getByRole('listitem').first().waitFor()
      expect(await rowTitles(list)).toEqual(['Current', 'Flood', 'Anchor'])
      if (name === 'phone') {
        // Touch targets: the row, its Unlike and its ⋯ menu are at least 44 px.
        for (const control of [list.getByRole('button', { name: 'Unlike Flood' }), list.getByRole('button', { name: 'More actions for Flood' })]) {
          const box = (await control.boundingBox())!
          expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44)
        }
      }
      await page.evaluate(AXE_SOURCE)
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
        ).axe
        return (await axe.run(document, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      })
      expect(violations).toEqual([])
      await page.screenshot({ path: path.join(SHOTS, `liked-${name}.png`), fullPage: true })

      await page.getByRole('button', { name: 'Play all' }).click()
      await playsPast(page, 0.3)
      expect(await mediaSrc(page)).toContain('/Ada Lane/Harbor/03 Current.mp3')
      expect((await savedQueue(member.token, 3)).tracks.map((t) => t.title)).toEqual(['Current', 'Flood', 'Anchor'])

      await list.getByRole('button', { name: 'Unlike Flood' }).click()
      await list.getByRole('button', { name: 'Unlike Flood' }).waitFor({ state: 'detached' })
      expect(await rowTitles(list)).toEqual(['Current', 'Anchor'])
      const deadline = Date.now() + 10_000
      while ((await starredOverRest(member)).includes('Flood') && Date.now() < deadline) await Bun.sleep(100)
      expect(await starredOverRest(member)).toEqual(['Current', 'Anchor'])
      // After a reload the page still agrees with the server.
      await gotoHydrated(page, '/library/liked')
      await list.getByRole('listitem').first().waitFor()
      expect(await rowTitles(list)).toEqual(['Current', 'Anchor'])
      expect(consoleErrors).toEqual([])
      await context.close()
    })
  }

  test('a like from the track menu tops the list; an empty list says how to fill it', async () => {
    const { context, page } = await memberPage()
    await gotoHydrated(page, '/library/liked')
    await page.getByText('No liked songs yet').waitFor()
    expect(await page.getByRole('button', { name: 'Play all' }).isDisabled()).toBe(true)
    await gotoHydrated(page, '/library?tab=songs')
    await page.getByRole('button', { name: 'More actions for Gale' }).click()
    await page.getByRole('menuitem', { name: 'Like' }).click()
    await page.getByRole('button', { name: 'More actions for Beacon' }).click()
    await page.getByRole('menuitem', { name: 'Like' }).click()
    // The menu shows the like it now has.
    await page.getByRole('button', { name: 'More actions for Gale' }).click()
    await page.getByRole('menuitem', { name: 'Unlike' }).waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'track-menu-desktop.png') })
    await page.keyboard.press('Escape')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await page
      .getByRole('link', { name: /Liked songs/ })
      .first()
      .click()
    const list = page.getByRole('list', { name: 'Liked songs' })
    await list.getByRole('listitem').nth(1).waitFor()
    expect(await rowTitles(list)).toEqual(['Beacon', 'Gale'])
    await context.close()
  })
})

/** Opens a row's ⋯ menu and picks `action` with the mouse. */
async function byMouse(page: Page, list: Locator, title: string, action: string) {
  await list.getByRole('button', { name: `More actions for ${title}` }).click()
  const menu = rowMenu(page, title)
  await menu.getByRole('menuitem', { name: action }).click()
  // Closed menus leave with an animation: the next row's menu must not meet this one still there.
  await menu.waitFor({ state: 'detached' })
}

/** The ⋯ menu of the row titled `title` (named after its button). */
const rowMenu = (page: Page, title: string) => page.getByRole('menu', { name: `More actions for ${title}` })

/** Reaches a row's ⋯ menu from the row with Tab, opens it with Enter (or the context-menu key from the row), walks to `action` with the arrows and picks it with Enter. */
async function byKeyboard(page: Page, list: Locator, title: string, action: string, open: 'Tab' | 'ContextMenu') {
  await list.getByRole('button', { name: new RegExp(`^${title}`) }).focus()
  if (open === 'Tab') {
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`More actions for ${title}`)
    await page.keyboard.press('Enter')
  } else await page.keyboard.press('Shift+F10')
  const menu = rowMenu(page, title)
  await menu.waitFor()
  for (let i = 0; i < 8; i++) {
    const highlighted = await menu.locator('[role=menuitem][data-highlighted]').allInnerTexts()
    if (highlighted[0]?.trim() === action) break
    await page.keyboard.press('ArrowDown')
  }
  expect((await menu.locator('[role=menuitem][data-highlighted]').textContent())?.trim()).toBe(action)
  await page.keyboard.press('Enter')
  await menu.waitFor({ state: 'detached' })
}

/** Up Next as the player keeps it (its resume copy in localStorage), once it equals `expected`. */
async function expectUpNext(page: Page, expected: string[]) {
  const read = () =>
    page.evaluate(() =>
      (JSON.parse(localStorage.getItem('vibes:player:queue') ?? '{"tracks":[]}') as { tracks: { title: string }[] }).tracks.map((t) => t.title),
    )
  const deadline = Date.now() + 5000
  while (JSON.stringify(await read()) !== JSON.stringify(expected) && Date.now() < deadline) await Bun.sleep(50)
  expect(await read()).toEqual(expected)
}

describe('the track menu in every list', () => {
  test('Play next and Add to queue from album, artist, songs, search and folder lists, by mouse and by keyboard', async () => {
    const { context, page, consoleErrors } = await memberPage()
    // What the queue should be: Play next goes right after the playing track, Add to queue at the end.
    const queue = [...HARBOR]
    const playing = 0
    const expectQueue = () => expectUpNext(page, queue)
    const next = (title: string) => queue.splice(playing + 1, 0, title)
    const add = (title: string) => queue.push(title)

    await gotoHydrated(page, '/library')
    await page
      .getByRole('list', { name: 'Albums' })
      .getByRole('link', { name: /Harbor/ })
      .click()
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.3)
    await expectQueue()

    // Album.
    await gotoHydrated(page, '/library')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Delta/ }).click()
    let list = page.getByRole('list', { name: 'Tracks of Delta' })
    await byMouse(page, list, 'Estuary', 'Play next')
    next('Estuary')
    await expectQueue()
    await byKeyboard(page, list, 'Flood', 'Add to queue', 'Tab')
    add('Flood')
    await expectQueue()
    await page.screenshot({ path: path.join(SHOTS, 'track-menu-album-desktop.png') })

    // Artist ("Go to artist" from the menu gets there).
    await list.getByRole('button', { name: 'More actions for Gale' }).click()
    await page.getByRole('menuitem', { name: 'Go to artist' }).click()
    await page.getByRole('heading', { level: 1, name: 'Bo Rivers' }).waitFor()
    list = page.getByRole('list', { name: 'Songs by Bo Rivers' })
    await byMouse(page, list, 'Gale', 'Add to queue')
    add('Gale')
    await expectQueue()
    await byKeyboard(page, list, 'Inlet', 'Play next', 'ContextMenu')
    next('Inlet')
    await expectQueue()

    // Songs.
    await gotoHydrated(page, '/library?tab=songs')
    list = page.getByRole('list', { name: 'Songs' })
    await byMouse(page, list, 'Beacon', 'Play next')
    next('Beacon')
    await expectQueue()
    await byKeyboard(page, list, 'Anchor', 'Add to queue', 'Tab')
    add('Anchor')
    await expectQueue()

    // Search: the box's "All results" opens the search page. Typing sends a query per pause, so
    // the option for an earlier prefix ("delt") can show first: wait for the one for the whole word.
    const box = page.getByRole('combobox', { name: 'Search library' })
    await box.click()
    await box.pressSequentially('delta')
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('option', { name: 'All results for “delta”' }).click()
    await page.getByRole('heading', { level: 1, name: 'Results for “delta”' }).waitFor()
    list = page.getByRole('list', { name: 'Songs found' })
    await byMouse(page, list, 'Inlet', 'Add to queue')
    add('Inlet')
    await expectQueue()
    await byKeyboard(page, list, 'Estuary', 'Play next', 'Tab')
    next('Estuary')
    await expectQueue()

    // Folder.
    await gotoHydrated(page, `/library?tab=folders&path=${encodeURIComponent('/Ada Lane/Harbor')}`)
    list = page.getByRole('list', { name: 'Tracks in this folder' })
    await byMouse(page, list, 'Current', 'Play next')
    next('Current')
    await expectQueue()
    await byKeyboard(page, list, 'Beacon', 'Add to queue', 'ContextMenu')
    add('Beacon')
    await expectQueue()

    // "Play now" keeps the queue and plays the track at once, after the one that played.
    await byMouse(page, list, 'Anchor', 'Play now')
    next('Anchor')
    await expectQueue()
    await page.waitForFunction(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('01 Anchor'))
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('vibes:player:place') ?? '{}').index)).toBe(1)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('phone: the ⋯ button is a 44 px target and its menu works there', async () => {
    const { context, page } = await memberPage(PHONE)
    await gotoHydrated(page, '/library?tab=songs')
    const list = page.getByRole('list', { name: 'Songs' })
    const trigger = list.getByRole('button', { name: 'More actions for Gale' })
    const box = (await trigger.boundingBox())!
    expect(box.width).toBeGreaterThanOrEqual(44)
    expect(box.height).toBeGreaterThanOrEqual(44)
    await trigger.click()
    await page.getByRole('menu').waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'track-menu-phone.png') })
    await page.getByRole('menuitem', { name: 'Add to queue' }).click()
    await expectUpNext(page, ['Gale'])
    await context.close()
  })
})
