// The queue in Debian's Chromium (decision 022): "Up Next" in play order, edited by
// mouse and by keyboard (Alt+ArrowUp/Down, announced), "Play next" / "Add to queue" from the
// playlist panel, "Clear queue", dragging a row's grip with the mouse and with a finger — each
// checked by pressing Next and reading what plays; the Repeat cycle all → one → off; and on a
// 390 px phone the 44 px controls, 24 px volume dots, the short art strip of a track without art
// and each Up Next row's actions folded into one 44 px "Track actions" menu.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../helpers/browser'
import { expectTitle, playsPast, tone, waitPaused, openPlayer } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let four: string

const PHONE = { width: 390, height: 844 }
const SHOTS = '/work/shots/player3'

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-player-queue-'))
  four = path.join(fixtures, 'Four')
  mkdirSync(four)
  for (const [i, name] of ['Alpha', 'Bravo', 'Charlie', 'Delta'].entries()) tone(path.join(four, `0${i + 1} ${name}.mp3`), 6, { title: name }, 440 + 60 * i)
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

async function open(viewport?: { width: number; height: number }) {
  const opened = await openPlayer(browser, server.url, viewport)
  await opened.page.getByTestId('folder-input').setInputFiles(four)
  await expectTitle(opened.page, 'Alpha')
  // Titles come from the files' tags, read just after the list shows file names.
  await opened.page.waitForFunction(() => [...document.querySelectorAll('[id^=queue-row-]')].map((e) => e.textContent).join() === 'Alpha,Bravo,Charlie,Delta')
  return opened
}

const upNext = (page: Page) => page.getByRole('list', { name: 'Track list' })
const queueRow = (page: Page, title: string) => upNext(page).getByRole('listitem').filter({ hasText: title })
/** The Up Next titles in the order shown. */
const shownOrder = (page: Page) => upNext(page).locator('button[data-queue-pos] span[id^=queue-row-]').allTextContents()
const announced = (page: Page) => page.getByTestId('queue-announcement').textContent()

async function next(page: Page, expected: string) {
  await page.getByRole('button', { name: 'Next', exact: true }).click()
  await expectTitle(page, expected)
}

describe('queue edits', () => {
  test('by mouse: play next, remove and clear change what plays next', async () => {
    const { page, context, consoleErrors } = await open()
    expect(await shownOrder(page)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta'])
    await queueRow(page, 'Delta').getByRole('button', { name: 'Play next' }).click()
    expect(await shownOrder(page)).toEqual(['Alpha', 'Delta', 'Bravo', 'Charlie'])
    expect(await announced(page)).toBe('Moved Delta to position 2 of 4')
    await next(page, 'Delta')

    // Removing what would play next: the one after it plays instead.
    await queueRow(page, 'Bravo').getByRole('button', { name: 'Remove from queue' }).click()
    expect(await announced(page)).toBe('Removed Bravo')
    expect(await page.getByTestId('track-count').textContent()).toBe('3 tracks')
    await next(page, 'Charlie')

    // Move up by mouse: Delta goes before Alpha; the list still wraps in play order.
    await queueRow(page, 'Delta').getByRole('button', { name: 'Move up' }).click()
    expect(await shownOrder(page)).toEqual(['Delta', 'Alpha', 'Charlie'])
    await next(page, 'Delta')

    await page.getByRole('button', { name: 'Clear queue' }).click()
    await expectTitle(page, 'No Track Selected')
    expect(await announced(page)).toBe('Queue cleared')
    expect(await page.getByTestId('track-count').textContent()).toBe('0 tracks')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('by keyboard: Alt+ArrowUp/Down move the focused row, the move is announced and focus follows', async () => {
    const { page, context } = await open()
    const charlie = queueRow(page, 'Charlie').locator('button[data-queue-pos]')
    await charlie.focus()
    await page.keyboard.press('Alt+ArrowUp')
    expect(await announced(page)).toBe('Moved Charlie to position 2 of 4')
    expect(await shownOrder(page)).toEqual(['Alpha', 'Charlie', 'Bravo', 'Delta'])
    // The focus is on Charlie's row at its new place, so a second press moves it again.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Charlie') && document.activeElement.getAttribute('data-queue-pos') === '1')
    await page.keyboard.press('Alt+ArrowDown')
    // Each move re-renders the list; the next key goes to Charlie's row once focus has followed it.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Charlie') && document.activeElement.getAttribute('data-queue-pos') === '2')
    await page.keyboard.press('Alt+ArrowDown')
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Charlie') && document.activeElement.getAttribute('data-queue-pos') === '3')
    expect(await shownOrder(page)).toEqual(['Alpha', 'Bravo', 'Delta', 'Charlie'])
    expect(await announced(page)).toBe('Moved Charlie to position 4 of 4')
    // The row buttons are reachable by Tab and work with Enter: one Shift+Tab is Delta's "Remove".
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove from queue')
    await page.keyboard.press('Enter')
    expect(await announced(page)).toBe('Removed Delta')
    await next(page, 'Bravo')
    await next(page, 'Charlie')
    await context.close()
  })

  test("by mouse drag: dropping a row's grip on another row moves it there and changes what plays next", async () => {
    const { page, context, consoleErrors } = await open()
    // Up Next in the middle of the screen, clear of the fixed player bar, as a mouse user scrolls to it.
    await upNext(page).evaluate((el) => el.scrollIntoView({ block: 'center' }))
    const grip = await queueRow(page, 'Delta').locator('[data-drag-handle]').boundingBox()
    const bravo = await queueRow(page, 'Bravo').boundingBox()
    await page.mouse.move(grip!.x + grip!.width / 2, grip!.y + grip!.height / 2)
    await page.mouse.down()
    await page.mouse.move(grip!.x + grip!.width / 2, bravo!.y + bravo!.height / 2, { steps: 8 })
    // While dragging, the drop place is marked on the row under the pointer.
    expect(await queueRow(page, 'Bravo').locator('[data-drop]').getAttribute('data-drop')).toBe('before')
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(SHOTS, 'up-next-drag-1280.png') })
    await page.mouse.up()
    expect(await shownOrder(page)).toEqual(['Alpha', 'Delta', 'Bravo', 'Charlie'])
    expect(await announced(page)).toBe('Moved Delta to position 2 of 4')
    await next(page, 'Delta')
    await next(page, 'Bravo')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('the playlist panel: "Play next" and "Add to queue" put a copy of a track in the queue', async () => {
    const { page, context } = await open()
    await page.getByRole('button', { name: 'Show playlist' }).click()
    const panel = page.getByRole('list', { name: 'Playlist' })
    await panel.getByRole('listitem').filter({ hasText: 'Charlie' }).getByRole('button', { name: 'Play next' }).click()
    await panel.getByRole('listitem').filter({ hasText: 'Alpha' }).getByRole('button', { name: 'Add to queue' }).click()
    expect(await page.getByTestId('track-count').textContent()).toBe('6 tracks')
    expect(await shownOrder(page)).toEqual(['Alpha', 'Charlie', 'Bravo', 'Charlie', 'Delta', 'Alpha'])
    await next(page, 'Charlie')
    await next(page, 'Bravo')
    await context.close()
  })
})

describe('repeat', () => {
  test('cycles all → one → off → all; off stops after the last track, all wraps', async () => {
    const { page, context } = await open()
    const repeat = page.getByRole('button', { name: 'Repeat', exact: true })
    const mode = async () => ({
      pressed: await repeat.getAttribute('aria-pressed'),
      // The visible badge is the button's ::after content (its name stays "Repeat").
      badge: await repeat.evaluate((b) => {
        const c = getComputedStyle(b, '::after').content
        return c === 'none' ? null : c.replaceAll('"', '')
      }),
      title: await repeat.getAttribute('title'),
    })
    expect(await mode()).toEqual({ pressed: 'true', badge: 'all', title: 'Repeat: all (the list starts again)' })
    await repeat.click()
    expect(await mode()).toEqual({ pressed: 'true', badge: '1', title: 'Repeat: this track' })
    await repeat.click()
    expect(await mode()).toEqual({ pressed: 'false', badge: null, title: 'Repeat: off (stops after the last track)' })

    // Off: the last track ends and nothing else plays.
    await upNext(page).getByRole('button', { name: /Delta/ }).first().click()
    await expectTitle(page, 'Delta')
    await playsPast(page, 0.2)
    await page.getByRole('slider', { name: 'Seek' }).fill('5.5')
    await waitPaused(page)
    await page.waitForTimeout(500)
    expect(await page.getByTestId('track-title').textContent()).toBe('Delta')
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor()

    // All again: the end of the last track wraps to the first.
    await repeat.click()
    expect((await mode()).badge).toBe('all')
    await page.getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.2)
    await page.getByRole('slider', { name: 'Seek' }).fill('5.5')
    await expectTitle(page, 'Alpha')
    await context.close()
  })
})

describe('phone (390 px)', () => {
  test('player buttons are 44 px, volume dots 24 px targets, and a track without art gets a short art strip', async () => {
    const { page, context } = await open(PHONE)
    const toolbar = page.getByRole('toolbar', { name: 'Playback controls' })
    for (const name of ['Shuffle', 'Rewind 10 seconds', 'Previous', 'Pause', 'Next', 'Forward 10 seconds', 'Stop', 'Repeat']) {
      const b = await toolbar.getByRole('button', { name, exact: true }).boundingBox()
      expect({ name, w: b!.width >= 44, h: b!.height >= 44 }).toEqual({ name, w: true, h: true })
    }
    for (const name of ['Like', 'Share', 'Mute', 'Show playlist']) {
      const b = await page.getByRole('button', { name, exact: true }).boundingBox()
      expect({ name, w: b!.width >= 44, h: b!.height >= 44 }).toEqual({ name, w: true, h: true })
    }
    for (const pct of [0, 20, 40, 60, 80, 100]) {
      const b = await page.getByRole('radio', { name: `Set volume to ${pct}%` }).boundingBox()
      expect({ pct, w: b!.width >= 24, h: b!.height >= 24 }).toEqual({ pct, w: true, h: true })
    }
    // The quick-set dots do not overlap: each click lands on its own dot.
    await page.getByRole('radio', { name: 'Set volume to 40%' }).click()
    expect(await page.evaluate(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).volume)).toBeCloseTo(0.4)

    const art = await page.getByTestId('art-panel').boundingBox()
    expect(await page.getByTestId('art-panel').getAttribute('data-art')).toBe('none')
    expect(art!.height).toBeLessThanOrEqual(120)
    const controls = await toolbar.boundingBox()
    expect(controls!.y + controls!.height).toBeLessThanOrEqual(PHONE.height)
    await context.close()
  })

  test('each Up Next row folds its actions into one 44 px menu; a finger drags a row by its grip', async () => {
    const { page, context, consoleErrors } = await open(PHONE)
    const delta = queueRow(page, 'Delta')
    expect(await delta.getByRole('button', { name: 'Play next' }).count()).toBe(0)
    const menuButton = delta.getByRole('button', { name: 'Track actions' })
    expect(await menuButton.getAttribute('aria-describedby')).toBe(await delta.locator('[id^=queue-row-]').getAttribute('id'))
    const box = await menuButton.boundingBox()
    expect({ w: box!.width >= 44, h: box!.height >= 44 }).toEqual({ w: true, h: true })
    await menuButton.click()
    const menu = page.getByRole('menu')
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Play next', 'Move up', 'Move down', 'Remove from queue'])
    mkdirSync(SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(SHOTS, 'up-next-row-menu-390.png') })
    await menu.getByRole('menuitem', { name: 'Play next' }).click()
    expect(await shownOrder(page)).toEqual(['Alpha', 'Delta', 'Bravo', 'Charlie'])

    await queueRow(page, 'Charlie').scrollIntoViewIfNeeded()
    // A finger on Charlie's grip, dragged up onto Delta's row (touch events through the DevTools protocol).
    const grip = await queueRow(page, 'Charlie').locator('[data-drag-handle]').boundingBox()
    const target = await queueRow(page, 'Delta').boundingBox()
    const cdp = await context.newCDPSession(page)
    const x = grip!.x + grip!.width / 2
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: grip!.y + grip!.height / 2 }] })
    for (let step = 1; step <= 6; step++) {
      const y = grip!.y + grip!.height / 2 + ((target!.y + target!.height / 2 - grip!.y - grip!.height / 2) * step) / 6
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] })
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    expect(await shownOrder(page)).toEqual(['Alpha', 'Charlie', 'Delta', 'Bravo'])
    await next(page, 'Charlie')
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
