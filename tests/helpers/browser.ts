// Debian's Chromium driven by playwright-core (no downloaded browsers).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** `extraArgs` and `ignoreDefaultArgs` are for a test that needs more (tab capture: tab-audio.ts). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--autoplay-policy=no-user-gesture-required',
]

export async function launchBrowser(options: { extraArgs?: string[]; ignoreDefaultArgs?: string[] } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, ignoreDefaultArgs: options.ignoreDefaultArgs, args: [...ARGS, ...(options.extraArgs ?? [])] })
}

/** Chromium with a profile in `userDataDir` (not incognito, as every newContext is): for what
 *  Chromium offers only to a real profile, such as installing the app. */
export async function launchPersistent(userDataDir: string, baseURL: string): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, args: ARGS, baseURL, viewport: { width: 1280, height: 800 } })
  context.setDefaultTimeout(10_000)
  return context
}

/**
 * A fresh context (own storage) and page; console errors are collected for assertions. The app's
 * service worker is blocked unless `serviceWorkers: 'allow'`: requests it answers never reach
 * page.route, which many tests use to hold or fail a request (tests/e2e/pwa.e2e.ts allows it).
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  opts: { viewport?: { width: number; height: number }; serviceWorkers?: 'allow' | 'block' } = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: opts.serviceWorkers ?? 'block',
  })
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
