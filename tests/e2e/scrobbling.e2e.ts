// Scrobbling on /profile in Debian's Chromium against the built server and loopback stand-ins for
// ListenBrainz and Last.fm (tests/helpers/scrobble-services.ts, which check every field): a member
// pastes their ListenBrainz token and connects, connects Last.fm through its auth page (and back to
// /profile), plays a track in the web player, and sees on /profile that it was sent; then
// disconnects ListenBrainz. Screenshots at 1280 and 390 px wide; axe finds nothing serious, and
// at phone width nothing scrolls sideways.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { setAdChance } from '../helpers/player'
import { LastfmStandIn, ListenBrainzStandIn } from '../helpers/scrobble-services'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const lb = new ListenBrainzStandIn()
const lastfm = new LastfmStandIn()
let server: TestServer
let browser: Browser

/** A port free now, so APP_URL (where Last.fm sends the member back) can name it before start-up. */
function freePort() {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() })
  const port = probe.port as number
  probe.stop(true)
  return port
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  lb.start()
  lastfm.start()
  const port = freePort()
  server = await startServer({
    ...adminEnv,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    LISTENBRAINZ_API_URL: lb.url,
    LASTFM_API_KEY: lastfm.apiKey,
    LASTFM_API_SECRET: lastfm.secret,
    LASTFM_API_URL: lastfm.url,
    LASTFM_AUTH_URL: `${lastfm.url}/api/auth/`,
  })
  makeTone(path.join(server.mediaRoot, 'Sky Trio', 'Hours', '01 Morning Tone.mp3'), { title: 'Morning Tone', artist: 'Sky Trio', album: 'Hours', seconds: 6 })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterEach(() => {
  expect(lb.problems).toEqual([])
  expect(lastfm.problems).toEqual([])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await lb.stop()
  await lastfm.stop()
})

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: any[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({ id: v.id as string, impact: v.impact as string | null, targets: v.nodes.map((n: any) => n.target.join(' ')) }))
  })
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `[${v.impact}] ${v.id}: ${v.targets.join(', ')}`)
}

const section = (page: Page) => page.getByRole('region', { name: 'Scrobbling' })

/** The window with the section's top just under the sticky header. */
async function shoot(page: Page, file: string) {
  await section(page).evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80))
  await page.screenshot({ path: path.join(SHOTS, file) })
}

describe('/profile scrobbling', () => {
  test('connect ListenBrainz and Last.fm, play a track, see it sent; then disconnect', async () => {
    const m = await createMember(server.url, { username: 'Sam Scrobbles' })
    const token = crypto.randomUUID()
    lb.tokens.set(token, 'sam-on-lb')
    lastfm.nextAccount = 'sam-on-lastfm'
    const { context, page, consoleErrors } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/profile')

    // A token ListenBrainz does not know is refused, in words.
    await section(page).getByLabel('ListenBrainz user token').fill(crypto.randomUUID())
    await section(page).getByRole('button', { name: 'Connect ListenBrainz' }).click()
    await section(page).getByRole('alert').getByText('ListenBrainz did not accept this token').waitFor()
    await section(page).getByLabel('ListenBrainz user token').fill(token)
    await section(page).getByRole('button', { name: 'Connect ListenBrainz' }).click()
    await section(page).getByText('ListenBrainz connected as sam-on-lb.').waitFor()
    await section(page)
      .getByText(/Connected as sam-on-lb/)
      .waitFor()

    // Last.fm: off to its page, allowed there, and back here connected.
    await section(page).getByRole('button', { name: 'Connect Last.fm' }).click()
    await section(page).getByText('Last.fm connected as sam-on-lastfm.').waitFor()
    expect(new URL(page.url()).search).toBe('')

    // Play the track through in the web player.
    await gotoHydrated(page, '/library?tab=albums')
    await page.getByRole('list', { name: 'Albums' }).getByRole('link', { name: /Hours/ }).click()
    await page.getByRole('main').getByRole('button', { name: 'Play', exact: true }).click()
    // The player reports the time heard as it goes; past half of the track it is a listen.
    for (let i = 0; i < 400 && lb.listens.length === 0; i++) await Bun.sleep(50)
    expect(lb.listens.length).toBeGreaterThan(0)
    // The queue repeats the album: stop it, so the list below stays still.
    await page.getByTestId('now-playing').getByRole('button', { name: 'Pause' }).click()

    await gotoHydrated(page, '/profile')
    const sent = section(page).getByRole('list', { name: 'Recently sent' })
    await sent
      .getByText(/ListenBrainz · listen · sent/)
      .first()
      .waitFor({ timeout: 20_000 })
    await sent
      .getByText(/ListenBrainz · now playing · sent/)
      .first()
      .waitFor()
    for (const listen of lb.listens)
      expect(listen).toEqual({
        user: 'sam-on-lb',
        artist: 'Sky Trio',
        track: 'Morning Tone',
        album: 'Hours',
        durationMs: expect.any(Number),
        listenedAt: expect.any(Number),
        listenType: 'single',
      })
    // Six seconds is too short for Last.fm (over 30 s only): "now playing" only.
    await sent
      .getByText(/Last\.fm · now playing · sent/)
      .first()
      .waitFor()
    expect(lastfm.scrobbles).toEqual([])
    expect(await sent.getByText(/Last\.fm · listen/).count()).toBe(0)

    expect(await seriousViolations(page)).toEqual([])
    await shoot(page, 'profile-scrobbling-1280.png')
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await shoot(page, 'profile-scrobbling-390.png')

    await section(page).getByRole('button', { name: 'Disconnect ListenBrainz' }).click()
    await section(page).getByText('ListenBrainz disconnected. Nothing more is sent there.').waitFor()
    await section(page).getByLabel('ListenBrainz user token').waitFor()
    await shoot(page, 'profile-scrobbling-connect-390.png')
    expect(consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([])
    await context.close()
  })
})
