// /profile in Debian's Chromium against the built server: the account menu's "Profile Settings"
// opens the page (it used to be a 404 showing the home page); a member changes e-mail and
// password (and, at phone width, username), sees their sessions and revokes another one (that browser is logged out), creates,
// copies and revokes an app key (told it works as the password and with token login; a key made
// before that is marked as needing renewal for token login), and deletes the account; axe finds nothing serious at desktop and
// phone width, where every button is a 44 px target and nothing scrolls sideways.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { ADMIN, adminEnv, api, createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

let server: TestServer
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([startServer(adminEnv), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
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

async function logIn(page: Page, email: string, password: string) {
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

/** Chromium reports every 4xx answer as a console error; the page's own errors are what count. */
const pageErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Failed to load resource'))

describe('/profile', () => {
  test('e-mail, password, sessions, app keys and deleting the account', async () => {
    const m = await createMember(server.url, { username: 'Robin Profile', email: 'robin@example.com' })
    // An app key made with the old password: the password change below ends it.
    const oldKey = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'Old tablet', currentPassword: m.password } })
    expect(oldKey.status).toBe(201)
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await logIn(page, m.email, m.password)

    // A second browser (another device) signed in as the same member.
    const other = await browser.newContext({ baseURL: server.url, userAgent: SAFARI_MAC })
    const otherPage = await other.newPage()
    await logIn(otherPage, m.email, m.password)

    // The account menu leads to the page.
    await page.getByRole('button', { name: /^Account menu for/ }).click()
    await page.getByRole('menuitem', { name: 'Profile Settings' }).click()
    await page.waitForURL('**/profile')
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor()
    expect(await page.title()).toBe('Profile Settings · Vibes')
    for (const name of ['Account', 'Password', 'Sessions', 'App keys', 'Delete account']) {
      await page.getByRole('heading', { name, level: 2, exact: true }).waitFor()
    }
    expect(await seriousViolations(page)).toEqual([])

    // Sessions: this browser (marked), the Safari one and the API login of the test helper.
    const sessions = page.getByRole('list', { name: 'Active sessions' })
    await sessions.getByText('This device').waitFor()
    expect(await sessions.getByRole('listitem').count()).toBe(3)
    await sessions.getByText('Safari on macOS').waitFor()

    // Change the e-mail: a wrong password is refused, the right one changes it and keeps us in.
    const account = page.getByRole('region', { name: 'Account', exact: true })
    await account.getByLabel('Email', { exact: true }).fill('robin.new@example.com')
    await account.getByLabel('Current password', { exact: true }).nth(1).fill('not-my-password')
    await account.getByRole('button', { name: 'Change e-mail' }).click()
    await account.getByRole('alert').getByText('Current password is incorrect').waitFor()
    await account.getByLabel('Current password', { exact: true }).nth(1).fill(m.password)
    await account.getByRole('button', { name: 'Change e-mail' }).click()
    await account.getByRole('status').getByText('E-mail changed to robin.new@example.com.').waitFor()
    // The top bar names the member by the e-mail: it follows at once, without a reload.
    await page.getByRole('button', { name: 'Account menu for Robin New' }).waitFor()
    await page.reload()
    await page.getByText('Signed in as Robin Profile (robin.new@example.com)').waitFor()
    await sessions.getByText('This device').waitFor()
    expect(await sessions.getByRole('listitem').count()).toBe(3)
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: 'robin.new@example.com', password: m.password } })).status).toBe(200)

    // Revoke the Safari session: that browser is logged out on its next visit.
    await page.getByRole('button', { name: /^Revoke session Safari on macOS/ }).click()
    await page.getByText('Session revoked. That device has been logged out.').waitFor()
    await sessions.getByText('Safari on macOS').waitFor({ state: 'detached' })
    await otherPage.goto('/profile')
    await otherPage.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 })
    expect(await otherPage.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await other.close()

    // Change the password: every other session ends, this one stays; the app keys end too (the
    // switch is on unless the member turns it off).
    const keys = page.getByRole('region', { name: 'App keys', exact: true })
    await keys.getByRole('list', { name: 'App keys' }).getByText('Old tablet').waitFor()
    const password = page.getByRole('region', { name: 'Password', exact: true })
    expect(await password.getByRole('switch', { name: 'Also revoke app keys' }).isChecked()).toBe(true)
    await password.getByLabel('Current password', { exact: true }).fill(m.password)
    await password.getByLabel('New password', { exact: true }).fill('robin-new-secret')
    await password.getByLabel('Confirm new password', { exact: true }).fill('robin-new-secret')
    await password.getByRole('button', { name: 'Change password' }).click()
    await password.getByRole('status').getByText('Password changed. Your other sessions have been logged out. Your app keys have been revoked.').waitFor()
    await keys.getByText('No app keys yet.').waitFor()
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Active sessions"] li').length === 1)
    expect((await api(server.url, 'GET', '/auth/session', { token: m.token })).status).toBe(401)
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: 'robin.new@example.com', password: 'robin-new-secret' } })).status).toBe(200)

    // App keys: create (confirmed with the password, shown once, copied), listed, revoked.
    await keys.getByLabel('Key name', { exact: true }).fill('Phone – Symfonium')
    await keys.getByLabel('Current password', { exact: true }).fill('robin-new-secret')
    await keys.getByRole('button', { name: 'Create key' }).click()
    const shown = (await keys.getByTestId('new-app-key').textContent()) ?? ''
    expect(shown).toMatch(/^vibes_\S{20,}$/)
    // Apps that only ask for a password can take the key as one, with token login too (decision 066).
    await keys.getByText(/works as the password in apps that ask for one, and with token login/).waitFor()
    expect(await keys.getByText(/Token login needs a new key/).count()).toBe(0)
    await keys.getByRole('button', { name: 'Copy key' }).click()
    await keys.getByText('App key copied to the clipboard.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown)
    await keys.getByRole('list', { name: 'App keys' }).getByText('Phone – Symfonium').waitFor()
    await keys.getByText(/never used/).waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'profile-1280.png'), fullPage: true })
    expect(await seriousViolations(page)).toEqual([])
    await keys.getByRole('button', { name: 'Revoke app key Phone – Symfonium' }).click()
    await keys.getByText('App key "Phone – Symfonium" revoked. Apps using it can no longer sign in.').waitFor()
    await keys.getByText('No app keys yet.').waitFor()
    expect(await keys.getByTestId('new-app-key').count()).toBe(0)

    // Delete the account: confirmed with the password, then signed out and sent home.
    await page.getByRole('button', { name: 'Delete account', exact: true }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
    await dialog.getByLabel('Current password', { exact: true }).fill('robin-new-secret')
    await page.screenshot({ path: path.join(SHOTS, 'profile-delete-1280.png') })
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await page.waitForURL(`${server.url}/`)
    await page.getByRole('link', { name: 'Login' }).first().waitFor()
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    expect((await api(server.url, 'POST', '/auth/login', { body: { email: 'robin.new@example.com', password: 'robin-new-secret' } })).status).toBe(401)
    expect(pageErrors(consoleErrors)).toEqual([])
    await context.close()
  }, 90_000)

  test('phone width: 44 px targets, no sideways scroll, no axe finding; a new username; the last admin cannot delete their account', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    await logIn(page, ADMIN.email, ADMIN.password)
    await gotoHydrated(page, '/profile')
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor()
    await page.getByRole('list', { name: 'Active sessions' }).getByText('This device').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const main = page.locator('main')
    const small = await main.evaluate((root) =>
      [...root.querySelectorAll('section button')]
        .filter((b) => b.getBoundingClientRect().height < 44 && !b.closest('label, [aria-label^="Show"], [aria-label^="Hide"]') && b.textContent !== 'Show')
        .map((b) => b.textContent),
    )
    expect(small).toEqual([])
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: path.join(SHOTS, 'profile-390.png'), fullPage: true })

    // A new username, confirmed with the password.
    const account = page.getByRole('region', { name: 'Account', exact: true })
    await account.getByLabel('Username', { exact: true }).fill('Chief Admin')
    await account.getByLabel('Current password', { exact: true }).first().fill(ADMIN.password)
    await account.getByRole('button', { name: 'Change username' }).click()
    await account.getByRole('status').getByText('Username changed to Chief Admin.').waitFor()
    await page.getByText('Signed in as Chief Admin (admin@vibes.test)').waitFor()

    await page.getByRole('button', { name: 'Delete account', exact: true }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
    await dialog.getByLabel('Current password', { exact: true }).fill(ADMIN.password)
    await dialog.getByRole('button', { name: 'Delete my account' }).click()
    await dialog.getByRole('alert').getByText('You are the only admin: make another member an admin before deleting your account.').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: path.join(SHOTS, 'profile-last-admin-390.png') })
    expect((await api(server.url, 'POST', '/auth/login', { body: ADMIN })).status).toBe(200)
    expect(pageErrors(consoleErrors)).toEqual([])
    await context.close()
  }, 60_000)

  test('anonymous visitors are sent to the login page', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/profile')
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()
    await context.close()
  })

  test('a key made before keys were kept for token login says token login needs a new key', async () => {
    const m = await createMember(server.url)
    const made = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'Old phone', currentPassword: m.password } })
    expect(made.status).toBe(201)
    // What the ratings_bookmarks_app_key_secrets migration leaves for a key made before it: the hash, no sealed copy.
    await sqlOn(server, 'UPDATE app_keys SET key_secret = NULL WHERE id = ?', [made.body.data.id])
    const { page, context } = await newPage(browser, server.url, { viewport: { width: 1280, height: 800 } })
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/profile')
    const keys = page.getByRole('list', { name: 'App keys' })
    await keys.getByText('Old phone').waitFor()
    await keys.getByText(/Token login needs a new key/).waitFor()
    await context.close()
  })
})
