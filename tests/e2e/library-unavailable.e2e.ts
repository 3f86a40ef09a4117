// A library file that cannot play on this server (a format only a conversion plays, on a server
// without ffmpeg) says so where a member picks tracks, in Debian's Chromium: the album's track list
// and the player's Up Next mark it "needs ffmpeg"; a file that plays as it is carries no mark.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  server = await startServer({ ...adminEnv, FFMPEG_PATH: '/nonexistent/ffmpeg' })
  makeTone(path.join(server.mediaRoot, 'Redmond', 'Windows', '01 Chime.wma'), { title: 'Chime', artist: 'Redmond', album: 'Windows', seconds: 5 })
  makeTone(path.join(server.mediaRoot, 'Redmond', 'Windows', '02 Plain.mp3'), { title: 'Plain', artist: 'Redmond', album: 'Windows', seconds: 30 })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

test('a track that needs ffmpeg is marked in the album list and in Up Next; one that plays is not', async () => {
  const m = await createMember(server.url)
  const { context, page } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(page, '/library?tab=albums')
  await page
    .getByRole('list', { name: 'Albums' })
    .getByRole('link', { name: /Windows/ })
    .click()
  const tracks = page.getByRole('list', { name: 'Tracks of Windows' })
  await tracks.getByRole('listitem').first().waitFor()
  expect(await tracks.getByRole('listitem').filter({ hasText: 'Chime' }).textContent()).toContain('needs ffmpeg')
  expect(await tracks.getByRole('listitem').filter({ hasText: 'Plain' }).textContent()).not.toContain('needs ffmpeg')

  // Plain plays; the queue the player keeps still knows why Chime cannot.
  await tracks.getByRole('listitem').filter({ hasText: 'Plain' }).getByRole('button').first().click()
  await gotoHydrated(page, '/')
  const upNext = page.getByRole('list', { name: 'Track list' })
  await upNext.getByRole('listitem').filter({ hasText: 'Chime' }).waitFor()
  expect(await upNext.getByRole('listitem').filter({ hasText: 'Chime' }).textContent()).toContain('needs ffmpeg')
  expect(await upNext.getByRole('listitem').filter({ hasText: 'Plain' }).textContent()).not.toContain('needs ffmpeg')
  await context.close()
})
