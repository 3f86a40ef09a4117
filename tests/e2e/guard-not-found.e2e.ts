// Paths a new user types or follows, in Debian's Chromium: a members' page opened signed out goes
// to /login and, after signing in, back to that page (only a path on this site is honoured); an
// album or artist id the library does not have shows a not-found page, not a crash screen.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
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

async function signIn(page: Page, m: { email: string; password: string }) {
  await page.getByLabel('Email').fill(m.email)
  await page.getByLabel('Password', { exact: true }).fill(m.password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
}

describe('the guard sends back where the user was going', () => {
  test('/profile signed out → /login → signed in → /profile (with its query)', async () => {
    const m = await createMember(server.url)
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await gotoHydrated(page, '/profile?tab=security')
    await page.waitForURL((u) => u.pathname === '/login')
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()
    await signIn(page, m)
    await page.waitForURL((u) => u.pathname === '/profile')
    expect(new URL(page.url()).search).toBe('?tab=security')
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a return address off this site is ignored', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, `/login?returnUrl=${encodeURIComponent('//evil.example/profile')}`)
    await signIn(page, m)
    await page.waitForURL(server.url + '/')
    await context.close()
  })
})

describe('unknown library ids', () => {
  for (const [kind, path] of [
    ['Album', '/library/albums/no-such-album'],
    ['Artist', '/library/artists/no-such-artist'],
  ] as const)
    test(`${kind}: a not-found page with a way back to the library`, async () => {
      const m = await createMember(server.url)
      const { page, context } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
      await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
      await gotoHydrated(page, path)
      await page.getByRole('heading', { name: `${kind} not found` }).waitFor()
      expect(await page.getByText('Something went wrong').count()).toBe(0)
      await page.getByRole('main').getByRole('link', { name: 'Back to the library' }).click()
      await page.waitForURL((u) => u.pathname === '/library')
      await context.close()
    })
})
