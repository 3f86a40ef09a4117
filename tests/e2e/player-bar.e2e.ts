// The one player bar, in Debian's Chromium at a 1280×800 desktop and a 390×844 phone: on every page
// (/, /player, /library, /folders, /charts, /about, /profile, /admin for an admin) with a track
// playing, each bar control — play/pause, previous, next, seek, volume, like, repeat, shuffle and
// the queue — is inside the viewport without scrolling, not covered, and does what it says; axe
// finds nothing serious on the bar, its queue drawer or the shortcuts dialog; `?` lists the keyboard
// shortcuts; the volume quick-set dots are one Tab stop moved with the arrow keys.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { api, adminEnv, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { expectTitle, media, playsPast, setAdChance } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }
const SHOTS = path.resolve(import.meta.dir, '../../shots')

let server: TestServer
let browser: Browser
let token: string
let trio: string
let single: string

beforeAll(async () => {
  server = await startServer(adminEnv)
  // Long tones with embedded cover art: nothing ends while a test walks the pages.
  makeTone(path.join(server.mediaRoot, 'trio', '01 Alpha.mp3'), { title: 'Alpha', artist: 'Trio', seconds: 40, cover: true })
  makeTone(path.join(server.mediaRoot, 'trio', '02 Bravo.mp3'), { title: 'Bravo', artist: 'Trio', seconds: 40, cover: true, frequency: 550 })
  makeTone(path.join(server.mediaRoot, 'trio', '03 Charlie.mp3'), { title: 'Charlie', artist: 'Trio', seconds: 40, cover: true, frequency: 660 })
  makeTone(path.join(server.mediaRoot, 'single', 'Lonely.mp3'), { title: 'Lonely', artist: 'Solo', seconds: 20 })
  mkdirSync(SHOTS, { recursive: true })
  token = await loginAdmin(server.url)
  // Written while the start-up scan may be running (slower to start on PostgreSQL, which takes a
  // lease first): that scan can index a half-written file, so the folders' lists is read after a scan.
  await scanLibraryNow(server.url, token)
  const folder = async (label: string, p: string) => {
    const made = await api(server.url, 'POST', '/user/folders', { token, body: { label, path: p } })
    expect(made.status).toBe(201)
    return made.body.data.id as string
  }
  trio = await folder('Trio', '/trio')
  single = await folder('Single', '/single')
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const PAGES = ['/', '/player', '/library', '/folders', '/charts', '/about', '/profile', '/admin']

/** An admin's page playing the Trio folder from /player. */
async function playing(viewport: { width: number; height: number }) {
  const opened = await newPage(browser, server.url, { viewport })
  await setAdChance(opened.page, 0)
  await opened.page.addInitScript((t) => localStorage.setItem('token', t), token)
  await gotoHydrated(opened.page, `/player?fid=${trio}`)
  await expectTitle(opened.page, 'Alpha')
  await playsPast(opened.page, 0.2)
  return opened
}

/** Client-side navigation, as a link does (a full load would start a new document and player). */
async function go(page: Page, to: string) {
  await page.evaluate((p) => {
    if (location.pathname === p) return
    // The old page's full player is marked: between / and /player the URL changes (and the old title
    // is still there) before the new page has rendered, so only the new page's title shows it has.
    for (const old of document.querySelectorAll('[data-testid=track-title]')) old.setAttribute('data-left', '')
    history.pushState(history.state, '', p)
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }))
  }, to)
  await page.waitForURL((u) => u.pathname === to)
  // The new page has replaced the old one: the full player is there only on / and /player.
  await page.locator('[data-testid=track-title][data-left]').waitFor({ state: 'detached' })
  await page.getByTestId('track-title').waitFor({ state: to === '/' || to === '/player' ? 'attached' : 'detached' })
}

const barOf = (page: Page) => page.getByRole('region', { name: 'Now playing' })
const barTitle = (bar: Locator) => bar.getByTestId('bar-title').textContent()

/** Phones fold the bar's other controls away; "More controls" brings them out. */
async function expand(bar: Locator) {
  const toggle = bar.getByRole('button', { name: 'More controls' })
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') {
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
  }
}

function controls(bar: Locator): [string, Locator][] {
  return [
    ['play/pause', bar.getByRole('button', { name: /^(Play|Pause)$/ })],
    ['previous', bar.getByRole('button', { name: 'Previous', exact: true })],
    ['next', bar.getByRole('button', { name: 'Next', exact: true })],
    ['seek', bar.getByRole('slider', { name: 'Seek' })],
    ['volume', bar.getByRole('slider', { name: 'Volume' })],
    ['like', bar.getByRole('button', { name: 'Like', exact: true })],
    ['repeat', bar.getByRole('button', { name: 'Repeat', exact: true })],
    ['shuffle', bar.getByRole('button', { name: 'Shuffle', exact: true })],
    ['queue', bar.getByRole('button', { name: 'Queue', exact: true })],
  ]
}

/** Each control is in the viewport as the page first shows (no scrolling) and nothing covers it. */
async function expectAllInView(page: Page, where: string, viewport: { width: number; height: number }, minTarget: number) {
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
  for (const [name, control] of controls(barOf(page))) {
    const box = await control.boundingBox()
    const place = box && {
      inside: box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height,
      target: box.height >= minTarget && (name === 'seek' || name === 'volume' || box.width >= minTarget),
      onTop: await control.evaluate((el) => {
        const r = el.getBoundingClientRect()
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2))
      }),
    }
    expect({ where, name, place }).toEqual({ where, name, place: { inside: true, target: true, onTop: true } })
  }
}

/** Uses every control once and checks what the listener hears and sees. */
async function exerciseEveryControl(page: Page) {
  const bar = barOf(page)
  const title = await barTitle(bar)

  await bar.getByRole('button', { name: 'Pause' }).click()
  await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
  await bar.getByRole('button', { name: 'Play', exact: true }).click()
  await playsPast(page, 0)

  await bar.getByRole('slider', { name: 'Seek' }).fill('25')
  await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).currentTime >= 24.5)
  await page.waitForFunction(() => /^0:2\d$/.test(document.querySelector('[data-testid=now-playing] [data-testid=time-current]')?.textContent ?? ''))
  expect(await bar.getByTestId('time-duration').textContent()).toBe('0:40')

  await bar.getByRole('slider', { name: 'Volume' }).fill('0.35')
  expect((await media(page)).volume).toBeCloseTo(0.35, 5)
  await bar.getByRole('slider', { name: 'Volume' }).fill('0.8')

  const like = bar.getByRole('button', { name: 'Like', exact: true })
  const liked = await like.getAttribute('aria-pressed')
  await like.click()
  await page.waitForFunction((was) => document.querySelector('[data-testid=now-playing] [aria-label=Like]')?.getAttribute('aria-pressed') !== was, liked)
  await like.click()
  await page.waitForFunction((was) => document.querySelector('[data-testid=now-playing] [aria-label=Like]')?.getAttribute('aria-pressed') === was, liked)

  const repeat = bar.getByRole('button', { name: 'Repeat', exact: true })
  const modes: (string | null)[] = [await repeat.getAttribute('data-repeat')]
  for (let i = 0; i < 3; i++) {
    await repeat.click()
    modes.push(await repeat.getAttribute('data-repeat'))
  }
  expect(new Set(modes.slice(0, 3)).size).toBe(3)
  expect(modes[3]).toBe(modes[0])

  const shuffle = bar.getByRole('button', { name: 'Shuffle', exact: true })
  const shuffled = await shuffle.getAttribute('aria-pressed')
  await shuffle.click()
  expect(await shuffle.getAttribute('aria-pressed')).not.toBe(shuffled)
  await shuffle.click()
  expect(await shuffle.getAttribute('aria-pressed')).toBe(shuffled)

  await bar.getByRole('button', { name: 'Next', exact: true }).click()
  await page.waitForFunction((t) => document.querySelector('[data-testid=bar-title]')?.textContent !== t, title)
  await bar.getByRole('button', { name: 'Previous', exact: true }).click()
  await page.waitForFunction((t) => document.querySelector('[data-testid=bar-title]')?.textContent === t, title)
  await playsPast(page, 0)

  await bar.getByRole('button', { name: 'Queue', exact: true }).click()
  const drawer = page.getByRole('dialog', { name: 'Queue' })
  await drawer.getByRole('heading', { name: 'Up Next' }).waitFor()
  const rows = drawer.getByRole('list', { name: 'Track list' }).getByRole('listitem')
  expect(await rows.count()).toBe(3)
  expect(await drawer.getByRole('button', { name: /Alpha/ }).getAttribute('aria-current')).toBe(title === 'Alpha' ? 'true' : 'false')
  // The drawer takes the focus as it opens; Escape then closes it.
  await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') != null)
  await page.keyboard.press('Escape')
  await drawer.waitFor({ state: 'detached' })
}

type Finding = { id: string; impact: string | null; targets: string[] }

/** Serious and critical axe violations inside `selector`. */
async function axeOn(page: Page, selector: string): Promise<Finding[]> {
  await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(async (sel) => {
    const axe = (window as unknown as { axe: { run: (ctx: object, opts: object) => Promise<{ violations: any[] }> } }).axe
    const result = await axe.run({ include: [sel] }, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: v.impact as string | null,
      targets: (v.nodes as { target: unknown[]; failureSummary?: string }[]).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`),
    }))
  }, selector)
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

for (const [name, viewport, minTarget] of [
  ['desktop 1280×800', DESKTOP, 24],
  ['phone 390×844', PHONE, 44],
] as const) {
  describe(name, () => {
    test('on every page the bar has every control in view, each works', async () => {
      const { page, context, consoleErrors } = await playing(viewport)
      for (const to of PAGES) {
        await go(page, to)
        const bar = barOf(page)
        await bar.waitFor()
        await expand(bar)
        try {
          await expectAllInView(page, to, viewport, minTarget)
        } catch (e) {
          await page.screenshot({ path: path.join(SHOTS, 'failure.png') })
          require('node:fs').writeFileSync(path.join(SHOTS, 'failure.txt'), `${to}\n${await bar.innerHTML()}`)
          throw e
        }
        await exerciseEveryControl(page)
        expect((await media(page)).paused).toBe(false)
      }
      expect(consoleErrors.filter((e) => !e.includes('favicon'))).toEqual([])
      await context.close()
    }, 240_000)

    test('the full player on / and /player shows its title and art above the bar, without scrolling', async () => {
      const { page, context } = await playing(viewport)
      for (const to of ['/player', '/']) {
        await go(page, to)
        await page.waitForFunction(() => document.querySelector('[data-testid=art-panel]')?.getAttribute('data-art') === 'cover')
        await page.waitForFunction(() => (document.querySelector('[data-testid=art-panel] img') as HTMLImageElement | null)?.complete === true)
        const bar = (await barOf(page).boundingBox())!
        const art = (await page.getByTestId('art-panel').boundingBox())!
        const title = (await page.getByTestId('track-title').boundingBox())!
        expect(await page.evaluate(() => window.scrollY)).toBe(0)
        if (viewport === DESKTOP) {
          // The whole player card's media area sits between the top bar and the player bar.
          expect({ to, artEnd: art.y + art.height <= bar.y, titleTop: title.y >= 0 }).toEqual({ to, artEnd: true, titleTop: true })
        } else {
          // Phone: the track and the start of its art are in view above the mini-player.
          expect({ to, title: title.y + title.height <= bar.y, art: art.y < bar.y }).toEqual({ to, title: true, art: true })
        }
        await page.screenshot({ path: path.join(SHOTS, `${viewport === DESKTOP ? 'desktop' : 'phone'}-${to === '/' ? 'home' : 'player'}.png`) })
      }
      await context.close()
    })

    test('axe finds nothing serious on the bar, the queue drawer or the shortcuts dialog', async () => {
      const { page, context } = await playing(viewport)
      await go(page, '/about')
      const bar = barOf(page)
      await expand(bar)
      await page.screenshot({ path: path.join(SHOTS, `${viewport === DESKTOP ? 'desktop' : 'phone'}-about-bar.png`) })
      const report: Finding[] = [...(await axeOn(page, '[data-testid=now-playing]'))]
      await bar.getByRole('button', { name: 'Queue', exact: true }).click()
      await page.getByRole('dialog', { name: 'Queue' }).getByRole('list', { name: 'Track list' }).waitFor()
      await page.screenshot({ path: path.join(SHOTS, `${viewport === DESKTOP ? 'desktop' : 'phone'}-queue.png`) })
      report.push(...(await axeOn(page, '[role=dialog]')))
      await page.keyboard.press('Escape')
      await page.getByRole('dialog').waitFor({ state: 'detached' })
      await page.locator('body').press('?')
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
      await page.screenshot({ path: path.join(SHOTS, `${viewport === DESKTOP ? 'desktop' : 'phone'}-shortcuts.png`) })
      report.push(...(await axeOn(page, '[role=dialog]')))
      expect(report).toEqual([])
      await context.close()
    })
  })
}

describe('keyboard', () => {
  test('? opens a dialog listing every player shortcut; typing ? in a field does not', async () => {
    const { page, context } = await playing(DESKTOP)
    await go(page, '/charts')
    await page.locator('body').press('?')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await dialog.waitFor()
    const rows = await dialog.getByRole('row').evaluateAll((trs) => trs.map((tr) => (tr.textContent ?? '').replace(/\s+/g, ' ').trim()))
    // Every key the player's keyboard handler answers, with what it does.
    for (const expected of [
      /^Space.*Play or pause$/,
      /^←.*Back 10 seconds$/,
      /^→.*Forward 10 seconds$/,
      /^↑.*Volume up$/,
      /^↓.*Volume down$/,
      /^M.*Mute or unmute$/,
      /^N.*Next track$/,
      /^P.*Previous track$/,
      /^S.*Shuffle on or off$/,
      /^R.*Repeat mode/,
      /^\?.*Show this list$/,
    ])
      expect({ expected: String(expected), found: rows.some((r) => expected.test(r)) }).toEqual({ expected: String(expected), found: true })
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    // The shortcuts really answer from any page: N plays the next track.
    await page.locator('body').press('n')
    await page.waitForFunction(() => document.querySelector('[data-testid=bar-title]')?.textContent === 'Bravo')

    // A "?" typed into a text field is text, not a shortcut.
    await go(page, '/')
    await page.getByRole('tab', { name: 'Remote URL' }).click()
    const field = page.getByRole('textbox', { name: 'Remote Folder URL' })
    await field.fill('')
    await field.press('?')
    expect(await field.inputValue()).toBe('?')
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0)
    await context.close()
  })

  test('the volume quick-set dots are one Tab stop; the arrow keys move between them and set the volume', async () => {
    const { page, context } = await playing(DESKTOP)
    await go(page, '/about')
    const bar = barOf(page)
    const presets = bar.getByRole('radiogroup', { name: 'Volume presets' })
    expect(await presets.getByRole('radio').count()).toBe(6)
    expect(await presets.locator('[tabindex="0"]').count()).toBe(1)
    // Default volume 0.8: the 80 % dot is the checked one and the group's tab stop.
    expect(await presets.getByRole('radio', { checked: true }).getAttribute('aria-label')).toBe('Set volume to 80%')

    await bar.getByRole('slider', { name: 'Volume' }).focus()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Set volume to 80%')
    await page.keyboard.press('ArrowLeft')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Set volume to 60%')
    expect((await media(page)).volume).toBeCloseTo(0.6, 5)
    expect(await presets.getByRole('radio', { checked: true }).getAttribute('aria-label')).toBe('Set volume to 60%')
    await page.keyboard.press('End')
    expect((await media(page)).volume).toBe(1)
    // One more Tab leaves the group (no stop on each dot).
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('[role=radiogroup]') === null)).toBe(true)
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Set volume to 100%')
    await context.close()
  })
})

test("a folder of one track says so in the singular: 'Playing 1 track from your collection'", async () => {
  const { page, context } = await newPage(browser, server.url)
  await setAdChance(page, 0)
  await page.addInitScript((t) => localStorage.setItem('token', t), token)
  await gotoHydrated(page, `/player?fid=${single}`)
  await expectTitle(page, 'Lonely')
  await page.getByText('Playing 1 track from your collection', { exact: true }).waitFor()
  await context.close()
})

describe('phone 390×844 layout', () => {
  test('an opaque error toast, every Library tab on screen, an uncut search placeholder, 44 px folder arrows', async () => {
    const { page, context } = await playing(PHONE)
    // Share falls back to the clipboard; refused, it raises the error toast.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true })
      navigator.clipboard.writeText = () => Promise.reject(new Error('denied'))
    })
    await barOf(page).getByRole('button', { name: 'Share', exact: true }).click()
    const toast = page.locator('[data-type=error]').filter({ hasText: 'Share failed' })
    await toast.waitFor()
    // The toast's own background is fully opaque: the page's text cannot show through it.
    const background = await toast.evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(background).toMatch(/^rgb\(/)

    // The header's search box shows its whole placeholder.
    const search = page.getByRole('combobox', { name: 'Search library' })
    const fits = await search.evaluate((el) => {
      const input = el as HTMLInputElement
      const style = getComputedStyle(input)
      const ctx = document.createElement('canvas').getContext('2d')!
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
      return { text: ctx.measureText(input.placeholder).width, room }
    })
    expect(fits.text).toBeLessThanOrEqual(fits.room)

    // Every Library tab, Songs included, is inside the screen without sideways scrolling.
    await go(page, '/library')
    const tabs = page.getByRole('tablist').getByRole('tab')
    expect(await tabs.count()).toBe(5)
    for (const box of await tabs.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) expect(box.right).toBeLessThanOrEqual(PHONE.width)
    await page.screenshot({ path: path.join(SHOTS, 'phone-library.png') })

    // Phones reorder folders with ↑/↓ buttons: 44 px targets.
    await go(page, '/folders')
    for (const name of ['Move Trio down', 'Move Single up']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!
      expect({ name, w: box.width, h: box.height }).toEqual({ name, w: 44, h: 44 })
    }
    await page.screenshot({ path: path.join(SHOTS, 'phone-folders.png') })
    await context.close()
  })
})
