// Podcasts as a member uses them, in Debian's Chromium on a desktop (1280×800) and a phone
// (390×844), against feeds nginx serves on loopback (tests/fixtures/podcasts): subscribe by URL on
// /podcasts, open the channel, play an episode in the one player (recorded with source
// `podcast`), pause; after a reload, and on another device (a fresh browser context), the
// episode shows the time left and plays on from where it was paused. A 2,000-episode feed lists its first episodes and
// finds one by search. Feed artwork shows through the server; none, or a page posing as a picture,
// leaves the plain podcast tile. SCREENSHOT_DIR=… saves pictures of the pages.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { type PodcastFeeds, startPodcastFeeds } from '../helpers/podcast-feeds'
import { media, playsPast, setAdChance, waitForRow } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const HOST = '127.0.0.2'
let server: TestServer
let feeds: PodcastFeeds
let browser: Browser

beforeAll(async () => {
  // A show whose "artwork" is an HTML page: the server refuses it, the page shows the plain tile.
  feeds = await startPodcastFeeds(HOST, {
    'fake-art.xml': (base) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Fake Art Show</title>
<itunes:image href="${base}/fake-art.jpg"/><description>Its image is a web page.</description>
<item><title>Only one</title><guid>fake-1</guid><enclosure url="${base}/audio/ep1.mp3" length="1" type="audio/mpeg"/></item>
</channel></rss>`,
  })
  server = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: HOST, PODCAST_REFRESH_MINUTES: '0' })
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await feeds?.stop()
})

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

/** Waits for the podcast artwork images in `scope` to have loaded; their paths (each drawn from the server, not the feed's host). */
async function loadedArtwork(page: Page, scope: string): Promise<string[]> {
  const selector = `${scope} img[src*="/artwork"]`
  await page.waitForFunction((sel) => {
    const imgs = [...document.querySelectorAll<HTMLImageElement>(sel)]
    return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0)
  }, selector)
  return page.locator(selector).evaluateAll((imgs) => imgs.map((img) => new URL((img as HTMLImageElement).src).pathname))
}

async function signedInPage(token: string, viewport: { width: number; height: number }) {
  const opened = await newPage(browser, server.url, { viewport })
  await setAdChance(opened.page, 0)
  // As the login form leaves a browser: the token in storage for the API, the session cookie the
  // media element's requests carry (an <audio> element sends no Authorization header).
  await opened.context.addInitScript((t) => localStorage.setItem('token', t), token)
  await opened.context.addCookies([{ name: 'vibes_session', value: token, url: server.url, httpOnly: true, sameSite: 'Lax' }])
  return opened
}

test('an admin keeps new feeds to admins from the Music page, and a member then sees why', async () => {
  const admin = await loginAdmin(server.url)
  const { context, page, consoleErrors } = await signedInPage(admin, { width: 1280, height: 800 })
  await gotoHydrated(page, '/admin/music')
  const only = page.getByRole('switch', { name: 'Only admins may add new podcast feeds' })
  await only.waitFor()
  expect(await only.isChecked()).toBe(false)
  // The switch's label is what a person clicks (the input itself sits under the drawn control).
  await page.getByText('Only admins may add new podcast feeds', { exact: true }).click()
  for (let i = 0; i < 50 && (await api(server.url, 'GET', '/podcasts/settings', { token: admin })).body.data.feedsBy !== 'admins'; i++) await Bun.sleep(100)
  expect((await api(server.url, 'GET', '/podcasts/settings', { token: admin })).body.data).toEqual({ feedsBy: 'admins' })
  expect(await only.isChecked()).toBe(true)
  await screenshot(page, 'admin-podcasts', 1280)
  expect(consoleErrors).toEqual([])
  await context.close()

  const m = await createMember(server.url)
  const member = await signedInPage(m.token, { width: 1280, height: 800 })
  await gotoHydrated(member.page, '/podcasts')
  await member.page.getByLabel('Feed URL').fill(feeds.url('atom.xml?admins-only'))
  await member.page.getByRole('button', { name: 'Subscribe' }).click()
  await member.page.getByText('Only admins may add new podcast feeds on this server').waitFor()
  await member.context.close()
  await api(server.url, 'PUT', '/podcasts/settings', { token: admin, body: { feedsBy: 'everyone' } })
}, 60_000)

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  describe(`${viewport.width}×${viewport.height}`, () => {
    test('subscribe, play an episode, pause, and resume there on another device', async () => {
      const m = await createMember(server.url)
      const { context, page, consoleErrors } = await signedInPage(m.token, viewport)
      await gotoHydrated(page, '/podcasts')
      await page.getByRole('heading', { level: 1, name: 'Podcasts' }).waitFor()
      await screenshot(page, 'podcasts-empty', viewport.width)
      await page.getByLabel('Feed URL').fill(feeds.url('show.xml'))
      await page.getByRole('button', { name: 'Subscribe' }).click()
      await page.getByRole('heading', { level: 1, name: 'Loopback Radio Hour' }).waitFor()
      // The feed's artwork, drawn through the server (the page's CSP allows no outside image).
      expect(await loadedArtwork(page, 'header')).toEqual([expect.stringMatching(/^\/api\/podcasts\/pc-[0-9a-f]+\/artwork$/)])
      const episodes = page.getByRole('list', { name: 'Episodes' })
      await episodes.getByRole('button', { name: /^Episode 1: Pilot/ }).waitFor()
      // Show notes are text: the feed's script never becomes part of the page.
      expect(await page.locator('script:not([src]):not([type])').evaluateAll((s) => s.some((e) => e.textContent?.includes("alert('feed')")))).toBe(false)
      await screenshot(page, 'podcast-channel', viewport.width)
      expect(await seriousViolations(page)).toEqual([])

      await episodes.getByRole('button', { name: /^Episode 1: Pilot/ }).click()
      await playsPast(page, 4)
      expect((await media(page)).src).toMatch(/\/api\/podcasts\/episodes\/pe-[0-9a-f]+\/audio$/)
      await page.getByRole('button', { name: 'Pause', exact: true }).first().click()
      const paused = (await media(page)).currentTime
      const saved = await waitForRow<{ position_ms: number }>(
        server,
        'SELECT p.position_ms FROM podcast_progress p JOIN users u ON u.id = p.user_id WHERE u.email = ?',
        [m.email],
        (r) => r !== null && Math.abs(r.position_ms - paused * 1000) < 1000,
      )
      await waitForRow(server, "SELECT source FROM play_events WHERE title = 'Episode 1: Pilot' AND source = 'podcast'", [])
      await screenshot(page, 'podcast-playing', viewport.width)

      // Reload: the episode shows its time left and plays on from the saved place.
      const channelPath = new URL(page.url()).pathname
      await page.reload()
      await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
      expect(new URL(page.url()).pathname).toBe(channelPath)
      const again = page.getByRole('list', { name: 'Episodes' }).getByRole('button', { name: /^Episode 1: Pilot/ })
      await again.getByText(/left$/).waitFor()
      await again.click()
      await playsPast(page, saved.position_ms / 1000)
      expect((await media(page)).currentTime).toBeLessThan(saved.position_ms / 1000 + 5)
      await page.getByRole('button', { name: 'Pause', exact: true }).first().click()
      await page.goto('/podcasts')
      await page.getByRole('link', { name: /Loopback Radio Hour/ }).waitFor()
      expect(await loadedArtwork(page, '[aria-label="Your podcasts"]')).toHaveLength(1)
      await screenshot(page, 'podcasts', viewport.width)
      expect(await seriousViolations(page)).toEqual([])
      expect(consoleErrors).toEqual([])
      await context.close()

      // Another device: a fresh context (no local queue) sees the place kept on the server.
      const other = await signedInPage(m.token, viewport)
      await gotoHydrated(other.page, '/podcasts')
      await other.page.getByRole('link', { name: /Loopback Radio Hour/ }).click()
      const row = other.page.getByRole('list', { name: 'Episodes' }).getByRole('button', { name: /^Episode 1: Pilot/ })
      await row.getByText(/left$/).waitFor()
      await row.click()
      await playsPast(other.page, saved.position_ms / 1000)
      const resumed = (await media(other.page)).currentTime
      expect(resumed).toBeGreaterThanOrEqual(saved.position_ms / 1000 - 0.5)
      expect(resumed).toBeLessThan(saved.position_ms / 1000 + 5)
      expect(other.consoleErrors).toEqual([])
      await other.context.close()
    }, 90_000)

    test('a 2,000-episode feed lists its newest episodes and finds one by search; feeds without usable artwork show the plain tile', async () => {
      const m = await createMember(server.url)
      const { context, page } = await signedInPage(m.token, viewport)
      await gotoHydrated(page, '/podcasts')
      await page.getByLabel('Feed URL').fill(feeds.url('many.xml'))
      await page.getByRole('button', { name: 'Subscribe' }).click()
      await page.getByRole('heading', { level: 1, name: 'Two Thousand Episodes' }).waitFor()
      const episodes = page.getByRole('list', { name: 'Episodes' })
      await episodes.getByRole('button', { name: /^Episode 2000: notes & tones/ }).waitFor()
      // This feed names no artwork: the plain podcast tile, no image.
      expect(await page.locator('img[src*="/artwork"]').count()).toBe(0)
      // Virtual: only the rows in view are in the page, however long the feed.
      expect(await episodes.getByRole('listitem').count()).toBeLessThan(60)
      await page.getByRole('searchbox', { name: 'Search episodes' }).fill('Episode 1234:')
      await episodes.getByRole('button', { name: /^Episode 1234: notes & tones/ }).waitFor()
      await page.getByText('1 episode matches').waitFor()
      await screenshot(page, 'podcast-search', viewport.width)
      await page.goto('/podcasts')
      await page.getByLabel('Feed URL').fill(feeds.url('fake-art.xml'))
      const refused = page.waitForResponse((res) => /\/api\/podcasts\/pc-[0-9a-f]+\/artwork/.test(res.url()))
      await page.getByRole('button', { name: 'Subscribe' }).click()
      expect((await refused).status()).toBe(404)
      await page.getByRole('heading', { level: 1, name: 'Fake Art Show' }).waitFor()
      // Its "artwork" is no picture: the server answers 404 and the image gives way to the tile.
      await page.waitForFunction(() => document.querySelectorAll('img[src*="/artwork"]').length === 0)
      await context.close()
    }, 60_000)
  })
}
