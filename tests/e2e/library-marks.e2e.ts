// Ratings and bookmarks in Debian's Chromium at 1280×800, on a library made with ffmpeg and indexed
// by the real scanner. The track menu's stars rate a song (the row shows it, an app sees it as
// userRating) and the Songs list sorts by the member's rating; a bookmark an app made (OpenSubsonic
// createBookmark) is offered as "Resume from m:ss" when its track starts, which seeks there, and a
// long track's "Bookmark position" saves where the player is for the app to see.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { media, playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const DESKTOP = { width: 1280, height: 800 }
const SHORT = ['Anchor', 'Beacon', 'Current']
const LONG = 'Chapter One'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of SHORT.entries())
    makeTone(path.join(server.mediaRoot, 'Ada Lane', 'Harbor', `0${i + 1} ${title}.mp3`), { title, artist: 'Ada Lane', album: 'Harbor', seconds: 30 })
  // Eleven minutes: a long track, which offers "Bookmark position".
  makeTone(path.join(server.mediaRoot, 'Books', 'Tale', '01 Chapter One.mp3'), { title: LONG, artist: 'Reader', album: 'Tale', seconds: 660 })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** An OpenSubsonic call as an app makes it (u + p), in JSON. */
async function app(m: { username: string; password: string }, method: string, params: Record<string, string> = {}) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ u: m.username, p: m.password, c: 'vibes-test', v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
  const answer = (await (await fetch(url)).json())['subsonic-response']
  expect(answer.status).toBe('ok')
  return answer
}
async function songId(m: { username: string; password: string }, title: string): Promise<string> {
  const found = (await app(m, 'search3', { query: title, artistCount: '0', albumCount: '0' })).searchResult3.song as { id: string; title: string }[]
  return found.find((s) => s.title === title)!.id
}
/** What axe finds wrong on the page (or inside the element `selector` picks) as it is now. */
async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async (selector) => {
    type Axe = { run: (ctx: object, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> }
    const axe = (window as unknown as { axe: Axe }).axe
    const context = selector ? { include: [[selector]] } : document
    return (await axe.run(context, { resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }, selector)
}
const rowTitles = (list: Locator) =>
  list.evaluate((ul) => [...ul.querySelectorAll('li')].map((li) => li.querySelector('button > span:nth-of-type(2) > span')?.textContent ?? ''))

test('rate from the track menu, sort Songs by rating; resume from an app-made bookmark and bookmark a long track', async () => {
  const member = await createMember(server.url)
  const { context, page, consoleErrors } = await newPage(browser, server.url, { viewport: DESKTOP })
  await setAdChance(page, 0)
  await page.addInitScript((t) => localStorage.setItem('token', t), member.token)

  // Rating: the ⋯ menu's stars.
  await gotoHydrated(page, '/library?tab=songs')
  const list = page.getByRole('list', { name: 'Songs' })
  await list.getByRole('listitem').first().waitFor()
  expect(await rowTitles(list)).toEqual(['Anchor', 'Beacon', LONG, 'Current'])
  await list.getByRole('button', { name: 'More actions for Current' }).click()
  await page.getByRole('menuitem', { name: 'Rate 4 stars' }).click()
  await list.getByRole('button', { name: 'More actions for Beacon' }).click()
  await page.getByRole('menuitem', { name: 'Rate 2 stars' }).click()
  await list.getByTestId('track-rating').nth(1).waitFor()
  expect(await list.getByTestId('track-rating').allTextContents()).toEqual(['★ 2', '★ 4'])
  // The menu shows the rating it has; the same star again clears it.
  await list.getByRole('button', { name: 'More actions for Current' }).click()
  await page.getByRole('group', { name: 'Your rating: 4 of 5 stars' }).waitFor()
  await page.screenshot({ path: path.join(SHOTS, 'track-menu-rating-desktop.png') })
  await page.keyboard.press('Escape')
  await page.getByRole('menu').waitFor({ state: 'detached' })
  // (With the menu closed: an open menu's portal sits outside the landmarks, as every menu's does.)
  expect(await axeViolations(page)).toEqual([])
  // An app sees the same rating.
  const currentId = await songId(member, 'Current')
  const deadline = Date.now() + 10_000
  while ((await app(member, 'getSong', { id: currentId })).song.userRating !== 4 && Date.now() < deadline) await Bun.sleep(100)
  expect((await app(member, 'getSong', { id: currentId })).song.userRating).toBe(4)

  // Sorted by the member's rating: rated best first, then the rest by title.
  await page.getByRole('combobox', { name: 'Sort songs by' }).click()
  await page.getByRole('option', { name: 'Your rating' }).click()
  await page.waitForFunction(() => document.querySelector('[aria-label=Songs] li button > span:nth-of-type(2) > span')?.textContent === 'Current')
  expect(await rowTitles(list)).toEqual(['Current', 'Beacon', 'Anchor', LONG])

  // A bookmark an app made: offered when the track starts; taking it seeks there.
  const chapterId = await songId(member, LONG)
  await app(member, 'createBookmark', { id: chapterId, position: '125000', comment: 'from the phone' })
  await list.getByRole('button', { name: new RegExp(`^${LONG}`) }).click()
  await playsPast(page, 0.2)
  const bar = page.getByTestId('now-playing')
  const resume = bar.getByRole('button', { name: 'Resume from 2:05' })
  await resume.waitFor()
  await page.screenshot({ path: path.join(SHOTS, 'player-resume-bookmark-desktop.png') })
  expect(await axeViolations(page, '[data-testid=now-playing]')).toEqual([])
  await resume.click()
  await playsPast(page, 125)
  await resume.waitFor({ state: 'detached' })

  // Bookmark position on the long track: the app sees where the player was.
  await playsPast(page, 126)
  const before = (await media(page)).currentTime
  await bar.getByRole('button', { name: 'Bookmark position' }).click()
  await page.getByText(/^Bookmarked at 2:0\d$/).waitFor()
  const marks = (await app(member, 'getBookmarks')).bookmarks.bookmark as { position: number; entry: { id: string } }[]
  expect(marks).toHaveLength(1)
  expect(marks[0].entry.id).toBe(chapterId)
  // Where the player was (its shown time follows the media element's time updates, a few a second).
  expect(marks[0].position).toBeGreaterThanOrEqual(Math.floor(before * 1000) - 1000)
  expect(marks[0].position).toBeLessThan(135_000)

  // A short track offers no "Bookmark position".
  await list.getByRole('button', { name: /^Anchor/ }).click()
  await page.getByTestId('bar-title').getByText('Anchor').waitFor()
  expect(await bar.getByRole('button', { name: 'Bookmark position' }).count()).toBe(0)
  expect(consoleErrors).toEqual([])
  await context.close()
})
