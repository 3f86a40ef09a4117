// /folders and /player in Debian's Chromium against the built server: add, edit, delete,
// drag to reorder (and arrows at phone width), keyboard moves, order kept after reload, the
// expired-token flow, and Play Folder playing a library folder.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { api, createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  makeTone(path.join(server.mediaRoot, 'music/set/1 Morning.mp3'), { title: 'Morning', artist: 'Ada', seconds: 4 })
  makeTone(path.join(server.mediaRoot, 'music/set/2 Evening.mp3'), { title: 'Evening', seconds: 2 })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A fresh member with `folders` already saved, signed in through the stored token. */
async function memberPage(folders: Array<[string, string]> = [], viewport?: { width: number; height: number }) {
  const m = await createMember(server.url)
  for (const [label, p] of folders) await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label, path: p } })
  const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport })
  await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(page, '/folders')
  return { m, page, context, consoleErrors }
}

const cardLabels = (page: Page) => page.locator('[data-folder-id] h2').allTextContents()
const serverLabels = async (token: string) => (await api(server.url, 'GET', '/user/folders', { token })).body.data.map((f: { label: string }) => f.label)
async function waitSaved(page: Page) {
  await page.getByText('Saving folder order...').waitFor()
  await page.getByText('Saving folder order...').waitFor({ state: 'detached' })
}

describe('folders screen', () => {
  test('empty state → add → edit → delete, with the dialog texts and toasts', async () => {
    const { page, context, consoleErrors } = await memberPage()
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor()
    await page.getByText('Add your first folder to get started.').waitFor()

    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Add New Folder' }).waitFor()
    const submit = dialog.getByRole('button', { name: 'Add Folder' })
    expect(await submit.isDisabled()).toBe(true)
    await dialog.getByLabel('Folder Name').fill('Road Trip')
    await dialog.getByLabel('Path or URL').fill('/music/../etc')
    await dialog.getByLabel('Folder Name').focus()
    await dialog.getByText('Invalid path format').waitFor()
    await dialog.getByLabel('Path or URL').fill('/music/set')
    await submit.click()
    await page.getByText('Your folder has been created successfully').waitFor()
    await dialog.waitFor({ state: 'detached' })
    const card = page.locator('[data-folder-id]').first()
    expect(await card.locator('h2').textContent()).toBe('Road Trip')
    expect(await card.getByText('Local', { exact: true }).count()).toBe(1)

    await card.getByRole('button', { name: 'Edit Road Trip' }).click()
    await dialog.getByRole('heading', { name: 'Edit Folder' }).waitFor()
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('Road Trip')
    await dialog.getByLabel('Folder Name').fill('Radio')
    await dialog.getByLabel('Path or URL').fill('https://radio.example/music/')
    await dialog.getByRole('button', { name: 'Update Folder' }).click()
    await page.getByText('Your folder has been updated successfully').waitFor()
    await card.getByText('Remote', { exact: true }).waitFor()
    expect(await card.locator('h2').textContent()).toBe('Radio')

    // Fields reset on open.
    await page.getByRole('button', { name: 'Add a new folder' }).click()
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('')
    expect(await dialog.getByLabel('Path or URL').inputValue()).toBe('')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    await card.getByRole('button', { name: 'Delete Radio' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Are you sure you want to delete this folder?').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByText('Your folder has been deleted successfully').waitFor()
    await page.getByRole('heading', { name: 'No folders yet' }).waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('drag a card by its handle to reorder; saved after the pause; kept after reload', async () => {
    const { m, page, context, consoleErrors } = await memberPage([
      ['Alpha', '/a'],
      ['Beta', '/b'],
      ['Gamma', '/c'],
    ])
    await page.getByText('Gamma').waitFor()
    expect(await page.getByRole('button', { name: 'Move Alpha up' }).count()).toBe(0)
    await page.dragAndDrop('[aria-label="Reorder Alpha"]', '[data-folder-id]:nth-child(3)')
    await waitSaved(page)
    expect(await cardLabels(page)).toEqual(['Beta', 'Gamma', 'Alpha'])
    expect(await serverLabels(m.token)).toEqual(['Beta', 'Gamma', 'Alpha'])
    await page.reload()
    await page.getByText('Gamma').waitFor()
    expect(await cardLabels(page)).toEqual(['Beta', 'Gamma', 'Alpha'])

    // Keyboard: arrow keys on the focused handle move the folder.
    await page.getByRole('button', { name: 'Reorder Alpha' }).focus()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['Alpha', 'Beta', 'Gamma'])
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('at 390 px: up/down arrows (first up and last down disabled), order kept after reload', async () => {
    const { m, page, context } = await memberPage(
      [
        ['One', '/1'],
        ['Two', '/2'],
        ['Three', '/3'],
      ],
      { width: 390, height: 844 },
    )
    await page.getByText('Three').waitFor()
    expect(await page.locator('[data-drag-handle]').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Move One up' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Move Three down' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Move One down' }).click()
    await page.getByRole('button', { name: 'Move One down' }).click()
    expect(await cardLabels(page)).toEqual(['Two', 'Three', 'One'])
    await waitSaved(page)
    expect(await serverLabels(m.token)).toEqual(['Two', 'Three', 'One'])
    await page.reload()
    await page.getByText('Three').waitFor()
    expect(await cardLabels(page)).toEqual(['Two', 'Three', 'One'])
    expect(await page.getByRole('button', { name: 'Move Two up' }).isDisabled()).toBe(true)
    await context.close()
  })

  test('an expired token: "Authentication Error", "Redirecting to login page...", then /login', async () => {
    const { m, page, context } = await memberPage([['Keep', '/k']])
    await page.getByText('Keep').waitFor()
    await api(server.url, 'POST', '/auth/logout', { token: m.token })
    await page.getByRole('button', { name: 'Add Folder', exact: true }).first().click()
    await page.getByLabel('Folder Name').fill('Late')
    await page.getByLabel('Path or URL').fill('/late')
    await page.getByRole('dialog').getByRole('button', { name: 'Add Folder' }).click()
    await page.getByText('Authentication Error').waitFor()
    await page.getByText('Redirecting to login page...').waitFor()
    await page.waitForURL('**/login', { timeout: 10_000 })
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await context.close()
  })
})

describe('play a folder', () => {
  test('Play Folder opens /player?fid= and the audio plays', async () => {
    const { page, context, consoleErrors } = await memberPage([['Evening Set', '/music/set']])
    await page.getByRole('link', { name: 'Play Folder' }).click()
    await page.waitForURL(/\/player\?fid=/)
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()
    await page.getByText('Playing 2 tracks from your collection').waitFor()
    await page.getByRole('link', { name: 'Back to Folders' }).waitFor()
    const media = page.locator('audio, video').first()
    await media.evaluate((el: HTMLMediaElement) => el.play())
    await page.waitForFunction(() => (document.querySelector('audio, video') as HTMLMediaElement | null)?.currentTime! > 0.5, undefined, { timeout: 10_000 })
    expect(await media.evaluate((el: HTMLMediaElement) => el.paused)).toBe(false)

    // The home page's /?fid= address takes a member to the same screen.
    const fid = new URL(page.url()).searchParams.get('fid')!
    await gotoHydrated(page, `/?fid=${fid}`)
    await page.waitForURL(/\/player\?fid=/)
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()

    // Without ?fid the last played folder loads; a stale folder id shows the error state.
    await gotoHydrated(page, '/player')
    await page.getByRole('heading', { name: 'Evening Set' }).waitFor()
    await gotoHydrated(page, '/player?fid=does-not-exist')
    await page.getByText('Folder not found').waitFor()
    await page.getByRole('link', { name: 'Return to Folders' }).waitFor()
    expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([])
    await context.close()
  })

  test('no folder selected', async () => {
    const { page, context } = await memberPage()
    await gotoHydrated(page, '/player')
    await page.getByText('No folder selected').waitFor()
    await page.getByRole('link', { name: 'Return to Folders' }).waitFor()
    await context.close()
  })
})
