// /folders, /player and the Remote URL tab in Debian's Chromium against the built server: add,
// edit, delete, drag to reorder (arrows at phone width and on touch screens, keyboard moves),
// one save after the pause, a failed save restoring the saved order, order kept after reload,
// the loading / error / expired-token states, and playing a library folder, a remote folder and
// a remote URL served by a real Python http.server on loopback (REMOTE_ALLOW_HOSTS=127.0.0.1).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page, Route } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { gotoHydrated, launchBrowser } from '../helpers/browser'
import { openUp, startPython, type ListingServer } from '../helpers/listing-servers'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let python: ListingServer
let served: string
/** A saved path too long for a phone's width unless it wraps. */
const LONG_FOLDER = 'a/very/long/path/that/would/not/fit/on/a/phone/screen/at/all'

beforeAll(async () => {
  served = mkdtempSync(path.join(tmpdir(), 'vibes-remote-e2e-'))
  openUp(served)
  makeTone(path.join(served, 'music/Road Songs/1 Alpha Road.mp3'), { seconds: 4, frequency: 330 })
  makeTone(path.join(served, 'music/Road Songs/2 Beta Road.mp3'), { seconds: 4, frequency: 550 })
  ;[server, browser, python] = await Promise.all([
    startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: '127.0.0.1' }),
    launchBrowser(),
    startPython(served, '127.0.0.1'),
  ])
  makeTone(path.join(server.mediaRoot, 'music/set/1 Morning.mp3'), { title: 'Morning', artist: 'Ada', seconds: 4 })
  makeTone(path.join(server.mediaRoot, 'music/set/2 Evening.mp3'), { title: 'Evening', seconds: 2 })
  // The library folders the tests save: a path that is not in the library is refused at save.
  for (const dir of ['a', 'b', 'c', '1', '3', 'n', 's', 'old', 'new', 'kept', 'k', 'late', LONG_FOLDER])
    mkdirSync(path.join(server.mediaRoot, dir), { recursive: true })
  // Indexed once written: the start-up scan may have walked while the files were being written (decision 099).
  await scanLibraryNow(server.url, await loginAdmin(server.url))
})
afterAll(async () => {
  await browser?.close()
  await python?.stop()
  await server?.stop()
  if (served) rmSync(served, { recursive: true, force: true })
})

type ContextOptions = { viewport?: { width: number; height: number }; hasTouch?: boolean; open?: boolean }

/** A fresh member with `folders` already saved, signed in through the stored token. */
async function memberPage(folders: Array<[string, string]> = [], opts: ContextOptions = {}) {
  const m = await createMember(server.url)
  for (const [label, p] of folders) await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label, path: p } })
  const context = await browser.newContext({ baseURL: server.url, viewport: opts.viewport ?? { width: 1280, height: 800 }, hasTouch: opts.hasTouch })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const consoleErrors: string[] = []
  page.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()))
  page.on('pageerror', (err) => consoleErrors.push(String(err)))
  // No adverts between tracks in these tests.
  await context.addInitScript((t) => {
    localStorage.setItem('token', t)
    ;(window as unknown as { __vibesAdChance: number }).__vibesAdChance = 0
  }, m.token)
  if (opts.open !== false) await gotoHydrated(page, '/folders')
  return { m, page, context, consoleErrors }
}

/** Waits until the page's media element has played past `seconds`. */
async function playsPast(page: Page, seconds: number) {
  await page.waitForFunction(
    (s) => {
      const el = document.querySelector('[data-testid=media]') as HTMLMediaElement | null
      if (el?.paused && el.readyState >= 2) void el.play().catch(() => {})
      return !!el && el.currentTime > s
    },
    seconds,
    { timeout: 15_000 },
  )
}

/** Holds matching requests until `release()` (to look at busy and loading states). */
async function hold(page: Page, pattern: string) {
  const held: Route[] = []
  let waiting: (() => void) | null = null
  await page.route(pattern, (route) => {
    held.push(route)
    waiting?.()
  })
  return {
    arrived: () => (held.length ? Promise.resolve() : new Promise<void>((r) => (waiting = r))),
    release: async () => {
      for (const r of held.splice(0)) await r.continue()
      await page.unroute(pattern)
    },
  }
}

const cardLabels = (page: Page) => page.locator('[data-folder-id] h2').allTextContents()
const serverLabels = async (token: string) => (await api(server.url, 'GET', '/user/folders', { token })).body.data.map((f: { label: string }) => f.label)
async function waitSaved(page: Page) {
  await page.getByText('Saving folder order...').waitFor()
  await page.getByText('Saving folder order...').waitFor({ state: 'detached' })
}

describe('folders screen', () => {
  test('the dialog: "Browse the library" flags nothing, an empty name is flagged when left; ftp:// is named; a folder saved twice is refused', async () => {
    const { page, context } = await memberPage([['Set', '/music/set']])
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Add New Folder' }).waitFor()
    await dialog.getByLabel('Folder Name').focus()
    await dialog.getByRole('button', { name: 'Browse the library' }).click()
    await dialog.getByRole('button', { name: 'Hide the library' }).waitFor()
    expect(await dialog.getByText('Folder name is required').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Hide the library' }).click()

    await dialog.getByLabel('Path or URL').fill('ftp://files.example/music/')
    await dialog.getByLabel('Folder Name').focus()
    // The fixed message, then the reason: only http(s) URLs are read.
    await dialog.getByText('Path must be a URL or absolute path: only http:// and https:// URLs are supported').waitFor()

    // Leaving the empty name for the path field flags it.
    await dialog.getByLabel('Path or URL').fill('/music/set/')
    await dialog.getByText('Folder name is required').waitFor()

    await dialog.getByLabel('Folder Name').fill('Set again')
    await dialog.getByRole('button', { name: 'Add Folder' }).click()
    await dialog.getByText('You already have a folder with this path: /music/set/').waitFor()
    await context.close()
  })

  test('empty state → add → edit → delete, with the dialog texts and toasts', async () => {
    const { page, context, consoleErrors } = await memberPage()
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor()
    await page.getByText('Add your first folder to get started.').waitFor()

    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Add New Folder' }).waitFor()
    const submit = dialog.getByRole('button', { name: 'Add Folder' })
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Folder Name').fill('Road Trip')
    await dialog.getByLabel('Path or URL').fill('/music/../etc')
    await dialog.getByLabel('Folder Name').focus()
    await dialog.getByText('Invalid path format').waitFor()
    await dialog.getByLabel('Path or URL').fill('/music/set')
    await submit.click()
    await page.getByText('Your folder has been created successfully').waitFor()
    await dialog.waitFor({ state: 'detached' })
    const card = page.locator('[data-folder-id]').first()
    expect(await card.locator('h2').textContent()).toBe('Road Trip')
    expect(await card.getByText('Local', { exact: true }).count()).toBe(1)

    await card.getByRole('button', { name: 'Edit Road Trip' }).click()
    await dialog.getByRole('heading', { name: 'Edit Folder' }).waitFor()
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('Road Trip')
    await dialog.getByLabel('Folder Name').fill('Radio')
    await dialog.getByLabel('Path or URL').fill(`${python.url}/music/Road%20Songs/`)
    await dialog.getByRole('button', { name: 'Update Folder' }).click()
    await page.getByText('Your folder has been updated successfully').waitFor()
    await card.getByText('Remote', { exact: true }).waitFor()
    expect(await card.locator('h2').textContent()).toBe('Radio')

    // Fields reset on open.
    // The dashed card: its name is its visible text (the header button comes first).
    await page.getByRole('button', { name: 'Add Folder', exact: true }).last().click()
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('')
    expect(await dialog.getByLabel('Path or URL').inputValue()).toBe('')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    await card.getByRole('button', { name: 'Delete Radio' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Are you sure you want to delete this folder?').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Your folder has been deleted successfully').waitFor()
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a path that is not in the library is refused when saved: the message under the path field, nothing stored', async () => {
    const { m, page, context } = await memberPage()
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Folder Name').fill('Missing')
    await dialog.getByLabel('Path or URL').fill('/music/missing')
    await dialog.getByRole('button', { name: 'Add Folder' }).click()
    await dialog.getByText('Folder not found in the music library: /music/missing').first().waitFor()
    expect(await dialog.isVisible()).toBe(true)
    expect(await serverLabels(m.token)).toEqual([])
    await context.close()
  })

  test('drag a card by its handle to reorder; saved after the pause; kept after reload', async () => {
    const { m, page, context, consoleErrors } = await memberPage([
      ['Alpha', '/a'],
      ['Beta', '/b'],
      ['Gamma', '/c'],
    ])
    await page.getByText('Gamma').waitFor()
    expect(await page.getByRole('button', { name: 'Move Alpha up' }).count()).toBe(0)
    const puts: string[] = []
    page.on('request', (r) => r.url().includes('folders.reorder') && puts.push(r.url()))
    // A press that wobbles a few pixels and ends on its own card reorders nothing and saves nothing.
    const handle = (await page.getByRole('button', { name: 'Reorder Alpha' }).boundingBox())!
    await page.mouse.move(handle.x + 8, handle.y + 8)
    await page.mouse.down()
    await page.mouse.move(handle.x + 16, handle.y + 14, { steps: 4 })
    await page.mouse.up()
    expect(await cardLabels(page)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect(await page.getByText('Saving folder order...').count()).toBe(0)
    await page.dragAndDrop('[aria-label="Reorder Alpha"]', '[data-folder-id]:nth-child(3)')
    await waitSaved(page)
    expect(puts).toHaveLength(1)
    expect(await cardLabels(page)).toEqual(['Beta', 'Gamma', 'Alpha'])
    expect(await serverLabels(m.token)).toEqual(['Beta', 'Gamma', 'Alpha'])
    await page.reload()
    await page.getByText('Gamma').waitFor()
    expect(await cardLabels(page)).toEqual(['Beta', 'Gamma', 'Alpha'])

    // Keyboard: arrow keys on the focused handle move the folder.
    await page.getByRole('button', { name: 'Reorder Alpha' }).focus()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('at 390 px: up/down arrows (first up and last down disabled), order kept after reload, nothing wider than the screen', async () => {
    const { m, page, context } = await memberPage(
      [
        ['One', '/1'],
        ['Two', `/${LONG_FOLDER}/`],
        ['Three', '/3'],
      ],
      { viewport: { width: 390, height: 844 } },
    )
    await page.getByText('Three').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await page.locator('[data-drag-handle]').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Move One up' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Move Three down' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Move One down' }).click()
    await page.getByRole('button', { name: 'Move One down' }).click()
    expect(await cardLabels(page)).toEqual(['Two', 'Three', 'One'])
    // "down" is now disabled, so keyboard focus moves to the card's other arrow instead of being lost.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move One up')
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['Two', 'Three', 'One'])
    await page.reload()
    await page.getByText('Three').waitFor()
    expect(await cardLabels(page)).toEqual(['Two', 'Three', 'One'])
    expect(await page.getByRole('button', { name: 'Move Two up' }).isDisabled()).toBe(true)
    await context.close()
  })

  test('touch screens get the arrows at any width', async () => {
    const { m, page, context } = await memberPage(
      [
        ['North', '/n'],
        ['South', '/s'],
      ],
      { hasTouch: true },
    )
    await page.getByText('South').waitFor()
    expect(await page.locator('[data-drag-handle]').count()).toBe(0)
    await page.getByRole('button', { name: 'Move North down' }).tap()
    expect(await cardLabels(page)).toEqual(['South', 'North'])
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['South', 'North'])
    await context.close()
  })

  test('keyboard only: Tab reaches the named handle, arrows move, one save after the pause, announced', async () => {
    const { m, page, context, consoleErrors } = await memberPage([
      ['Alpha', '/a'],
      ['Beta', '/b'],
      ['Gamma', '/c'],
    ])
    await page.getByText('Gamma').waitFor()
    const puts: string[] = []
    page.on('request', (r) => r.url().includes('folders.reorder') && puts.push(r.postData() ?? ''))
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().focus()
    await page.keyboard.press('Tab')
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))
    expect(await focused()).toBe('Reorder Alpha')
    const help = await page.evaluate(() => document.getElementById(document.activeElement!.getAttribute('aria-describedby')!)?.textContent)
    expect(help).toBe('Drag to reorder, or use the arrow keys to move this folder.')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await cardLabels(page)).toEqual(['Beta', 'Gamma', 'Alpha'])
    await page.getByText('Alpha moved to position 3 of 3').waitFor()
    expect(await focused()).toBe('Reorder Alpha')
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['Beta', 'Gamma', 'Alpha'])
    // Two moves inside the 500 ms pause: a single request with the final order.
    expect(puts).toHaveLength(1)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a failed save puts the saved order back with "Failed to save folder order"', async () => {
    const { m, page, context } = await memberPage([
      ['Alpha', '/a'],
      ['Beta', '/b'],
      ['Gamma', '/c'],
    ])
    await page.getByText('Gamma').waitFor()
    // Deleted behind the page's back: the order the page sends no longer matches the server.
    const gamma = (await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data[2].id
    await api(server.url, 'DELETE', `/user/folders/${gamma}`, { token: m.token })
    await page.getByRole('button', { name: 'Reorder Alpha' }).focus()
    await page.keyboard.press('ArrowDown')
    expect(await cardLabels(page)).toEqual(['Beta', 'Alpha', 'Gamma'])
    await page.getByText('Saving folder order...').waitFor()
    await page.getByText('Failed to save folder order').waitFor()
    await page.getByText('folderIds must list each of your folders exactly once').waitFor()
    await page.waitForFunction(() => [...document.querySelectorAll('[data-folder-id] h2')].map((h) => h.textContent).join() === 'Alpha,Beta')
    expect(await serverLabels(m.token)).toEqual(['Alpha', 'Beta'])
    await context.close()
  })

  test('the dialog: busy text, no closing while saving, server errors under the path field and as a toast', async () => {
    const { m, page, context } = await memberPage([['Old', '/old']])
    await page.getByText('Old', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Folder Name').fill('New')
    await dialog.getByLabel('Path or URL').fill('/new')
    const create = await hold(page, '**/api/trpc/folders.create*')
    await dialog.getByRole('button', { name: 'Add Folder' }).click()
    await create.arrived()
    const busy = dialog.getByRole('button', { name: 'Adding...' })
    expect(await busy.isDisabled()).toBe(true)
    expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    await page.mouse.click(5, 5)
    expect(await dialog.isVisible()).toBe(true)
    await create.release()
    await page.getByText('Your folder has been created successfully').waitFor()
    await dialog.waitFor({ state: 'detached' })

    // Edited after someone else deleted it: the server's 404 message shows in both places.
    const old = (await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data[0].id
    await api(server.url, 'DELETE', `/user/folders/${old}`, { token: m.token })
    await page.getByRole('button', { name: 'Edit Old' }).click()
    await dialog.getByLabel('Folder Name').fill('Renamed')
    await dialog.getByRole('button', { name: 'Update Folder' }).click()
    await page.getByRole('status').getByText('Failed to save folder').waitFor()
    const pathField = dialog.getByLabel('Path or URL')
    const describedBy = (await pathField.getAttribute('aria-describedby')) ?? ''
    const fieldTexts = await page.evaluate((ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? ''), describedBy)
    expect(fieldTexts).toContain('Folder not found')
    expect(await dialog.isVisible()).toBe(true)
    await context.close()
  })

  test('loading, then an error with Retry, then the list', async () => {
    const { page, context } = await memberPage([['Kept', '/kept']], { open: false })
    const pattern = '**/api/trpc/*folders.list*'
    let first: Route | null = null
    const arrived = new Promise<void>((resolve) =>
      page.route(pattern, (route) => {
        first = route
        resolve()
      }),
    )
    await page.goto('/folders')
    await arrived
    await page.getByRole('status', { name: 'Loading folders' }).waitFor()
    // The network drops that request; the next one goes through.
    await first!.abort('failed')
    await page.unroute(pattern)
    await page.getByText('No response from server. Please check your connection.').waitFor()
    await page.getByRole('button', { name: 'Retry' }).click()
    await page.getByRole('heading', { name: 'Kept' }).waitFor()
    await context.close()
  })

  test('an expired token: "Authentication Error", "Redirecting to login page...", then /login', async () => {
    const { m, page, context } = await memberPage([['Keep', '/k']])
    await page.getByText('Keep').waitFor()
    await api(server.url, 'POST', '/auth/logout', { token: m.token })
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    await page.getByLabel('Folder Name').fill('Late')
    await page.getByLabel('Path or URL').fill('/late')
    await page.getByRole('dialog').getByRole('button', { name: 'Add Folder' }).click()
    await page.getByText('Authentication Error').waitFor()
    await page.getByText('Redirecting to login page...').waitFor()
    await page.waitForURL((u) => u.pathname === '/login', { timeout: 10_000 })
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await context.close()
  })
})

describe('play a folder', () => {
  test('Play Folder opens /player?fid= and the audio plays', async () => {
    const { page, context, consoleErrors } = await memberPage([['Evening Set', '/music/set']])
    await page.getByRole('link', { name: 'Play Folder Evening Set', exact: true }).click()
    await page.waitForURL(/\/player\?fid=/)
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()
    await page.getByText('Playing 2 tracks from your collection').waitFor()
    await page.getByRole('link', { name: 'Back to Folders' }).waitFor()
    const media = page.locator('audio, video').first()
    await media.evaluate((el: HTMLMediaElement) => el.play())
    await page.waitForFunction(() => ((document.querySelector('audio, video') as HTMLMediaElement | null)?.currentTime ?? 0) > 0.5, undefined, {
      timeout: 10_000,
    })
    expect(await media.evaluate((el: HTMLMediaElement) => el.paused)).toBe(false)

    // The home page's /?fid= address takes a member to the same screen.
    const fid = new URL(page.url()).searchParams.get('fid')!
    await gotoHydrated(page, `/?fid=${fid}`)
    await page.waitForURL(/\/player\?fid=/)
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()

    // Without ?fid the last played folder loads; a stale folder id shows the error state.
    await gotoHydrated(page, '/player')
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()
    await gotoHydrated(page, '/player?fid=does-not-exist')
    await page.getByText('Folder not found').waitFor()
    await page.getByRole('link', { name: 'Return to Folders' }).waitFor()
    expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([])
    await context.close()
  })

  test('a remote folder in the list plays on /player (folders.playlist reads the Python listing)', async () => {
    const { page, context, consoleErrors } = await memberPage([['Road Songs Online', `${python.url}/music/Road%20Songs/`]])
    const card = page.locator('[data-folder-id]').first()
    await card.getByText('Remote', { exact: true }).waitFor()
    await card.getByRole('link', { name: 'Play Folder' }).click()
    await page.waitForURL(/\/player\?fid=/)
    await page.getByRole('heading', { name: 'Road Songs Online' }).waitFor()
    await page.getByText('Playing 2 tracks from your collection').waitFor()
    expect(await page.getByTestId('track-title').textContent()).toBe('1 Alpha Road')
    await playsPast(page, 0.5)
    expect(await page.getByTestId('media').evaluate((el: HTMLMediaElement) => el.currentSrc)).toBe(`${python.url}/music/Road%20Songs/1%20Alpha%20Road.mp3`)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('the Remote URL tab loads a Python http.server listing and plays it; refusals are toasts', async () => {
    const { page, context } = await memberPage([], { open: false })
    await gotoHydrated(page, '/')
    await page.getByRole('tab', { name: 'Remote URL' }).click()
    await page.getByLabel('Remote Folder URL').fill(`${python.url}/music/Road%20Songs/`)
    const load = await hold(page, '**/api/trpc/*remote.playlist*')
    await page.getByRole('button', { name: 'Load Remote Playlist' }).click()
    await load.arrived()
    expect(await page.getByRole('button', { name: 'Loading...' }).isDisabled()).toBe(true)
    await load.release()
    await page.getByText('Playlist loaded').waitFor()
    await page.getByText('Playing 2 tracks from Road Songs').waitFor()
    await playsPast(page, 0.5)
    expect(await page.getByTestId('media').evaluate((el: HTMLMediaElement) => el.currentSrc)).toBe(`${python.url}/music/Road%20Songs/1%20Alpha%20Road.mp3`)
    expect(await page.getByTestId('track-title').textContent()).toBe('1 Alpha Road')

    // Another loopback address is not on the allow list: refused by the server, shown as a toast.
    await page.getByLabel('Remote Folder URL').fill(`http://127.0.0.2:${python.port}/music/`)
    await page.getByRole('button', { name: 'Load Remote Playlist' }).click()
    await page.getByText('Remote URL refused: 127.0.0.2 is a loopback address').waitFor()
    await context.close()
  })

  test('a remote folder that stops loading: the reason in words and a Retry button, never an error code', async () => {
    const spare = mkdtempSync(path.join(tmpdir(), 'vibes-spare-'))
    openUp(spare)
    makeTone(path.join(spare, 'music/Later/1 Later.mp3'), { title: 'Later On', seconds: 4 })
    const gone = await startPython(spare, '127.0.0.1')
    // A folder on a server that is switched off after the folder was saved.
    const { page, context, m } = await memberPage([['Switched off', `${gone.url}/music/Later/`]])
    await gone.stop()
    rmSync(spare, { recursive: true, force: true })
    // A folder that is there when saved, then moved away.
    makeTone(path.join(served, 'music/Moving/1 Moving.mp3'), { title: 'Moving Song', seconds: 4 })
    const moved = (await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Moved away', path: `${python.url}/music/Moving/` } })).body
      .data
    rmSync(path.join(served, 'music/Moving'), { recursive: true, force: true })

    const [off] = (await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data
    await gotoHydrated(page, `/player?fid=${off.id}`)
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this folder' })
    await alert.getByText(`Nothing answers at that address (127.0.0.1:${gone.port})`).waitFor()
    expect(await alert.textContent()).not.toMatch(/\bE[A-Z]{4,}\b/)
    await alert.getByRole('button', { name: 'Retry' }).waitFor()

    await gotoHydrated(page, `/player?fid=${moved.id}`)
    await alert.getByText('That address answered 404 File not found').waitFor()
    makeTone(path.join(served, 'music/Moving/1 Moving.mp3'), { title: 'Moving Song', seconds: 4 })
    await alert.getByRole('button', { name: 'Retry' }).click()
    await page.getByText('Playing 1 track from your collection').waitFor()
    expect(await page.getByTestId('track-title').textContent()).toBe('Moving Song')
    await context.close()
  })

  test('no folder selected', async () => {
    const { page, context } = await memberPage()
    await gotoHydrated(page, '/player')
    await page.getByText('No folder selected').waitFor()
    await page.getByRole('link', { name: 'Return to Folders' }).waitFor()
    await context.close()
  })
})
