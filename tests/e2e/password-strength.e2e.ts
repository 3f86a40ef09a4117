// The password strength hint under a new password, in Debian's Chromium against the built server:
// on sign-up, reset-password and /profile's password change the hint says in words (not colour
// alone) how strong the typed password is, in a polite live region, and says "Too common" once the
// server refused the password as one of the most used (the list itself stays on the server).
// Screenshots at 1280×800 and 390×844 go to shots/.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../shots')
const COMMON = 'This password is one of the most common passwords and easy to guess. Please choose another'
let server: TestServer
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const hint = (page: Page) => page.getByTestId('password-strength')
async function expectHint(page: Page, text: string) {
  await hint(page).getByText(text, { exact: false }).waitFor()
}

describe('password strength hint', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`sign-up: weak, fair, strong as typed, too common once the server says so (${viewport.width}px)`, async () => {
      const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport })
      await gotoHydrated(page, '/register')
      expect((await hint(page).textContent())?.trim()).toBe('')
      const password = page.getByLabel('Password', { exact: true })
      await password.fill('abc12')
      await expectHint(page, 'Too short')
      expect(await hint(page).getAttribute('aria-live')).toBe('polite')
      await password.fill('abcdef')
      await expectHint(page, 'Weak')
      await password.fill('Sunset42x')
      await expectHint(page, 'Fair')
      await password.fill('violet-tram-44-Quay')
      await expectHint(page, 'Strong')
      await page.screenshot({ path: path.join(SHOTS, `password-strength-register-${viewport.width}.png`), fullPage: true })

      const n = `${viewport.width}${Date.now().toString(36)}`
      await page.getByLabel('Username').fill(`user${n}`)
      await page.getByLabel('Email').fill(`user${n}@example.com`)
      await password.fill('Password1')
      await page.getByLabel('Confirm Password', { exact: true }).fill('Password1')
      await page.getByRole('button', { name: 'Create Account' }).click()
      await page.getByText(COMMON).waitFor()
      await expectHint(page, 'Too common')
      await page.screenshot({ path: path.join(SHOTS, `password-strength-common-${viewport.width}.png`), fullPage: true })
      // Another password is judged afresh.
      await password.fill('Password1x!long')
      await expectHint(page, 'Strong')
      // The refused sign-up's 400 is the one error the browser logs.
      expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([])
      await context.close()
    })
  }

  test('reset-password shows the hint under the new password', async () => {
    const { page, context } = await newPage(browser, server.url)
    await gotoHydrated(page, '/reset-password/some-token')
    await page.getByLabel('New Password', { exact: true }).fill('abcdef')
    await expectHint(page, 'Weak')
    await context.close()
  })

  test('/profile: the hint under the new password, too common after the server refused it', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, '/profile')
    const section = page.getByRole('region', { name: 'Password', exact: true })
    await section.getByLabel('Current password', { exact: true }).fill(m.password)
    await section.getByLabel('New password', { exact: true }).fill('qwerty123')
    await expectHint(page, 'Fair')
    await section.getByLabel('Confirm new password', { exact: true }).fill('qwerty123')
    await section.getByRole('button', { name: 'Change password' }).click()
    await page.getByText(COMMON).waitFor()
    await expectHint(page, 'Too common')
    await hint(page).scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(SHOTS, 'password-strength-profile-390.png') })
    await context.close()
  })
})
