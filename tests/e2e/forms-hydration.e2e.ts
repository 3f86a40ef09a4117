// Typing before the page is ready, as on a slow phone (390×844, the CPU slowed 6× by Chromium's
// own throttling): the server-rendered form is on screen before the page's scripts have run, and
// what is typed into it then must survive hydration and count (the submit button follows it).
// The scripts are held back until the typing is done, so "before hydration" is certain.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page, Route } from 'playwright-core'
import { launchBrowser, newPage } from '../helpers/browser'
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

const hydrated = (page: Page) => page.evaluate(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)

/** Waits for the submit button to become enabled (a route's code may hydrate after the shell). */
const enabled = (page: Page, name: string) => page.locator('button:enabled', { hasText: new RegExp(`^${name}$`) }).waitFor({ timeout: 10_000 })

/** Opens `path` on a slow phone with its scripts held until `release()` is called. */
async function slowPhone(path: string) {
  const { context, page, consoleErrors } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
  const held: Route[] = []
  let open = false
  await page.route(
    (url) => url.pathname.endsWith('.js'),
    (route) => (open ? route.continue() : void held.push(route)),
  )
  await page.goto(path, { waitUntil: 'commit' })
  const release = async () => {
    open = true
    for (const r of held.splice(0)) await r.continue()
    await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true, null, { timeout: 30_000 })
  }
  return { page, context, consoleErrors, release }
}

describe('forms keep what was typed before hydration', () => {
  test('login: the e-mail typed early stays and the Login button follows it', async () => {
    const { page, context, release } = await slowPhone('/login')
    await page.getByLabel('Email').fill('early@example.com')
    expect(await hydrated(page)).toBe(false)
    await release()
    expect(await page.getByLabel('Email').inputValue()).toBe('early@example.com')
    await page.getByLabel('Password', { exact: true }).fill('a-password')
    await enabled(page, 'Login')
    await context.close()
  })

  test('register, forgot password and contact keep every field typed early', async () => {
    const forms: [string, [string, string][], string][] = [
      [
        '/register',
        [
          ['Username', 'early'],
          ['Email', 'early@example.com'],
          ['Password', 'early-secret'],
          ['Confirm Password', 'early-secret'],
        ],
        'Create Account',
      ],
      ['/forgot-password', [['Email', 'early@example.com']], 'Send Reset Link'],
    ]
    for (const [path, fields, submit] of forms) {
      const { page, context, release } = await slowPhone(path)
      for (const [label, value] of fields) await page.getByLabel(label, { exact: true }).fill(value)
      expect(await hydrated(page)).toBe(false)
      await release()
      for (const [label, value] of fields) expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe(value)
      await enabled(page, submit)
      await context.close()
    }
    const { page, context, release } = await slowPhone('/contact')
    const contact: [string, string][] = [
      ['Your Name', 'Early Bird'],
      ['Your Email', 'early@example.com'],
      ['Your Message', 'Typed before the page was ready.'],
    ]
    for (const [label, value] of contact) await page.getByLabel(label).fill(value)
    expect(await hydrated(page)).toBe(false)
    await release()
    for (const [label, value] of contact) expect(await page.getByLabel(label).inputValue()).toBe(value)
    // The send button reads disabled (aria-disabled) until the form is valid.
    await page.locator('button[aria-disabled=false]', { hasText: 'Send Message' }).waitFor()
    await context.close()
  })
})
