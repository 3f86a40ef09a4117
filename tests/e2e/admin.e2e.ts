// The admin Users, Folders and Messages screens in Debian's Chromium against the built server,
// with data made through the real API: role switch (own row disabled), delete with confirmation,
// manage-folders hand-off, folder search / add / edit / delete / play / bulk add, and the inbox
// (a contact form submission appears, opening marks it read, important, filters, delete, markup
// shown as text). Screenshots at 1280 and 390 px go to $TMPDIR/vibes-admin-shots.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page, Route } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser } from '../helpers/browser'
import { openUp, startPython, type ListingServer } from '../helpers/listing-servers'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
// A remote folder is loaded when it is saved: a real listing on loopback stands for the radio.
let radioListing: ListingServer
let radioUrl: string
let browser: Browser
let admin: string
let adminId: string
const shots = path.join(tmpdir(), 'vibes-admin-shots')
// A folder path long enough to widen the page on a phone if it were not wrapped (saved folders must exist).
const LONG_FOLDER = 'music/a/very/long/path/that/should/never/widen/the/page/on/a/phone'

beforeAll(async () => {
  const served = mkdtempSync(path.join(tmpdir(), 'vibes-admin-radio-'))
  mkdirSync(path.join(served, 'stream'))
  openUp(served)
  ;[server, browser, radioListing] = await Promise.all([
    startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: '127.0.0.1' }),
    launchBrowser(),
    startPython(served, '127.0.0.1'),
  ])
  radioUrl = `${radioListing.url}/stream/`
  admin = await loginAdmin(server.url)
  adminId = (await api(server.url, 'GET', '/auth/session', { token: admin })).body.data.user.id
  mkdirSync(shots, { recursive: true })
  // The library folders the tests save: a path that is not in the library is refused at save.
  for (const dir of ['music/jazz', 'music/shared', LONG_FOLDER]) mkdirSync(path.join(server.mediaRoot, dir), { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await radioListing?.stop()
})

/** A page signed in as the admin through the stored token. */
async function adminPage(viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: server.url, viewport })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const consoleErrors: string[] = []
  page.on('console', (msg) => msg.type() === 'error' && consoleErrors.push(msg.text()))
  page.on('pageerror', (err) => consoleErrors.push(String(err)))
  await context.addInitScript((t) => localStorage.setItem('token', t), admin)
  return { page, context, consoleErrors }
}

/** Holds matching requests until `release()` (to look at busy states). */
async function hold(page: Page, pattern: string) {
  const held: Route[] = []
  let waiting: (() => void) | null = null
  await page.route(pattern, (route) => {
    held.push(route)
    waiting?.()
  })
  return {
    arrived: () => (held.length ? Promise.resolve() : new Promise<void>((r) => (waiting = r))),
    release: async () => {
      for (const r of held.splice(0)) await r.continue()
      await page.unroute(pattern)
    },
  }
}

const toast = (page: Page, text: string) => page.locator('[data-scope=toast][data-part=root]').filter({ hasText: text }).first()
const userRow = (page: Page, id: string) => page.locator(`tr[data-user-id="${id}"]`)
const isAdminNow = async (id: string) =>
  (await api(server.url, 'GET', '/admin/users', { token: admin })).body.data.find((u: { id: string }) => u.id === id)?.isAdmin

describe('users', () => {
  test('the admin switch grants and revokes admin (own row disabled); delete asks first; manage folders carries the user', async () => {
    const promote = await createMember(server.url, { username: 'promote.me', email: 'promote@example.com' })
    const doomed = await createMember(server.url, { username: 'doomed.user', email: 'doomed@example.com' })
    const { page, context, consoleErrors } = await adminPage()
    await gotoHydrated(page, '/admin/users')
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor()
    await userRow(page, promote.user.id).waitFor()
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').first().waitFor()
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Users',
      'Folders',
      'Music',
      'Insights',
      'Listening Analytics',
      'Stats',
      'Messages',
    ])

    // Own row: switch disabled, no delete; another admin has no delete either.
    const own = userRow(page, adminId)
    expect(await own.getByRole('switch').isDisabled()).toBe(true)
    expect(await own.getByRole('switch').isChecked()).toBe(true)
    expect(await own.getByRole('button', { name: /^Delete/ }).count()).toBe(0)
    expect(await own.getByText('Admin', { exact: true }).count()).toBe(1)

    // Grant by pointer.
    const row = userRow(page, promote.user.id)
    expect(await row.getByText('User', { exact: true }).isVisible()).toBe(true)
    await row.locator('[data-part=control]').click()
    await toast(page, 'User role has been upgraded to admin.').waitFor()
    await row.getByText('Admin', { exact: true }).waitFor()
    expect(await row.getByRole('switch').isChecked()).toBe(true)
    expect(await row.getByRole('button', { name: 'Delete promote.me' }).count()).toBe(0)
    expect(await isAdminNow(promote.user.id)).toBe(true)
    expect((await api(server.url, 'GET', '/auth/session', { token: promote.token })).status).toBe(401)

    // Revoke by keyboard.
    await row.getByRole('switch', { name: 'Admin rights for promote.me' }).focus()
    await page.keyboard.press('Space')
    await toast(page, 'User role has been changed to regular user.').waitFor()
    await row.getByRole('button', { name: 'Delete promote.me' }).waitFor()
    expect(await isAdminNow(promote.user.id)).toBe(false)

    // Delete: Cancel keeps the user; confirming removes it.
    const doomedRow = userRow(page, doomed.user.id)
    await doomedRow.getByRole('button', { name: 'Delete doomed.user' }).click()
    const dialog = page.getByRole('alertdialog')
    await dialog.getByText('Are you sure you want to delete the user "doomed.user"?', { exact: false }).waitFor()
    expect(await dialog.textContent()).toContain('This action cannot be undone.')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await doomedRow.isVisible()).toBe(true)
    await doomedRow.getByRole('button', { name: 'Delete doomed.user' }).click()
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    await toast(page, 'doomed.user has been deleted.').waitFor()
    await doomedRow.waitFor({ state: 'detached' })
    expect((await api(server.url, 'GET', '/admin/users', { token: admin })).body.data.some((u: { id: string }) => u.id === doomed.user.id)).toBe(false)
    expect((await api(server.url, 'GET', '/auth/session', { token: doomed.token })).status).toBe(401)
    await page.screenshot({ path: path.join(shots, 'users-1280.png'), fullPage: true })

    // Manage folders → /admin/folders with that user selected.
    await row.getByRole('link', { name: 'Manage folders of promote.me' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/folders' && url.searchParams.get('userId') === promote.user.id)
    await page.getByRole('heading', { name: 'Folders (0)' }).waitFor()
    await page.getByText('This user has no folders.').waitFor()
    expect(await page.getByRole('button', { name: /promote\.me/ }).getAttribute('aria-current')).toBe('true')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a failed user list says "Failed to fetch users" and Retry loads it', async () => {
    const { page, context } = await adminPage()
    await page.route('**/api/trpc/*admin.users.list*', (route) => route.abort())
    await gotoHydrated(page, '/admin/users')
    await toast(page, 'Failed to fetch users').waitFor()
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch users' }).waitFor()
    await page.unroute('**/api/trpc/*admin.users.list*')
    await page.getByRole('button', { name: 'Retry' }).click()
    await userRow(page, adminId).waitFor()
    await context.close()
  })
})

describe('folder management', () => {
  test('search, select, add / edit / delete a folder, play preview toast', async () => {
    const zeta = await createMember(server.url, { username: 'zeta.jones', email: 'zeta@example.com' })
    await createMember(server.url, { username: 'omega', email: 'omega.person@mail.test' })
    const { page, context, consoleErrors } = await adminPage()
    await gotoHydrated(page, '/admin/folders')
    await page.getByRole('heading', { name: 'Select a User' }).waitFor()
    const total = (await api(server.url, 'GET', '/admin/users', { token: admin })).body.data.length
    await page.getByRole('heading', { name: `Users (${total})` }).waitFor()

    const search = page.getByLabel('Search users')
    await search.fill('ZETA')
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor()
    expect(await page.getByRole('list', { name: 'Users' }).getByRole('button').allInnerTexts()).toEqual([expect.stringContaining('zeta.jones')])
    await search.fill('MAIL.TEST')
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor()
    await page.getByRole('button', { name: /omega/ }).waitFor()
    await search.fill('nobody-like-this')
    await page.getByText('No users found').waitFor()
    await page.getByRole('heading', { name: 'Users (0)' }).waitFor()
    await search.fill('')
    // The full list comes back; the admin's row carries the one Admin badge.
    await page
      .getByRole('button', { name: /^admin/ })
      .getByText('Admin', { exact: true })
      .waitFor()
    expect(
      await page
        .getByRole('button', { name: /^admin/ })
        .getByText('Admin', { exact: true })
        .count(),
    ).toBe(1)

    await page.getByRole('button', { name: /zeta\.jones/ }).click()
    await page.getByRole('heading', { name: 'Folders (0)' }).waitFor()
    await page.getByText('This user has no folders.').waitFor()
    expect(new URL(page.url()).searchParams.get('userId')).toBe(zeta.user.id)

    // Add: the shared rules, then a save.
    await page.getByRole('button', { name: 'Add Folder', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Add Folder' }).waitFor()
    await dialog.getByLabel('Folder Name').fill('Jazz')
    await dialog.getByLabel('Folder Path').fill('/music/../etc')
    await dialog.getByRole('button', { name: 'Create Folder' }).click()
    await dialog.getByText('Invalid path format').waitFor()
    await page.screenshot({ path: path.join(shots, 'folder-dialog-1280.png') })
    await dialog.getByLabel('Folder Path').fill('/music/jazz')
    await dialog.getByRole('button', { name: 'Create Folder' }).click()
    await toast(page, 'Folder created').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Folders (1)' }).waitFor()

    // A remote folder while the save is held: busy text, Escape does not close; then fields are clear next time.
    await page.getByRole('button', { name: 'Add Folder', exact: true }).click()
    await dialog.getByLabel('Folder Name').fill('Radio')
    await dialog.getByLabel('Folder Path').fill(radioUrl)
    const held = await hold(page, '**/api/trpc/admin.folders.create*')
    await dialog.getByRole('button', { name: 'Create Folder' }).click()
    await held.arrived()
    await dialog.getByRole('button', { name: 'Creating...' }).waitFor()
    await page.keyboard.press('Escape')
    expect(await dialog.isVisible()).toBe(true)
    await held.release()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Folders (2)' }).waitFor()
    await page.getByRole('button', { name: 'Add Folder', exact: true }).click()
    expect(await dialog.getByLabel('Folder Name').inputValue()).toBe('')
    expect(await dialog.getByLabel('Folder Path').inputValue()).toBe('')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })

    const radio = page.locator('[data-folder-id]').filter({ hasText: 'Radio' })
    expect(await radio.locator('[title="Remote folder"]').count()).toBe(1)
    expect(await page.locator('[data-folder-id]').filter({ hasText: 'Jazz' }).locator('[title="Local folder"]').count()).toBe(1)
    expect(await radio.textContent()).toContain(radioUrl)
    expect(await radio.textContent()).toContain('Created ')
    await radio.getByRole('button', { name: 'Play Radio' }).click()
    await toast(page, 'Admin folder preview not yet implemented').waitFor()

    // Edit.
    await page.getByRole('button', { name: 'Edit Jazz' }).click()
    await dialog.getByRole('heading', { name: 'Edit Folder' }).waitFor()
    expect(await dialog.getByLabel('Folder Path').inputValue()).toBe('/music/jazz')
    await dialog.getByLabel('Folder Name').fill('Cool Jazz')
    await dialog.getByRole('button', { name: 'Update Folder' }).click()
    await toast(page, 'Folder updated').waitFor()
    await page.getByRole('heading', { name: 'Cool Jazz' }).waitFor()

    // Delete, confirmed.
    await page.getByRole('button', { name: 'Delete Cool Jazz' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Are you sure you want to delete the folder "Cool Jazz"? This action cannot be undone.').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await toast(page, 'Folder deleted').waitFor()
    await page.getByRole('heading', { name: 'Folders (1)' }).waitFor()
    const memberView = (await api(server.url, 'GET', '/user/folders', { token: zeta.token })).body.data
    expect(memberView.map((f: { label: string; path: string }) => [f.label, f.path])).toEqual([['Radio', radioUrl]])
    await page.screenshot({ path: path.join(shots, 'folders-1280.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('bulk add: the validation toast, Select All / Clear, the result toast with failures', async () => {
    const a = await createMember(server.url, { username: 'bulk.alpha', email: 'bulk.alpha@example.com' })
    const b = await createMember(server.url, { username: 'bulk.beta', email: 'bulk.beta@example.com' })
    const { page, context, consoleErrors } = await adminPage()
    await gotoHydrated(page, `/admin/folders?userId=${a.user.id}&username=bulk.alpha`)
    await page.getByRole('heading', { name: 'Folders (0)' }).waitFor()
    const total = (await api(server.url, 'GET', '/admin/users', { token: admin })).body.data.length

    await page.getByRole('button', { name: 'Bulk Add Folders' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Bulk Add Folders' }).waitFor()
    await dialog.getByRole('button', { name: 'Add to 0 users' }).click()
    await toast(page, 'Please fill in all fields and select at least one user.').waitFor()
    await dialog.getByLabel('Folder Label').fill('Shared')
    await dialog.getByLabel('Folder Path').fill('/music/shared')
    await dialog.getByRole('button', { name: 'Select All' }).click()
    await dialog.getByRole('button', { name: `Add to ${total} users` }).waitFor()
    await page.screenshot({ path: path.join(shots, 'bulk-add-1280.png') })
    await dialog.getByRole('button', { name: 'Clear' }).click()
    await dialog.getByRole('button', { name: 'Add to 0 users' }).click()
    await toast(page, 'Please fill in all fields and select at least one user.').waitFor()
    await dialog.getByRole('checkbox', { name: /bulk\.alpha/ }).check()
    await dialog.getByRole('button', { name: 'Add to 1 user' }).click()
    await toast(page, 'Successfully added to 1 user.').waitFor()
    expect(await toast(page, 'Bulk Add Complete').isVisible()).toBe(true)
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Folders (1)' }).waitFor()

    // Again for both: alpha already has it, beta gets it.
    await page.getByRole('button', { name: 'Bulk Add Folders' }).click()
    expect(await dialog.getByLabel('Folder Label').inputValue()).toBe('')
    await dialog.getByLabel('Folder Label').fill('Shared')
    await dialog.getByLabel('Folder Path').fill('/music/shared')
    await dialog.getByRole('checkbox', { name: /bulk\.alpha/ }).check()
    await dialog.getByRole('checkbox', { name: /bulk\.beta/ }).check()
    const held = await hold(page, '**/api/trpc/admin.folders.bulkAdd*')
    await dialog.getByRole('button', { name: 'Add to 2 users' }).click()
    await held.arrived()
    await dialog.getByRole('button', { name: 'Adding...' }).waitFor()
    await held.release()
    await toast(page, 'Successfully added to 1 user. Failed for 1 user.').waitFor()
    for (const m of [a, b])
      expect((await api(server.url, 'GET', '/user/folders', { token: m.token })).body.data.map((f: { label: string }) => f.label)).toEqual(['Shared'])
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})

describe('messages', () => {
  test('a contact form message appears unread; opening marks it read; important, filters, delete', async () => {
    // A visitor sends the contact form.
    const visitor = await browser.newContext({ baseURL: server.url })
    const form = await visitor.newPage()
    await gotoHydrated(form, '/contact')
    await form.getByLabel('Your Name').fill('Grace Hopper')
    await form.getByLabel('Your Email').fill('grace@example.com')
    await form.getByLabel('Your Message').fill('The remote folders are great. Could they read my NAS playlists too?')
    await form.getByRole('button', { name: 'Send Message' }).click()
    await form.getByText('Thank you for your message!', { exact: false }).waitFor()
    await visitor.close()
    const id = (await api(server.url, 'GET', '/admin/messages', { token: admin })).body.data.messages.find(
      (m: { name: string }) => m.name === 'Grace Hopper',
    ).id

    const { page, context, consoleErrors } = await adminPage()
    await gotoHydrated(page, '/admin/messages')
    expect(await page.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/admin/dashboard')
    await page.getByRole('heading', { name: 'Messages', exact: true }).waitFor()
    await page.getByText('Select a message to view').waitFor()
    const item = page.locator(`[data-message-id="${id}"]`)
    await item.waitFor()
    expect(await item.getAttribute('data-read')).toBe('false')
    expect(await item.textContent()).toContain('The remote folders are great.')

    // Nothing is important yet.
    await page.getByRole('button', { name: 'Important', exact: true }).click()
    await page.getByText('No messages match the current filter').waitFor()
    await page.getByRole('button', { name: 'All', exact: true }).click()

    // Open: detail, and read in the list and on the server.
    await item.getByRole('button').click()
    const detail = page.getByRole('article')
    await detail.getByRole('heading', { name: 'The remote folders are great.' }).waitFor()
    expect(await detail.textContent()).toContain('grace@example.com')
    expect(await page.getByTestId('message-body').textContent()).toBe('The remote folders are great. Could they read my NAS playlists too?')
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-read') === 'true', `[data-message-id="${id}"]`)
    expect((await api(server.url, 'GET', `/admin/messages/${id}`, { token: admin })).body.data.read).toBe(true)
    expect(await detail.getByRole('link', { name: 'Reply' }).getAttribute('href')).toBe(
      'mailto:grace@example.com?subject=Re%3A%20The%20remote%20folders%20are%20great.',
    )

    // Important on, then the Important filter shows it; read off again.
    await detail.getByRole('button', { name: 'Mark as important' }).click()
    await toast(page, 'Message marked as important').waitFor()
    expect(await item.getAttribute('data-important')).toBe('true')
    await detail.getByRole('button', { name: 'Mark as unread' }).click()
    await toast(page, 'Message marked as unread').waitFor()
    expect((await api(server.url, 'GET', `/admin/messages/${id}`, { token: admin })).body.data).toMatchObject({ read: false, important: true })
    await page.getByRole('button', { name: 'Important', exact: true }).click()
    await item.waitFor()
    expect(await page.locator('[data-message-id]').count()).toBe(1)
    await page.getByRole('button', { name: 'Unread', exact: true }).click()
    await item.waitFor()
    await page.getByRole('button', { name: 'All', exact: true }).click()

    // Delete, confirmed.
    await detail.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Are you sure you want to delete this message?').waitFor()
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await toast(page, 'Message deleted successfully').waitFor()
    await item.waitFor({ state: 'detached' })
    await page.getByText('Select a message to view').waitFor()
    expect((await api(server.url, 'GET', `/admin/messages/${id}`, { token: admin })).status).toBe(404)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a message holding markup shows it as text and runs nothing', async () => {
    const message = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> <b>not bold</b>'
    const sent = await api(server.url, 'POST', '/contact', { body: { fullName: '<i>Mallory</i>', email: 'mallory@example.com', message } })
    expect(sent.status).toBe(201)
    const { page, context } = await adminPage()
    await gotoHydrated(page, '/admin/messages')
    await page.locator(`[data-message-id="${sent.body.data.id}"]`).getByRole('button').click()
    const body = page.getByTestId('message-body')
    await body.waitFor()
    expect(await body.textContent()).toBe(message)
    expect(await body.locator('img, script, b').count()).toBe(0)
    expect(await page.getByRole('article').getByText('<i>Mallory</i>').count()).toBe(1)
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
    await page.screenshot({ path: path.join(shots, 'messages-1280.png'), fullPage: true })
    await context.close()
  })
})

describe('a long inbox', () => {
  test('loads 50 messages at a time inside a list at most 600 px tall', async () => {
    for (let i = 0; i < 60; i++)
      expect(
        (
          await api(server.url, 'POST', '/contact', {
            body: { fullName: `Bulk Sender ${i}`, email: `bulk${i}@example.com`, message: `Inbox filler number ${i}, please ignore.` },
          })
        ).status,
      ).toBe(201)
    const total = (await api(server.url, 'GET', '/admin/messages?limit=1', { token: admin })).body.data.counts.total
    const { page, context } = await adminPage()
    await gotoHydrated(page, '/admin/messages')
    await page.locator('[data-message-id]').first().waitFor()
    expect(await page.locator('[data-message-id]').count()).toBe(50)
    const list = page.getByRole('list', { name: 'Messages' }).locator('..')
    expect(await list.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(600)
    // Nothing inside the scrolling list (screen-reader text included) stretches the page.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1400)
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.waitForFunction((n) => document.querySelectorAll('[data-message-id]').length === n, total)
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(total > 100 ? 1 : 0)
    await context.close()
  })
})

describe('phone width (390 px)', () => {
  test('users as cards, folders and messages stacked, nothing wider than the screen', async () => {
    const m = await createMember(server.url, { username: 'phone.user', email: 'phone.user.with.a.long.address@example.com' })
    await api(server.url, 'POST', `/admin/users/${m.user.id}/folders`, {
      token: admin,
      body: { label: 'Long', path: `/${LONG_FOLDER}` },
    })
    await api(server.url, 'POST', '/contact', {
      body: { fullName: 'Phone Person', email: 'phone@example.com', message: 'A message read on a small screen, with a long line: ' + 'x'.repeat(120) },
    })
    const { page, context, consoleErrors } = await adminPage({ width: 390, height: 844 })
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

    await gotoHydrated(page, '/admin/users')
    await userRow(page, m.user.id).waitFor()
    expect(await page.locator('thead').isVisible()).toBe(false)
    expect(await userRow(page, m.user.id).getByRole('link', { name: 'Manage folders of phone.user' }).isVisible()).toBe(true)
    expect(await fits()).toBe(true)
    await page.screenshot({ path: path.join(shots, 'users-390.png'), fullPage: true })

    await gotoHydrated(page, `/admin/folders?userId=${m.user.id}&username=phone.user`)
    await page.getByRole('heading', { name: 'Folders (1)' }).waitFor()
    expect(await fits()).toBe(true)
    await page.screenshot({ path: path.join(shots, 'folders-390.png'), fullPage: true })

    await gotoHydrated(page, '/admin/messages')
    await page.locator('[data-message-id]').filter({ hasText: 'Phone Person' }).getByRole('button').click()
    await page.getByTestId('message-body').waitFor()
    expect(await fits()).toBe(true)
    await page.screenshot({ path: path.join(shots, 'messages-390.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
