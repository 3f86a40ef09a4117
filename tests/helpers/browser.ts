// Debian's Chromium driven by playwright-core (no downloaded browsers).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** `extraArgs` and `ignoreDefaultArgs` are for a test that needs more (tab capture: tab-audio.ts). */
export async function launchBrowser(options: { extraArgs?: string[]; ignoreDefaultArgs?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    ignoreDefaultArgs: options.ignoreDefaultArgs,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
      ...(options.extraArgs ?? []),
    ],
  })
}

/** A fresh context (own storage) and page; console errors are collected for assertions. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: opts.viewport ?? { width: 1280, height: 800 } })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const consoleErrors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text())
  })
  page.on('pageerror', (err) => consoleErrors.push(String(err)))
  return { context, page, consoleErrors }
}

/** Waits until React has hydrated the page (the router marks the document). */
export async function gotoHydrated(page: Page, path: string) {
  await page.goto(path)
  await page.waitForFunction(() => (window as unknown as { __vibesHydrated?: boolean }).__vibesHydrated === true)
}
