// The account menu names the member three ways: the display name (made from the e-mail, so it does
// not follow a username change), "@username" and the e-mail. A username changed on /profile shows
// in the menu at once and after a reload, at desktop width in the account menu and at phone width
// in the side sheet. The new username is one the members' page cache serves from its template
// (letters, digits, dots), so the reload also shows that the cached page is not stale.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Locator, Page } from 'playwright-core'
import { createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function logIn(page: Page, email: string, password: string) {
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

async function changeUsername(page: Page, username: string, password: string) {
  const account = page.getByRole('region', { name: 'Account', exact: true })
  await account.getByLabel('Username', { exact: true }).fill(username)
  await account.getByLabel('Current password', { exact: true }).first().fill(password)
  await account.getByRole('button', { name: 'Change username' }).click()
  await account.getByRole('status').getByText(`Username changed to ${username}.`).waitFor()
}

/** The lines as the member sees them: one per paragraph, which textContent would run together. */
async function linesOf(part: Locator): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines are what is asserted
  const text = await part.innerText()
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}

/** The lines of the open account menu above its items. */
async function menuLines(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Account menu for Alice Smith' }).click()
  const menu = page.getByRole('menu')
  await menu.getByRole('menuitem', { name: 'Profile Settings' }).waitFor()
  const all = await linesOf(menu)
  const lines = all.slice(0, all.indexOf('Liked songs'))
  await page.keyboard.press('Escape')
  await menu.waitFor({ state: 'detached' })
  return lines
}

/** The member's lines in the open side sheet, between the links and "Profile Settings". */
async function sheetLines(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Open menu' }).click()
  const sheet = page.getByRole('dialog', { name: 'Menu' })
  await sheet.getByRole('button', { name: 'Profile Settings' }).waitFor()
  const all = await linesOf(sheet)
  const lines = all.slice(all.indexOf('Folders') + 1, all.indexOf('Profile Settings'))
  await sheet.getByRole('button', { name: 'Close menu' }).click()
  await sheet.waitFor({ state: 'detached' })
  return lines
}

describe('account menu', () => {
  test('desktop: the username line follows a change on /profile, at once and after a reload', async () => {
    const m = await createMember(server.url, { username: 'alice', email: 'alice.smith@example.com' })
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await logIn(page, m.email, m.password)
    await gotoHydrated(page, '/profile')
    expect(await menuLines(page)).toEqual(['Alice Smith', '@alice', 'alice.smith@example.com'])

    await changeUsername(page, 'alice.new', m.password)
    expect(await menuLines(page)).toEqual(['Alice Smith', '@alice.new', 'alice.smith@example.com'])

    await page.reload()
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
    expect(await menuLines(page)).toEqual(['Alice Smith', '@alice.new', 'alice.smith@example.com'])
    // Another member page, as a fresh navigation.
    await gotoHydrated(page, '/folders')
    expect(await menuLines(page)).toEqual(['Alice Smith', '@alice.new', 'alice.smith@example.com'])
    expect(consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([])
    await context.close()
  }, 60_000)

  test('390×844: the side sheet shows the username too, and follows a change', async () => {
    const m = await createMember(server.url, { username: 'alice2', email: 'alice_smith@example.org' })
    const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    await logIn(page, m.email, m.password)
    await gotoHydrated(page, '/profile')
    expect(await sheetLines(page)).toEqual(['Alice Smith', '@alice2', 'alice_smith@example.org'])

    await changeUsername(page, 'alice2.new', m.password)
    expect(await sheetLines(page)).toEqual(['Alice Smith', '@alice2.new', 'alice_smith@example.org'])

    await page.reload()
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
    expect(await sheetLines(page)).toEqual(['Alice Smith', '@alice2.new', 'alice_smith@example.org'])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(consoleErrors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([])
    await context.close()
  }, 60_000)
})
