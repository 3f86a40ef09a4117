// Sign in with an OpenID Connect provider in Debian's Chromium: the login page's button → the
// provider's own login and consent pages (oidc-provider on loopback) → back in Vibes, signed in.
// Then /profile lists the provider and unlinks it. Screenshots of the login page with its buttons
// and of the profile's "Sign-in providers" at desktop and phone widths go to test-results/screens.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { signInEnv, startProvider, type TestProvider } from '../helpers/oidc-provider'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')

/** The ids of axe's serious and critical findings on the page as it stands. */
async function seriousAxeFindings(page: import('playwright-core').Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe
    const { violations } = await axe.run(document)
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
  })
}

let provider: TestProvider
let vibes: TestServer
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
  const port = probe.port ?? 0
  probe.stop(true)
  const appUrl = `http://127.0.0.1:${port}`
  provider = await startProvider(`${appUrl}/auth/oidc/callback`, [
    { login: 'nora', email: 'nora@oidc.test', emailVerified: true },
    { login: 'lena', email: 'lena@oidc.test', emailVerified: true },
    { login: 'mia', email: 'mia@oidc.test', emailVerified: true },
    { login: 'olga', email: 'olga@oidc.test', emailVerified: true },
  ])
  ;[vibes, browser] = await Promise.all([
    startServer({
      PORT: String(port),
      ...signInEnv(provider, appUrl, 'Authelia'),
      GITHUB_CLIENT_ID: 'a-github-client',
      GITHUB_CLIENT_SECRET: 'a-github-secret',
    }),
    launchBrowser(),
  ])
})

afterAll(async () => {
  await browser?.close()
  await vibes?.stop()
  await provider?.stop()
})

/** A page whose context answers the provider pages' web-font request (this machine has no way out, and the font is not under test). */
async function pageFor(viewport?: { width: number; height: number }) {
  const opened = await newPage(browser, vibes.url, viewport ? { viewport } : {})
  await opened.context.route('https://fonts.googleapis.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }))
  return opened
}

/** The provider's development pages: its login form, then its consent form. */
async function signInAtProvider(page: import('playwright-core').Page, login: string) {
  await page.waitForURL((url) => url.origin === provider.issuer)
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any')
  await page.locator('button[type="submit"]').click()
  await page.locator('button[type="submit"]').click()
}

describe('sign in with a provider in the browser', () => {
  test('the button → the provider → back, signed in as a new member', async () => {
    const { page, context, consoleErrors } = await pageFor()
    await gotoHydrated(page, '/login')
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()
    await page.getByRole('link', { name: 'Sign in with Authelia' }).click()
    await signInAtProvider(page, 'nora')
    await page.waitForURL(`${vibes.url}/`)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Folders' }).waitFor()
    await page.getByRole('button', { name: /^Account menu for / }).click()
    await page.getByRole('menu').getByText('nora@oidc.test').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('an account with the same e-mail is linked after its password, in the browser', async () => {
    await createMember(vibes.url, { username: 'lena-here', email: 'lena@oidc.test', password: 'lenas-password-1' })
    const { page, context, consoleErrors } = await pageFor()
    await gotoHydrated(page, '/login')
    await page.getByRole('link', { name: 'Sign in with Authelia' }).click()
    await signInAtProvider(page, 'lena')
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('linkWith') === 'oidc')
    await page.getByLabel('Password').fill('wrong-password-x')
    await page.getByRole('button', { name: 'Link and sign in' }).click()
    await page.getByRole('alert').getByText('Incorrect password: the accounts were not linked.').waitFor()
    expect(await seriousAxeFindings(page)).toEqual([])
    await page.screenshot({ path: path.join(SHOTS, 'login-link-account-1280.png') })
    await page.getByLabel('Password').fill('lenas-password-1')
    await page.getByRole('button', { name: 'Link and sign in' }).click()
    await page.waitForURL(`${vibes.url}/`)
    await page.getByRole('button', { name: /^Account menu for / }).click()
    await page.getByRole('menu').getByText('lena@oidc.test').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('the login page with its buttons, at 1280 and 390 px, and a refused sign-in', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { page, context, consoleErrors } = await newPage(browser, vibes.url, { viewport })
      await gotoHydrated(page, '/login')
      await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor()
      // The password form stays: every string the spec gives the login page is still there.
      await page.getByRole('button', { name: 'Login', exact: true }).waitFor()
      await page.getByRole('link', { name: 'Forgot your password?' }).waitFor()
      await page.screenshot({ path: path.join(SHOTS, `login-providers-${viewport.width}.png`), fullPage: true })
      expect(await seriousAxeFindings(page)).toEqual([])
      await gotoHydrated(page, '/login?signInError=state')
      await page.getByRole('alert').getByText('did not match this browser’s sign-in', { exact: false }).waitFor()
      await page.screenshot({ path: path.join(SHOTS, `login-sign-in-refused-${viewport.width}.png`), fullPage: true })
      expect(await seriousAxeFindings(page)).toEqual([])
      expect(consoleErrors).toEqual([])
      await context.close()
    }
  })
})

/** The buttons of a region lower than a 44 px touch target, by their text. */
function smallButtons(region: import('playwright-core').Locator) {
  return region.evaluate((root) => [...root.querySelectorAll('button')].filter((b) => b.getBoundingClientRect().height < 44).map((b) => b.textContent))
}

describe('linked sign-in providers on /profile', () => {
  test('a member made at the first sign-in sees the provider, and why it cannot be unlinked', async () => {
    const { page, context, consoleErrors } = await pageFor({ width: 390, height: 844 })
    await gotoHydrated(page, '/login')
    await page.getByRole('link', { name: 'Sign in with Authelia' }).click()
    await signInAtProvider(page, 'olga')
    await page.waitForURL(`${vibes.url}/`)
    await gotoHydrated(page, '/profile')
    const section = page.getByRole('region', { name: 'Sign-in providers' })
    const row = section.getByRole('listitem').filter({ hasText: 'Authelia' })
    await row.getByText('olga@oidc.test', { exact: false }).waitFor()
    const unlink = row.getByRole('button', { name: 'Unlink Authelia (olga@oidc.test)' })
    expect(await unlink.isDisabled()).toBe(true)
    await row.getByText('This is your only way to sign in: your account has no password.', { exact: false }).waitFor()
    expect(await smallButtons(section)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await seriousAxeFindings(page)).toEqual([])
    await section.screenshot({ path: path.join(SHOTS, 'profile-sign-ins-last-way-in-390.png') })
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a linked member sees the provider on /profile and unlinks it, at 1280 and 390 px', async () => {
    await createMember(vibes.url, { username: 'mia-here', email: 'mia@oidc.test', password: 'mias-password-1' })
    const { page, context, consoleErrors } = await pageFor()
    await gotoHydrated(page, '/login')
    await page.getByRole('link', { name: 'Sign in with Authelia' }).click()
    await signInAtProvider(page, 'mia')
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('linkWith') === 'oidc')
    await page.getByLabel('Password').fill('mias-password-1')
    await page.getByRole('button', { name: 'Link and sign in' }).click()
    await page.waitForURL(`${vibes.url}/`)

    await gotoHydrated(page, '/profile')
    const section = page.getByRole('region', { name: 'Sign-in providers' })
    const row = section.getByRole('listitem').filter({ hasText: 'Authelia' })
    await row.getByText('mia@oidc.test', { exact: false }).waitFor()
    const unlink = row.getByRole('button', { name: 'Unlink Authelia (mia@oidc.test)' })
    expect(await unlink.isEnabled()).toBe(true)
    expect(await seriousAxeFindings(page)).toEqual([])
    await section.scrollIntoViewIfNeeded()
    await section.screenshot({ path: path.join(SHOTS, 'profile-sign-ins-1280.png') })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await smallButtons(section)).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await section.screenshot({ path: path.join(SHOTS, 'profile-sign-ins-390.png') })

    await unlink.click()
    const dialog = page.getByRole('alertdialog', { name: 'Unlink sign-in provider' })
    await dialog.getByText('Authelia (mia@oidc.test) will no longer sign you in.', { exact: false }).waitFor()
    expect(await smallButtons(dialog)).toEqual([])
    await page.screenshot({ path: path.join(SHOTS, 'profile-sign-ins-confirm-390.png') })
    await dialog.getByRole('button', { name: 'Unlink', exact: true }).click()
    await section.getByRole('status').getByText('Authelia unlinked: it no longer signs you in.').waitFor()
    await section.getByText('No sign-in providers are linked.', { exact: false }).waitFor()
    expect(await section.getByRole('listitem').count()).toBe(0)
    // Unlinking ends nothing else: this session still works.
    await gotoHydrated(page, '/profile')
    await page.getByRole('heading', { name: 'Profile Settings', level: 1 }).waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})
