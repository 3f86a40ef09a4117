// The server library in Debian's Chromium: a library made with ffmpeg in
// MEDIA_ROOT, indexed by the real scanner; a member opens Library from the top bar, opens an
// album, presses Play — the player plays the album's first track and the queue (the one saved
// for the member's other devices) holds the album in order — and the search box finds "Björk"
// from "bjork" as they type, walks its results with the keys and plays a track on Enter. A
// track's ReplayGain tag turns its volume down, as the playback setting says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { makeTone } from '../helpers/media'
import { playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const HOMOGENIC = ['Hunter', 'Jóga', 'Unravel']
const FILLERS = 59

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  // Long enough that no track ends by itself while a test looks at it.
  for (const [i, title] of HOMOGENIC.entries())
    makeTone(path.join(server.mediaRoot, 'Björk', 'Homogenic', `0${i + 1} ${title}.mp3`), {
      title,
      artist: 'Björk',
      album: 'Homogenic',
      genre: 'Electronic',
      year: 1997,
      seconds: 30,
      frequency: 440 + i * 110,
      metadata: { track: String(i + 1) },
    })
  makeTone(path.join(server.mediaRoot, 'Miles Davis', 'Kind of Blue', '01 So What.mp3'), {
    title: 'So What',
    artist: 'Miles Davis',
    album: 'Kind of Blue',
    genre: 'Jazz',
    year: 1959,
    seconds: 30,
    cover: true,
    // Turned down 6.02 dB (×0.5) by its ReplayGain tag; the peak (0.25) would allow more.
    metadata: { REPLAYGAIN_TRACK_GAIN: '-6.02 dB', REPLAYGAIN_TRACK_PEAK: '0.25' },
  })
  // One more album than the grid's first page (60), sorted after the others by name.
  for (let n = 1; n <= FILLERS; n++)
    makeTone(path.join(server.mediaRoot, 'Filler', `${n}`, '01 Filler.mp3'), { title: `Filler ${n}`, artist: 'Zz Filler', album: `Zz Filler ${n}`, seconds: 1 })
  mkdirSync(path.join(server.mediaRoot, 'empty'), { recursive: true })
  const admin = await loginAdmin(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  const deadline = Date.now() + 30_000
  for (;;) {
    const status = await api(server.url, 'GET', '/admin/library/scan', { token: admin })
    if (!status.body.data.scanning && status.body.data.tracks === 4 + FILLERS) break
    if (Date.now() > deadline) throw new Error(`the scan never indexed the ${4 + FILLERS} tracks: ${JSON.stringify(status.body)}`)
    await Bun.sleep(200)
  }
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function memberPage(viewport = { width: 1280, height: 800 }) {
  const m = await createMember(server.url)
  const opened = await newPage(browser, server.url, { viewport })
  await setAdChance(opened.page, 0)
  await opened.page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(opened.page, '/')
  return { ...opened, token: m.token }
}

const mediaSrc = (page: Page) => page.evaluate(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc))

/** The queue the player saved for the member's other devices, once it holds `n` tracks. */
async function savedQueue(token: string, n: number) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const q = await api(server.url, 'GET', '/playlist/queue', { token })
    if (q.body.data.tracks.length === n || Date.now() > deadline) return q.body.data as { tracks: { title: string; url: string }[]; index: number }
    await Bun.sleep(250)
  }
}

describe('library', () => {
  test('Library → album → Play: the first track plays and the queue holds the album', async () => {
    const { context, page, token, consoleErrors } = await memberPage()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await page.waitForURL(/\/library/)
    const albums = page.getByRole('list', { name: 'Albums' })
    await albums.getByRole('link', { name: /Kind of Blue/ }).waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'library-albums-1280.png') })
    await albums.getByRole('link', { name: /Homogenic/ }).click()
    await page.getByRole('heading', { level: 1, name: 'Homogenic' }).waitFor()
    const rows = page.getByRole('list', { name: 'Tracks of Homogenic' }).getByRole('button', { name: /^(?!More actions)/ })
    expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Hunter'), expect.stringContaining('Jóga'), expect.stringContaining('Unravel')])

    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.3)
    expect(await mediaSrc(page)).toContain('/Björk/Homogenic/01 Hunter.mp3')
    await page.getByTestId('now-playing').getByText('Hunter').waitFor()
    const queue = await savedQueue(token, 3)
    expect(queue.tracks.map((t) => t.title)).toEqual(HOMOGENIC)
    expect(queue.index).toBe(0)
    await page.screenshot({ path: path.join(SHOTS, 'library-album-1280.png') })

    // "Add to queue" puts another album after it, and the music goes on (no reload on the way).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await page.getByRole('tab', { name: 'Artists' }).click()
    await page
      .getByRole('list', { name: 'Artists' })
      .getByRole('link', { name: /Miles Davis/ })
      .click()
    await page.getByRole('heading', { level: 1, name: 'Miles Davis' }).waitFor()
    await page
      .getByRole('list', { name: 'Albums by Miles Davis' })
      .getByRole('link', { name: /Kind of Blue/ })
      .click()
    await page.getByRole('button', { name: 'Add to queue' }).click()
    expect((await savedQueue(token, 4)).tracks.map((t) => t.title)).toEqual([...HOMOGENIC, 'So What'])
    expect(consoleErrors).toEqual([])
    expect(await mediaSrc(page)).toContain('/Björk/Homogenic/01 Hunter.mp3')
    await context.close()
  })

  test('ReplayGain: a tagged track plays turned down by its gain in Track mode, at the player volume when Off', async () => {
    const { context, page, consoleErrors } = await memberPage()
    const volume = () => page.evaluate(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).volume)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click()
    await page
      .getByRole('list', { name: 'Albums' })
      .getByRole('link', { name: /Kind of Blue/ })
      .click()
    await page.getByRole('heading', { level: 1, name: 'Kind of Blue' }).waitFor()
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.3)
    // The player's default volume 0.8 × 10^(−6.02/20).
    expect(await volume()).toBeCloseTo(0.8 * 10 ** (-6.02 / 20), 4)
    await page.getByRole('link', { name: 'Vibes home' }).click()
    await page.getByText('Playback settings').click()
    const mode = page.getByRole('combobox', { name: 'ReplayGain' })
    await mode.selectOption('off')
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).volume === 0.8)
    // Album mode: the file has no album gain, so its track gain stands.
    await mode.selectOption('album')
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).volume < 0.41)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('search: "bjork" finds Björk as you type; the keys pick a track and Enter plays it', async () => {
    const { context, page } = await memberPage()
    await gotoHydrated(page, '/library')
    const box = page.getByRole('combobox', { name: 'Search library' })
    await box.pressSequentially('bjork')
    const results = page.getByRole('listbox', { name: 'Search results' })
    await results.getByRole('option', { name: /Björk/ }).first().waitFor()
    const options = await results.getByRole('option').allInnerTexts()
    expect(options[0]).toContain('Björk')
    expect(options[0]).toContain('Artist')
    await page.screenshot({ path: path.join(SHOTS, 'library-search-1280.png') })
    await box.fill('jog')
    await results.getByRole('option', { name: /Jóga/ }).waitFor()
    // The track, then "All results" (the search page).
    await results.getByRole('option').nth(2).waitFor({ state: 'detached' })
    expect(await results.getByRole('option').nth(1).textContent()).toContain('All results for “jog”')
    await box.press('ArrowDown') // to "All results"
    await box.press('ArrowDown') // wraps to the track
    await box.press('Enter')
    await playsPast(page, 0.3)
    expect(await mediaSrc(page)).toContain('/Björk/Homogenic/02 Jóga.mp3')

    // Enter pressed before the answer arrives waits for it (not the list of the older query).
    await box.fill('unrav')
    await box.press('Enter')
    await page.waitForFunction(() => decodeURIComponent((document.querySelector('[data-testid=media]') as HTMLMediaElement).currentSrc).includes('03 Unravel'))

    // Enter on an artist opens the artist.
    await box.fill('bjork')
    await results
      .getByRole('option', { name: /Artist/ })
      .first()
      .waitFor()
    expect(await results.getByRole('option').first().getAttribute('aria-selected')).toBe('true')
    await box.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Björk' }).waitFor()
    await context.close()
  })

  test('top bar: the search box is on every page for members, its results code loads on first focus, and visitors have none', async () => {
    const { context, page } = await memberPage()
    // The results panel is its own chunk, held back a moment so keys land in the look-alike box first.
    const panelChunk: string[] = []
    await page.route('**/assets/library-search-*.js', async (route) => {
      panelChunk.push(route.request().url())
      await Bun.sleep(400)
      await route.continue()
    })
    const box = page.getByRole('combobox', { name: 'Search library' })
    await box.waitFor()
    await page.waitForLoadState('networkidle')
    expect(panelChunk).toEqual([])
    await box.pressSequentially('bjork')
    const results = page.getByRole('listbox', { name: 'Search results' })
    await results.getByRole('option', { name: /Björk/ }).first().waitFor()
    expect(panelChunk).toHaveLength(1)
    // Nothing typed while the chunk loaded is lost, and the caret stays at the end.
    expect(await box.inputValue()).toBe('bjork')
    await box.press('Backspace')
    expect(await box.inputValue()).toBe('bjor')
    await page.screenshot({ path: path.join(SHOTS, 'top-bar-search-1280.png') })
    await box.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Björk' }).waitFor()

    // From another page: the box is there, and a pick with the pointer opens the album.
    await page.getByRole('link', { name: 'Charts' }).first().click()
    await box.fill('kind of')
    await results
      .getByRole('option', { name: /Kind of Blue/ })
      .first()
      .click()
    await page.getByRole('heading', { level: 1, name: 'Kind of Blue' }).waitFor()
    await context.close()

    const phone = await memberPage({ width: 390, height: 844 })
    const phoneBox = phone.page.getByRole('combobox', { name: 'Search library' })
    await phoneBox.pressSequentially('so wh')
    const option = phone.page.getByRole('listbox', { name: 'Search results' }).getByRole('option', { name: /So What/ })
    await option.waitFor()
    // The panel spans the phone's width under the bar, not the narrow box.
    const panel = await phone.page.getByRole('listbox', { name: 'Search results' }).boundingBox()
    expect(panel!.width).toBeGreaterThan(340)
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await phone.page.screenshot({ path: path.join(SHOTS, 'top-bar-search-390.png') })
    await phone.context.close()

    const visitor = await newPage(browser, server.url)
    await gotoHydrated(visitor.page, '/')
    await visitor.page.getByRole('link', { name: 'Charts' }).first().waitFor()
    expect(await visitor.page.getByRole('combobox', { name: 'Search library' }).count()).toBe(0)
    await visitor.context.close()
  })

  test('folder dialog: browse the library tree to pick a path; a typed path that does not exist is refused at save', async () => {
    const { context, page } = await memberPage()
    await gotoHydrated(page, '/folders')
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Path or URL').fill('/No Such Folder')
    await dialog.getByLabel('Folder Name').fill('Nothing')
    await dialog.getByRole('button', { name: 'Add Folder' }).click()
    await dialog.getByText('Folder not found in the music library: /No Such Folder').waitFor()

    await dialog.getByLabel('Folder Name').fill('')
    await dialog.getByRole('button', { name: 'Browse the library' }).click()
    const tree = dialog.getByRole('region', { name: 'Music library folders' })
    // The typed path is not in the library: browsing starts at the top.
    await tree.getByRole('button', { name: 'Björk' }).click()
    await tree.getByRole('button', { name: 'Homogenic' }).click()
    await tree.getByText('/Björk/Homogenic').waitFor()
    await tree.getByText('3 tracks here').waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'folder-dialog-browse-1280.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: path.join(SHOTS, 'folder-dialog-browse-390.png') })
    await page.setViewportSize({ width: 1280, height: 800 })
    await tree.getByRole('button', { name: 'Use this folder' }).click()
    await tree.waitFor({ state: 'detached' })
    expect(await dialog.getByLabel('Path or URL').inputValue()).toBe('/Björk/Homogenic')
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('Homogenic')
    expect(await dialog.getByText('Folder not found in the music library').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Add Folder' }).click()
    await page.getByText('Your folder has been created successfully').waitFor()
    expect(await page.locator('[data-folder-id] h2').first().textContent()).toBe('Homogenic')
    await context.close()
  })

  test('phone width: tabs, folders and the album page fit 390 px', async () => {
    const { context, page } = await memberPage({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog').getByRole('link', { name: 'Library' }).click()
    await page
      .getByRole('list', { name: 'Albums' })
      .getByRole('link', { name: /Homogenic/ })
      .waitFor()
    await page.getByRole('tab', { name: 'Folders' }).click()
    await page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 'Björk' }).click()
    await page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 'Homogenic' }).click()
    await page
      .getByRole('list', { name: 'Tracks in this folder' })
      .getByRole('button', { name: /^Unravel/ })
      .waitFor()
    expect(decodeURIComponent(page.url())).toContain('/Björk/Homogenic')
    await page.screenshot({ path: path.join(SHOTS, 'library-folders-390.png') })
    await page.getByRole('tab', { name: 'Albums' }).click()
    await page
      .getByRole('list', { name: 'Albums' })
      .getByRole('link', { name: /Homogenic/ })
      .click()
    await page.getByRole('heading', { level: 1, name: 'Homogenic' }).waitFor()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBe(0)
    await page.screenshot({ path: path.join(SHOTS, 'library-album-390.png'), fullPage: true })
    await context.close()
  })

  test('the album grid pages with "Load more" and sorts by recently added', async () => {
    const { context, page } = await memberPage()
    await gotoHydrated(page, '/library')
    const cards = page.getByRole('list', { name: 'Albums' }).getByRole('listitem')
    await page.getByText(`${2 + FILLERS} albums`).waitFor()
    expect(await cards.count()).toBe(60)
    await page.getByText(`60 of ${2 + FILLERS}`).waitFor()
    await page.getByRole('button', { name: 'Load more' }).click()
    // The button goes once the last page is in (waiting for a filler's card raced: by name, the
    // last filler in the grid is "Zz Filler 9", and "Zz Filler 59" is already on the first page).
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' })
    expect(await cards.count()).toBe(2 + FILLERS)
    const links = await page
      .getByRole('list', { name: 'Albums' })
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')))
    expect(new Set(links).size).toBe(2 + FILLERS)

    await page.getByRole('combobox', { name: 'Sort albums by' }).click()
    await page.getByRole('option', { name: 'Recently added' }).click()
    await page.waitForURL(/sort=recent/)
    await page.getByText(`60 of ${2 + FILLERS}`).waitFor()
    expect(await cards.count()).toBe(60)
    await context.close()
  })

  test('axe finds no serious or critical violation on the library screens at 1280 and 390 px', async () => {
    const report: string[] = []
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { context, page } = await memberPage(viewport)
      const audit = async (where: string) => {
        await page.evaluate(AXE_SOURCE)
        const found = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: any[] }> } }).axe
          const { violations } = await axe.run(document, { resultTypes: ['violations'] })
          return violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id}: ${(v.nodes as { target: unknown[] }[]).map((n) => n.target.join(' ')).join(', ')}`)
        })
        for (const f of found) report.push(`${viewport.width} ${where}: ${f}`)
      }
      await gotoHydrated(page, '/library')
      await page
        .getByRole('list', { name: 'Albums' })
        .getByRole('link', { name: /Homogenic/ })
        .waitFor()
      await audit('albums')
      await page.getByRole('combobox', { name: 'Search library' }).pressSequentially('bjork')
      await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor()
      await audit('search results')
      await page.keyboard.press('Escape')
      for (const tab of ['Artists', 'Genres', 'Songs']) {
        await page.getByRole('tab', { name: tab }).click()
        await page.getByRole('list', { name: tab }).waitFor()
        await audit(tab)
      }
      await page.getByRole('tab', { name: 'Folders' }).click()
      await page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 'Björk' }).click()
      await page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: 'Homogenic' }).click()
      await page.getByRole('list', { name: 'Tracks in this folder' }).waitFor()
      await audit('folder')
      await gotoHydrated(page, '/library')
      await page
        .getByRole('list', { name: 'Albums' })
        .getByRole('link', { name: /Homogenic/ })
        .click()
      await page.getByRole('heading', { level: 1, name: 'Homogenic' }).waitFor()
      await audit('album')
      await page.getByRole('link', { name: 'Björk' }).first().click()
      await page.getByRole('heading', { level: 1, name: 'Björk' }).waitFor()
      await audit('artist')
      await page.getByRole('button', { name: 'More actions for Hunter' }).click()
      await page.getByRole('menuitem', { name: 'Play next' }).waitFor()
      await audit('track menu')
      await page.keyboard.press('Escape')
      await gotoHydrated(page, '/library/search?q=bjork')
      await page.getByRole('list', { name: 'Songs found' }).waitFor()
      await audit('search page')
      await context.close()
    }
    expect(report).toEqual([])
  })
})
