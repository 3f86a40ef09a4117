// Members' "Liked songs" in the playlist panel: the liked tracks of the loaded list, most recent
// like first, each playing on Enter; an empty state before any like; visitors don't get the view.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { ffmpeg } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let album: string

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-liked-'))
  album = path.join(fixtures, 'Mix')
  mkdirSync(album)
  for (const [file, title, hz] of [
    ['A First.mp3', 'First Light', 440],
    ['B Second.mp3', 'Second Wind', 550],
    ['C Third.mp3', 'Third Eye', 660],
  ] as const) {
    ffmpeg('-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=20`, '-metadata', `title=${title}`, path.join(album, file))
  }
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

const nowPlaying = (page: Page, title: string) => page.waitForFunction((t) => document.querySelector('[data-testid=track-title]')?.textContent === t, title)

async function openPlayerWithAlbum(page: Page) {
  await page.addInitScript(() => ((window as unknown as { __vibesAdChance: number }).__vibesAdChance = 0))
  await gotoHydrated(page, '/')
  await page.getByTestId('folder-input').setInputFiles(album)
  await nowPlaying(page, 'First Light')
}

test('a member lists the liked tracks of the loaded list, latest like first, and plays one with Enter', async () => {
  const m = await createMember(server.url)
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await openPlayerWithAlbum(page)

  await page.getByRole('button', { name: 'Show playlist' }).click()
  const likedView = page.getByRole('button', { name: 'Liked songs', exact: true })
  await likedView.click()
  await page.getByText('No liked songs in this list yet').waitFor()
  expect(await page.getByTestId('liked-count').textContent()).toBe('0 tracks')
  expect(await likedView.getAttribute('aria-pressed')).toBe('true')
  await likedView.click()
  await page.getByRole('heading', { name: 'Playlist' }).waitFor()

  const like = page.getByRole('button', { name: 'Like', exact: true })
  await like.click()
  await page.waitForFunction(() => document.querySelector('button[aria-label=Like]')?.getAttribute('aria-pressed') === 'true')
  await page.getByRole('button', { name: 'Next', exact: true }).click()
  await nowPlaying(page, 'Second Wind')
  await like.click()
  await page.waitForFunction(() => document.querySelector('button[aria-label=Like]')?.getAttribute('aria-pressed') === 'true')
  await page.getByRole('button', { name: 'Next', exact: true }).click()
  await nowPlaying(page, 'Third Eye')

  await likedView.click()
  const list = page.getByRole('list', { name: 'Liked songs' })
  await list.waitFor()
  const rows = list.getByRole('listitem')
  expect(await rows.allTextContents()).toEqual(['Second Wind', 'First Light'])
  expect(await page.getByTestId('liked-count').textContent()).toBe('2 tracks')

  await list.getByRole('button', { name: 'First Light' }).focus()
  await page.keyboard.press('Enter')
  await nowPlaying(page, 'First Light')
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
    return !el.paused && el.currentTime > 0.2
  })
  expect(consoleErrors).toEqual([])
  await context.close()
})

test('a visitor has no Liked songs view (likes of visitors stay in the browser, unlisted)', async () => {
  const { page, context } = await newPage(browser, server.url)
  await openPlayerWithAlbum(page)
  await page.getByRole('button', { name: 'Show playlist' }).click()
  await page.getByRole('heading', { name: 'Playlist' }).waitFor()
  expect(await page.getByRole('button', { name: 'Liked songs' }).count()).toBe(0)
  await context.close()
})
