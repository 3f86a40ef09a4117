// The player's screen rules in Debian's Chromium, as a visitor on a desktop (1280 px) and a phone
// (390 px), by mouse and keyboard: titles and neighbours, the '..>' rule, the progress range,
// "Up Next" (30 % of the viewport, virtualised), the playlist panel, the volume slider, share
// (Web Share and the clipboard fallback), the Media Session, fullscreen, the mobile hint, drops,
// object URLs and the video → audio/mpeg fallback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { clip, expectTitle, garbage, media, playsPast, setAdChance, tone, openPlayer } from '../helpers/player'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let mixed: string
let big: string
let brokenVideo: string
let covered: string

const PHONE = { width: 390, height: 844 }

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-player-ui-'))
  mixed = path.join(fixtures, 'Mixed Tape')
  big = path.join(fixtures, 'Big Box')
  brokenVideo = path.join(fixtures, 'Bad Videos')
  for (const d of [mixed, big, brokenVideo]) mkdirSync(d)
  // Long enough that no track ends by itself while a test looks at it.
  tone(path.join(mixed, '01 Intro.mp3'), 8, { title: 'Intro', artist: 'The Openers', album: 'First Side' })
  // A tag title cut short by its source: the player shows the file name instead.
  tone(path.join(mixed, '02 Cut Short.mp3'), 8, { title: 'An Extremely Long Title That Got Cut..>', artist: 'Cutter' }, 550)
  clip(path.join(mixed, '03 Clip.mp4'), 10)
  tone(path.join(mixed, '04 Outro.mp3'), 15, { title: 'Outro', artist: 'The Closers' }, 660)
  // Long too: the list keeps the playing row in view, so a track ending while the test scrolls to
  // the last row would scroll it back (and take that row out of the DOM) before the click.
  tone(path.join(big, 'seed.mp3'), 30)
  for (let i = 1; i <= 40; i++) copyFileSync(path.join(big, 'seed.mp3'), path.join(big, `Track ${String(i).padStart(2, '0')}.mp3`))
  rmSync(path.join(big, 'seed.mp3'))
  writeFileSync(path.join(brokenVideo, '01 Broken Clip.mp4'), garbage())
  tone(path.join(brokenVideo, '02 Fine Song.mp3'), 3)
  covered = path.join(fixtures, 'With Cover')
  makeTone(path.join(covered, 'song.mp3'), { title: 'Covered Song', artist: 'Pictured', cover: true, seconds: 8 })
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

const open = (viewport?: { width: number; height: number }) => openPlayer(browser, server.url, viewport)

const trackList = (page: Page) => page.getByRole('list', { name: 'Track list' })
const row = (page: Page, name: string | RegExp) => trackList(page).getByRole('button', { name })

async function pickMixed(page: Page) {
  await page.getByTestId('folder-input').setInputFiles(mixed)
  await expectTitle(page, 'Intro')
}

describe('desktop screen', () => {
  test('empty state, titles, neighbours, the progress range and m:ss, keyboard activation', async () => {
    const { page, context, consoleErrors } = await open()
    // Nothing picked: the placeholder, "No Track Selected", a 0..100 progress bar at 0:00.
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    await page.getByText('Your playlist is empty').waitFor()
    const seek = page.getByRole('slider', { name: 'Seek' })
    expect(await seek.getAttribute('max')).toBe('100')
    expect(await seek.isDisabled()).toBe(true)
    expect(await page.getByTestId('time-duration').textContent()).toBe('0:00')
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isDisabled()).toBe(true)
    // Four promotions from the server, each with its "Learn More" link.
    const promos = page.getByRole('region', { name: 'Featured Promotions' }).getByRole('listitem')
    expect(await promos.count()).toBe(4)
    expect(await promos.getByRole('link', { name: /^Learn More about / }).count()).toBe(4)

    await pickMixed(page)
    await playsPast(page, 0.3)
    // The range becomes the track's duration; times read m:ss.
    await page.waitForFunction(() => Number(document.querySelector('input[aria-label=Seek]')?.getAttribute('max')) > 7.5)
    expect(Math.round(Number(await seek.getAttribute('max')))).toBe(8)
    expect(await page.getByTestId('time-duration').textContent()).toBe('0:08')
    expect(await page.getByTestId('time-current').textContent()).toMatch(/^0:0\d$/)
    await page.getByText('The Openers · First Side').waitFor()
    // A polite live region tells screen readers about the track.
    expect(await page.getByTestId('track-announcement').getAttribute('aria-live')).toBe('polite')
    expect(await page.getByTestId('track-announcement').textContent()).toBe('Current track: Intro by The Openers')

    // The cut tag title ('..>') is replaced by the file name, in the list and as the Next title.
    await row(page, /Cutter/).waitFor()
    expect(await row(page, /Cutter/).textContent()).toContain('02 Cut Short')
    expect(await trackList(page).textContent()).not.toContain('..>')
    expect(await page.getByTestId('previous-title').count()).toBe(0)
    expect(await page.getByTestId('next-title').textContent()).toBe('Next: 02 Cut Short')

    // Durations in the list (0:00 until known), the video icon on the clip only.
    await page.waitForFunction(
      () => [...document.querySelectorAll('[aria-label="Track list"] li')].map((b) => b.textContent?.slice(-4)).join() === '0:08,0:08,0:10,0:15',
    )
    expect(
      await row(page, /03 Clip/)
        .getByRole('img', { name: 'Video' })
        .count(),
    ).toBe(1)
    expect(await row(page, /Intro/).getByRole('img', { name: 'Video' }).count()).toBe(0)

    // Keyboard only: Tab to a row and press Enter to play it.
    await row(page, /Cutter/).focus()
    await page.keyboard.press('Enter')
    await expectTitle(page, '02 Cut Short')
    await playsPast(page, 0.2)
    expect(await page.getByTestId('track-announcement').textContent()).toBe('Current track: 02 Cut Short by Cutter')
    expect(await page.getByTestId('previous-title').textContent()).toBe('Previous: Intro')
    expect(await page.getByTestId('next-title').textContent()).toBe('Next: 03 Clip')
    expect(await row(page, /Cutter/).getAttribute('aria-current')).toBe('true')

    // Last track: no Next title with shuffle off; with shuffle on both neighbours show (wrapping).
    await row(page, /Outro/).click()
    await expectTitle(page, 'Outro')
    expect(await page.getByTestId('next-title').count()).toBe(0)
    expect(await page.getByTestId('previous-title').textContent()).toBe('Previous: 03 Clip')
    await page.getByRole('button', { name: 'Shuffle' }).click()
    await page.getByTestId('next-title').waitFor()
    await page.getByTestId('previous-title').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('the playlist panel, the volume slider and its dots, keyboard shortcuts', async () => {
    const { page, context } = await open()
    await pickMixed(page)
    await playsPast(page, 0.2)

    // Show playlist: a simple panel with title, artist and a "Video" badge on the clip.
    const toggle = page.getByRole('button', { name: 'Show playlist' })
    expect(await page.getByRole('list', { name: 'Playlist' }).count()).toBe(0)
    await toggle.click()
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    const panel = page.getByRole('list', { name: 'Playlist' })
    expect(await panel.getByRole('listitem').count()).toBe(4)
    expect(
      await panel
        .getByRole('button', { name: /03 Clip/ })
        .getByText('Video', { exact: true })
        .count(),
    ).toBe(1)
    expect(await panel.getByRole('button', { name: /Intro/ }).textContent()).toContain('The Openers')
    await panel.getByRole('button', { name: /Outro/ }).click()
    await expectTitle(page, 'Outro')
    await toggle.click()
    expect(await page.getByRole('list', { name: 'Playlist' }).count()).toBe(0)

    // The volume slider: named "Volume", 0..1, default 0.8, six quick-set dots, a % tooltip.
    const volume = page.getByRole('slider', { name: 'Volume' })
    expect(await volume.getAttribute('aria-valuemin')).toBe('0')
    expect(await volume.getAttribute('aria-valuemax')).toBe('1')
    expect(await volume.getAttribute('aria-valuenow')).toBe('0.8')
    expect(await volume.getAttribute('aria-valuetext')).toBe('80%')
    const dots = await page.getByRole('radio', { name: /^Set volume to \d+%$/ }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
    expect(dots).toEqual(['Set volume to 0%', 'Set volume to 20%', 'Set volume to 40%', 'Set volume to 60%', 'Set volume to 80%', 'Set volume to 100%'])
    await volume.hover()
    await page.getByRole('tooltip').getByText('80%').waitFor()
    await page.getByRole('radio', { name: 'Set volume to 20%' }).click()
    expect((await media(page)).volume).toBeCloseTo(0.2, 5)
    await page.getByRole('radio', { name: 'Set volume to 0%' }).click()
    expect((await media(page)).volume).toBe(0)
    await page.getByRole('radio', { name: 'Set volume to 100%' }).click()
    expect((await media(page)).volume).toBe(1)
    await volume.focus()
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('tooltip').getByText('99%').waitFor()
    expect((await media(page)).volume).toBeCloseTo(0.99, 5)

    // Shortcuts from the page: ↓/↑ volume, ←/→ ∓10 s (paused, so positions are exact), P previous, S shuffle.
    await page.getByRole('heading', { name: 'Up Next' }).click()
    await page.keyboard.press('ArrowDown')
    expect((await media(page)).volume).toBeCloseTo(0.94, 5)
    await page.keyboard.press('ArrowUp')
    expect((await media(page)).volume).toBeCloseTo(0.99, 5)
    await page.keyboard.press(' ')
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
    await page.getByRole('slider', { name: 'Seek' }).fill('1')
    await page.getByRole('heading', { name: 'Up Next' }).click()
    await page.keyboard.press('ArrowRight')
    expect((await media(page)).currentTime).toBe(11)
    await page.keyboard.press('ArrowLeft')
    expect((await media(page)).currentTime).toBe(1)
    await page.keyboard.press('ArrowLeft')
    expect((await media(page)).currentTime).toBe(0)
    await page.keyboard.press('p')
    await expectTitle(page, '03 Clip')
    await page.keyboard.press('s')
    expect(await page.getByRole('button', { name: 'Shuffle' }).getAttribute('aria-pressed')).toBe('true')
    await context.close()
  })

  test('"Up Next" is at most 30% of the viewport, virtualised, and plays any row', async () => {
    const { page, context } = await open()
    await page.getByTestId('folder-input').setInputFiles(big)
    await expectTitle(page, 'Track 01')
    const box = await trackList(page).evaluate((ul) => {
      const scroller = ul.parentElement!
      return {
        height: scroller.getBoundingClientRect().height,
        scrollHeight: scroller.scrollHeight,
        viewport: window.innerHeight,
        rows: ul.querySelectorAll('li').length,
      }
    })
    expect(box.height).toBeLessThanOrEqual(box.viewport * 0.3 + 0.5)
    expect(box.scrollHeight).toBeGreaterThan(box.height)
    expect(box.rows).toBeLessThan(40)
    expect(await page.getByTestId('track-count').textContent()).toBe('40 tracks')
    // Scrolled to the end, the last row is there and plays (the page scrolled down first, so the
    // list is clear of the fixed player bar).
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await trackList(page).evaluate((ul) => (ul.parentElement!.scrollTop = ul.parentElement!.scrollHeight))
    await row(page, /Track 40/).click()
    await expectTitle(page, 'Track 40')
    await playsPast(page, 0.1)
    expect(await trackList(page).getByRole('listitem').last().getAttribute('aria-posinset')).toBe('40')
    await context.close()
  })

  test('share uses the Web Share API when present, else copies to the clipboard', async () => {
    const { page, context } = await open()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await pickMixed(page)
    // Debian's Chromium has no navigator.share: the clipboard fallback.
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined')
    await page.getByRole('button', { name: 'Share' }).click()
    await page.getByRole('status').getByText('Copied to clipboard').waitFor()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(`Listening to "Intro" by The Openers on Vibes ${server.url}`)
    // A visitor's share interaction waits in the queue for a login.
    const queued = await page.evaluate(
      () => JSON.parse(localStorage.getItem('vibes:event-queue') ?? '[]') as Array<{ kind: string; input?: { interactionType: string; trackId: string } }>,
    )
    expect(queued.filter((q) => q.kind === 'interaction').map((q) => q.input)).toEqual([
      expect.objectContaining({ interactionType: 'share', trackId: 'local:Mixed Tape/01 Intro.mp3' }),
    ])

    // With Web Share, the share sheet gets the title and text (and no clipboard toast).
    await page.evaluate(() => {
      ;(navigator as unknown as { share: (d: ShareData) => Promise<void> }).share = async (d) =>
        void ((window as unknown as { __shared: ShareData }).__shared = d)
    })
    await page.getByRole('button', { name: 'Next', exact: true }).click()
    await expectTitle(page, '02 Cut Short')
    // Tags are read in the background; share once the artist has arrived.
    await page.getByText('Cutter', { exact: true }).first().waitFor()
    await page.getByRole('button', { name: 'Share' }).click()
    const shared = await page.waitForFunction(() => (window as unknown as { __shared?: ShareData }).__shared).then((h) => h.jsonValue())
    expect(shared).toEqual({ title: '02 Cut Short', text: 'Listening to "02 Cut Short" by Cutter on Vibes', url: server.url })
    await context.close()
  })

  test('Media Session: lock-screen metadata and playback state follow the track', async () => {
    const { page, context } = await open()
    await pickMixed(page)
    await playsPast(page, 0.2)
    const session = () =>
      page.evaluate(() => {
        const m = navigator.mediaSession.metadata
        return { title: m?.title, artist: m?.artist, album: m?.album, artwork: m?.artwork.length ?? 0, state: navigator.mediaSession.playbackState }
      })
    expect(await session()).toEqual({ title: 'Intro', artist: 'The Openers', album: 'First Side', artwork: 1, state: 'playing' })
    await page.getByRole('button', { name: 'Pause' }).click()
    await page.waitForFunction(() => navigator.mediaSession.playbackState === 'paused')
    await page.getByRole('button', { name: 'Next', exact: true }).click()
    await page.waitForFunction(() => navigator.mediaSession.metadata?.title === '02 Cut Short')
    expect((await session()).artist).toBe('Cutter')
    await context.close()
  })

  test('fullscreen on and off is tracked (landscape on a desktop); no phone hint on a desktop', async () => {
    const { page, context } = await open()
    await pickMixed(page)
    await row(page, /03 Clip/).click()
    await page.getByText('VIDEO', { exact: true }).waitFor()
    await playsPast(page, 0.3)
    const fullscreen = page.getByRole('button', { name: 'Fullscreen' })
    expect(await fullscreen.getAttribute('aria-pressed')).toBe('false')
    await fullscreen.click()
    await page.waitForFunction(() => document.fullscreenElement !== null)
    await page.waitForFunction(() => document.querySelector('[data-fullscreen]')?.getAttribute('data-fullscreen') === 'landscape')
    expect(await fullscreen.getAttribute('aria-pressed')).toBe('true')
    // The browser's controls are there in fullscreen, and the video fills the screen.
    expect((await media(page)).controls).toBe(true)
    const height = await page.getByTestId('media').evaluate((v) => v.getBoundingClientRect().height)
    expect(height).toBe(await page.evaluate(() => window.innerHeight))
    await fullscreen.click()
    await page.waitForFunction(() => document.fullscreenElement === null && !document.querySelector('[data-fullscreen]'))
    expect(await fullscreen.getAttribute('aria-pressed')).toBe('false')
    expect((await media(page)).controls).toBe(false)
    expect(await page.getByText('Tap video to show controls or use exit button').count()).toBe(0)
    await context.close()
  })

  test('an advert traps focus, closes on Escape or its close button, then the next track plays', async () => {
    const opened = await newPage(browser, server.url)
    const { page, context } = opened
    await setAdChance(page, 1)
    await gotoHydrated(page, '/')
    await pickMixed(page)
    await playsPast(page, 0.2)
    const seek = page.getByRole('slider', { name: 'Seek' })
    const dialog = page.getByRole('dialog')
    await seek.fill('7.7')
    await dialog.waitFor()
    expect((await media(page)).paused).toBe(true)
    await dialog.getByText('Advertisement will close in 5 seconds...').waitFor()
    expect(await dialog.getByRole('link', { name: 'Learn More' }).getAttribute('target')).toBe('_blank')
    await page.waitForFunction(() => !!document.activeElement?.closest('[role=dialog]'))
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expectTitle(page, '02 Cut Short')
    await playsPast(page, 0.2)

    await seek.fill('7.7')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Close advertisement' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expectTitle(page, '03 Clip')
    await playsPast(page, 0.2)
    await context.close()
  })

  test('a video that fails to decode becomes audio/mpeg, then shows the playback error', async () => {
    const { page, context } = await open()
    await page.getByTestId('folder-input').setInputFiles(brokenVideo)
    await expectTitle(page, '01 Broken Clip')
    // The fallback retried it as audio: no video icon or badge any more, then the error.
    const alert = page.getByRole('alert').filter({ hasText: 'Playback Error:' })
    await alert.waitFor()
    expect(
      await row(page, /Broken Clip/)
        .getByRole('img', { name: 'Video' })
        .count(),
    ).toBe(0)
    expect(await page.getByText('VIDEO', { exact: true }).count()).toBe(0)
    expect((await media(page)).kind).toBe('audio')
    await alert.getByRole('button', { name: 'Next Track' }).click()
    await expectTitle(page, '02 Fine Song')
    await playsPast(page, 0.2)
    await context.close()
  })
})

describe('phone and device input', () => {
  test('at 390 px a video shows the tap hint for 3 s; fullscreen is portrait; nothing overflows', async () => {
    const { page, context } = await open(PHONE)
    await pickMixed(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await row(page, /03 Clip/).click()
    const hint = page.getByText('Tap video to show controls or use exit button')
    await hint.waitFor()
    await playsPast(page, 0.2)
    await hint.waitFor({ state: 'detached', timeout: 6000 })
    await page.getByRole('button', { name: 'Fullscreen' }).click()
    await page.waitForFunction(() => document.querySelector('[data-fullscreen]')?.getAttribute('data-fullscreen') === 'portrait')
    // Entering fullscreen shows the hint again, with its exit button at hand.
    await hint.waitFor()
    await page.getByRole('button', { name: 'Fullscreen' }).click()
    await page.waitForFunction(() => document.fullscreenElement === null)
    await context.close()
  })

  test('files dropped onto the Local Files panel, or onto the player, play', async () => {
    const { page, context } = await open()
    const drop = (selector: string, name: string, bytes: number[]) =>
      page.evaluate(
        async ({ selector, name, bytes }) => {
          const dt = new DataTransfer()
          dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'audio/mpeg' }))
          dt.items.add(new File(['not media'], 'notes.txt', { type: 'text/plain' }))
          const zone = document.querySelector(selector)!
          zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }))
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
          const highlighted = zone.closest('[data-dragging]') !== null
          zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }))
          return highlighted
        },
        { selector, name, bytes },
      )
    expect(await drop('[data-testid=folder-input]', 'Dropped Song.mp3', [...readFileSync(path.join(mixed, '04 Outro.mp3'))])).toBe(true)
    await expectTitle(page, 'Outro')
    await playsPast(page, 0.2)
    expect(await page.getByTestId('track-count').textContent()).toBe('1 track')
    // The Remote URL tab is showing: the player itself still takes a drop.
    await page.getByRole('tab', { name: 'Remote URL' }).click()
    expect(await drop('[data-testid=track-title]', 'Another.mp3', [...readFileSync(path.join(mixed, '01 Intro.mp3'))])).toBe(true)
    await expectTitle(page, 'Intro')
    await playsPast(page, 0.2)
    expect(await page.locator('[data-dragging]').count()).toBe(0)
    await context.close()
  })

  test('cover art from the tags is shown and handed to the Media Session', async () => {
    const { page, context } = await open()
    await page.getByTestId('folder-input').setInputFiles(covered)
    await expectTitle(page, 'Covered Song')
    const cover = page.getByRole('img', { name: 'Cover of Covered Song' })
    await cover.waitFor()
    const src = await cover.getAttribute('src')
    expect(src).toStartWith('blob:')
    expect(await cover.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(32)
    await page.waitForFunction((s) => navigator.mediaSession.metadata?.artwork[0]?.src === s, src)
    await context.close()
  })

  test('replacing the folder revokes the old object URLs', async () => {
    const { page, context } = await open()
    await pickMixed(page)
    await playsPast(page, 0.2)
    const oldUrl = (await media(page)).src
    expect(oldUrl).toStartWith('blob:')
    // Loaded through a media element: the page's CSP lets media (not fetch) read blob: URLs.
    const probe = (u: string) =>
      page.evaluate(
        (src) =>
          new Promise<string>((resolve) => {
            const a = new Audio()
            a.onloadedmetadata = () => resolve('alive')
            a.onerror = () => resolve('revoked')
            a.src = src
          }),
        u,
      )
    expect(await probe(oldUrl)).toBe('alive')
    await page.getByTestId('folder-input').setInputFiles(big)
    await expectTitle(page, 'Track 01')
    await playsPast(page, 0.1)
    expect(await probe(oldUrl)).toBe('revoked')
    await context.close()
  })
})
