// Charts that play, in Debian's Chromium against the built server: a signed-in member's chart
// entry that the library holds has an enabled Listen button that plays the library track in the
// one player; an entry the library lacks keeps the disabled Listen with "Listening functionality
// unavailable", as every entry does for a visitor. An entry the library holds has the same ⋯ track
// menu as every library list (Add to queue puts the library track at the end of the queue).
// The instance's country (DEFAULT_COUNTRY=BR) has no chart of its own, so the page opens on the
// worldwide chart. Screenshots at 1280×800 and 390×844 go to shots/.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../shots')
let server: TestServer
let browser: Browser
let member: Awaited<ReturnType<typeof createMember>>

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  server = await startServer({ ...adminEnv, DEFAULT_COUNTRY: 'BR' })
  mkdirSync(path.join(server.mediaRoot, 'pop'))
  tone(path.join(server.mediaRoot, 'pop', 'Joga.mp3'), 20, { title: 'Jóga', artist: 'Björk' })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  member = await createMember(server.url)
  for (const [title, artist, n] of [
    ['JOGA', 'bjork', 2],
    ['Far Away Song', 'Nobody Here', 1],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const res = await api(server.url, 'POST', '/playlist/plays', {
        token: member.token,
        body: { trackUrl: `https://x.example/${i}.mp3`, title, artist, duration: 60 },
      })
      expect(res.status).toBe(201)
    }
  }
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('charts that play', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`a member plays a chart entry the library holds (${viewport.width}px)`, async () => {
      const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport })
      await setAdChance(page, 0)
      await page.addInitScript((t) => localStorage.setItem('token', t), member.token)
      await gotoHydrated(page, '/charts')
      await page.getByRole('heading', { name: 'Top songs · Worldwide (this server)' }).waitFor()
      const rows = page.getByRole('list', { name: 'Most-Played Songs' }).getByRole('listitem')
      await rows.first().getByText('JOGA').waitFor()
      const missing = rows.nth(1).getByRole('button', { name: 'Listen' })
      expect(await missing.isDisabled()).toBe(true)
      expect(await missing.getAttribute('aria-describedby')).toBe('listen-unavailable')
      const listen = rows.first().getByRole('button', { name: 'Listen to JOGA' })
      expect(await listen.isEnabled()).toBe(true)
      await page.screenshot({ path: path.join(SHOTS, `charts-listen-${viewport.width}.png`), fullPage: true })
      await listen.click()
      await page.getByRole('region', { name: 'Now playing' }).getByText('Jóga').waitFor()
      await page.waitForFunction(() => {
        const media = document.querySelector('audio, video') as HTMLMediaElement | null
        return media !== null && !media.paused && media.currentTime > 0.3
      })
      expect(await page.evaluate(() => (document.querySelector('audio, video') as HTMLMediaElement).src)).toContain('/media/pop/Joga.mp3')
      await page.screenshot({ path: path.join(SHOTS, `charts-playing-${viewport.width}.png`) })

      // The ⋯ menu of the held entry, as in every library list; the entry the library lacks has none.
      expect(
        await rows
          .nth(1)
          .getByRole('button', { name: /^More actions/ })
          .count(),
      ).toBe(0)
      await rows.first().getByRole('button', { name: 'More actions for Jóga' }).click()
      await page.getByRole('menuitem', { name: 'Add to queue' }).waitFor()
      await page.screenshot({ path: path.join(SHOTS, `charts-track-menu-${viewport.width}.png`) })
      await page.getByRole('menuitem', { name: 'Add to queue' }).click()
      await page.getByText('Added to queue').waitFor()
      await page.waitForFunction(() => {
        const q = JSON.parse(localStorage.getItem('vibes:player:queue') ?? '{"tracks":[]}') as { tracks: { title: string }[] }
        return q.tracks.map((t) => t.title).join('|') === 'Jóga|Jóga'
      })
      expect(consoleErrors).toEqual([])
      await context.close()
    })
  }

  test('a visitor sees every Listen disabled, on the worldwide chart when the instance country has none', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/charts')
    await page.getByRole('heading', { name: 'Top songs · Worldwide (this server)' }).waitFor()
    const list = page.getByRole('list', { name: 'Most-Played Songs' })
    await list.getByText('JOGA').waitFor()
    const buttons = list.getByRole('button', { name: 'Listen' })
    expect(await buttons.count()).toBe(2)
    for (const b of await buttons.all()) expect(await b.isDisabled()).toBe(true)
    await context.close()
  })
})
