// Account flows in Debian's Chromium against the built server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { adminEnv, ADMIN, createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'
import { startSmtp } from '../helpers/smtp'

let server: TestServer
let browser: Browser
let smtp: Awaited<ReturnType<typeof startSmtp>>

beforeAll(async () => {
  smtp = await startSmtp()
  ;[server, browser] = await Promise.all([startServer({ ...adminEnv, SMTP_URL: smtp.url }), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.close()
})

describe('accounts in the browser', () => {
  test('register → login → Folders appears in the nav → logout', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await gotoHydrated(page, '/register')
    await page.getByLabel('Username').fill('zoe')
    await page.getByLabel('Email').fill('zoe.quinn@example.com')
    await page.getByLabel('Password', { exact: true }).fill('zoe-secret')
    await page.getByLabel('Confirm Password', { exact: true }).fill('zoe-secret')
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()

    await page.getByLabel('Email').fill('zoe.quinn@example.com')
    await page.getByLabel('Password', { exact: true }).fill('zoe-secret')
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL(server.url + '/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Folders' }).waitFor()
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)

    await page.getByRole('button', { name: 'Account menu for Zoe Quinn' }).click()
    await page.getByRole('menu').getByText('zoe.quinn@example.com').waitFor()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await page.getByRole('link', { name: 'Login' }).first().waitFor()
    expect(await nav.getByRole('link', { name: 'Folders' }).count()).toBe(0)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('validation messages appear only after a field is touched; submit stays disabled', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/register')
    expect(await page.getByText('Email is required').count()).toBe(0)
    const submit = page.getByRole('button', { name: 'Create Account' })
    expect(await submit.isDisabled()).toBe(true)
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Email').blur()
    await page.getByText('Please enter a valid email address').waitFor()
    await page.getByLabel('Password', { exact: true }).fill('abcdef')
    await page.getByLabel('Confirm Password', { exact: true }).fill('abcdeX')
    await page.getByLabel('Confirm Password', { exact: true }).blur()
    await page.getByText('Passwords do not match').waitFor()
    // Changing the password re-checks the confirmation.
    await page.getByLabel('Password', { exact: true }).fill('abcdeX')
    await page.getByText('Passwords do not match').waitFor({ state: 'detached' })
    await context.close()
  })

  test('a wrong password shows the server message and keeps the user signed out', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/login')
    await page.getByLabel('Email').fill(m.email)
    await page.getByLabel('Password', { exact: true }).fill('wrong-password')
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.getByText('Invalid email or password').waitFor()
    await context.close()
  })

  test('guards: /folders sends visitors to /login, /admin sends members to /, admins land on /admin', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/folders')
    await page.waitForURL(server.url + '/login?returnUrl=%2Ffolders')
    await gotoHydrated(page, '/admin')
    await page.waitForURL(server.url + '/')
    await gotoHydrated(page, '/no/such/page')
    await page.waitForURL(server.url + '/')

    await gotoHydrated(page, '/login')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL('**/admin')
    await page.getByText('Operational').waitFor()
    await page.getByText('Connected').waitFor()
    await context.close()
  })

  test('login follows a same-site returnUrl and ignores one that points elsewhere', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/login?returnUrl=%2F%2Fevil.example%2Fx')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL(server.url + '/admin')
    await page.evaluate(() => localStorage.clear())
    await context.clearCookies()
    await gotoHydrated(page, '/login?returnUrl=%2Fcharts')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL(server.url + '/charts')
    await context.close()
  })

  test('an expired session on a member page: toast, logout after 1 s, back to /login', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/')
    await page.evaluate((t) => localStorage.setItem('token', t), m.token)
    // Revoke the session behind the browser's back.
    await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${m.token}` } })
    await gotoHydrated(page, '/folders')
    await page.getByText('Your session has expired. Please log in again.').waitFor()
    // Signing in again may come back to /folders (the guard's return address).
    await page.waitForURL((u) => u.pathname === '/login')
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await context.close()
  })

  test('forgot → e-mailed link → reset → login with the new password', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/forgot-password')
    await page.getByLabel('Email').fill(m.email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await page.getByText('Password reset instructions have been sent to your email.', { exact: false }).waitFor()
    const mail = await smtp.waitFor(m.email)
    const link = /https?:\/\/[^\s"<>]+\/reset-password\/[a-z0-9]+/.exec(mail.raw.replace(/=\r?\n/g, ''))![0]
    await gotoHydrated(page, new URL(link).pathname)
    await page.getByLabel('New Password', { exact: true }).fill('fresh-pass-1')
    await page.getByLabel('Confirm Password', { exact: true }).fill('fresh-pass-1')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByText('Your password has been reset successfully!', { exact: false }).waitFor()
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 6000 })
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor()
    await page.getByLabel('Email').fill(m.email)
    await page.getByLabel('Password', { exact: true }).fill('fresh-pass-1')
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL(server.url + '/')
    await context.close()
  })
})
