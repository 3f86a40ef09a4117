// Art and durations before play in Debian's Chromium: a local folder's ogg (anywhere in the list,
// not only the next track) and wma show their lengths in Up Next before they play, by one rounding
// rule, and the folder's cover.jpg is the art of its tracks; a remote folder (nginx's autoindex,
// which lists no lengths) shows every track's length and tag title before it plays, read by the
// server from each file's head and tail, and its folder.jpg — served over plain http, as a NAS on
// the LAN serves it — is the tracks' art.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { startNginx, type ListingServer } from '../helpers/listing-servers'
import { ffmpeg, makeImage } from '../helpers/media'
import { expectTitle, setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let listing: ListingServer
let fixtures: string
const SHOTS = '/work/shots/player3'

/** A 7-second Vorbis tone in an ogg file (its length is in its last page). */
const oggTone = (file: string, title: string) =>
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=330:duration=7', '-c:a', 'libvorbis', '-metadata', `title=${title}`, file)

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-art-durations-'))
  const album = path.join(fixtures, 'local', 'Album')
  mkdirSync(album, { recursive: true })
  tone(path.join(album, '01 Opening.mp3'), 20, { title: 'Opening' })
  oggTone(path.join(album, '02 Vorbis.ogg'), 'Vorbis')
  makeImage(path.join(album, 'cover.jpg'), 'blue')
  const mixed = path.join(fixtures, 'local', 'Mixed')
  mkdirSync(mixed, { recursive: true })
  tone(path.join(mixed, '01 One.mp3'), 20, { title: 'One' })
  tone(path.join(mixed, '02 Two.mp3'), 20, { title: 'Two' })
  // A long ogg: its length is only on its last page, far past the pages read for the tags.
  ffmpeg('-f', 'lavfi', '-i', 'anoisesrc=d=200:c=pink', '-c:a', 'libvorbis', '-metadata', 'title=Three', path.join(mixed, '03 Three.ogg'))
  // 29.72 s: 0:29 by the player's rule (whole seconds passed), wherever it is shown.
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=29.7', '-c:a', 'wmav2', '-metadata', 'title=Four', path.join(mixed, '04 Four.wma'))
  const remote = path.join(fixtures, 'served', 'Remote Set')
  mkdirSync(remote, { recursive: true })
  tone(path.join(remote, '01 First.mp3'), 20)
  oggTone(path.join(remote, '02 Second.ogg'), 'Second')
  tone(path.join(remote, '03 Third.mp3'), 5, {}, 550)
  makeImage(path.join(remote, 'folder.jpg'), 'red')
  mkdirSync(SHOTS, { recursive: true })
  server = await startServer({ REMOTE_ALLOW_HOSTS: '127.0.0.1' })
  ;[listing, browser] = await Promise.all([startNginx(path.join(fixtures, 'served'), '127.0.0.1'), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await listing?.stop()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

/** The Up Next rows as "title duration", in order. */
const rows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('button[data-queue-pos]')].map(
      (b) => `${b.querySelector('[id^=queue-row-]')?.textContent} ${b.lastElementChild?.textContent}`,
    ),
  )

test("a local folder: the ogg's length shows before it plays, and cover.jpg is the tracks' art", async () => {
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await gotoHydrated(page, '/')
  await page.getByTestId('folder-input').setInputFiles(path.join(fixtures, 'local', 'Album'))
  await expectTitle(page, 'Opening')
  await page.waitForFunction(() => document.querySelectorAll('button[data-queue-pos]')[1]?.lastElementChild?.textContent === '0:07')
  expect(await rows(page)).toEqual(['Opening 0:20', 'Vorbis 0:07'])
  const art = page.getByTestId('art-panel')
  await page.waitForFunction(() => document.querySelector('[data-testid=art-panel]')?.getAttribute('data-art') === 'cover')
  expect(await art.locator('img').first().getAttribute('src')).toStartWith('blob:')
  await page.screenshot({ path: path.join(SHOTS, 'local-folder-cover-1280.png') })
  expect(consoleErrors).toEqual([])
  await context.close()
})

test('a local folder: every ogg and wma shows its length before any of them plays, not only the next track', async () => {
  const { page, context } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await gotoHydrated(page, '/')
  await page.getByTestId('folder-input').setInputFiles(path.join(fixtures, 'local', 'Mixed'))
  await expectTitle(page, 'One')
  await page.waitForFunction(() => document.querySelectorAll('button[data-queue-pos]')[3]?.lastElementChild?.textContent === '0:29')
  await page.waitForFunction(() => [...document.querySelectorAll('button[data-queue-pos]')].every((b) => b.lastElementChild?.textContent !== '0:00'))
  expect(await rows(page)).toEqual(['One 0:20', 'Two 0:20', 'Three 3:20', 'Four 0:29'])
  await context.close()
})

test('a remote folder over http: every track shows its length before it plays, and folder.jpg is the art', async () => {
  const m = await createMember(server.url)
  const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
  await setAdChance(page, 0)
  await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(page, '/')
  await page.getByRole('tab', { name: 'Remote URL' }).click()
  await page.getByLabel('Remote Folder URL').fill(`${listing.url}/Remote%20Set/`)
  await page.getByRole('button', { name: 'Load Remote Playlist' }).click()
  await expectTitle(page, '01 First')
  await page.waitForFunction(() => [...document.querySelectorAll('button[data-queue-pos]')].every((b) => b.lastElementChild?.textContent !== '0:00'))
  expect(await rows(page)).toEqual(['01 First 0:20', 'Second 0:07', '03 Third 0:05'])
  await page.waitForFunction(() => document.querySelector('[data-testid=art-panel]')?.getAttribute('data-art') === 'cover')
  expect(await page.getByTestId('art-panel').locator('img').first().getAttribute('src')).toBe(`${listing.url}/Remote%20Set/folder.jpg`)
  await page.getByRole('region', { name: 'Up Next' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: path.join(SHOTS, 'remote-durations-390.png') })
  expect(consoleErrors).toEqual([])
  await context.close()
})
