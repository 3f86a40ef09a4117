// Contact, Charts, About and the footer counter in Debian's Chromium against the built server,
// with a real chart upstream (a Bun.serve feed server with its own artwork) on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { api, createMember } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

/** Keys reach an open select's list only once it holds the focus (Ark moves it there after opening). */
const listHasFocus = (page: Page) => page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'listbox')

const SHOTS = path.resolve(import.meta.dir, '../../test-results/screens')
const failing = new Set(['jp'])
/** A region whose feed answer the test holds back (to see the loading state). */
const held: Record<string, Promise<void>> = {}
const COLORS = ['#a855f7', '#ec4899', '#22c55e', '#eab308', '#3b82f6', '#f97316']

function artwork(n: number) {
  const [a, b] = [COLORS[n % COLORS.length], COLORS[(n + 2) % COLORS.length]]
  return `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100" height="100" fill="url(#g)"/><circle cx="50" cy="50" r="18" fill="rgba(0,0,0,.35)"/></svg>`
}

const SONGS = [
  ['Midnight Drive', 'Neon Coast', true],
  ['Paper Planes Over Lisbon', 'The Quiet Hours', false],
  ['Gold', 'Ama Rise', true],
  ['Slow Bloom', 'Kite & Harbor', false],
  ['Static Hearts', 'Velvet Echo', false],
  ['A Very Long Song Title That Has To Be Truncated On Small Screens', 'An Artist With A Long Name Too', true],
] as const

let upstream: ReturnType<typeof Bun.serve>
let server: TestServer
let browser: Browser

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  upstream = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const art = /^\/art\/(\d+)\.svg$/.exec(url.pathname)
      if (art) return new Response(artwork(Number(art[1])), { headers: { 'content-type': 'image/svg+xml' } })
      const feed = /^\/feeds\/([a-z]{2})\.json$/.exec(url.pathname)
      if (!feed) return new Response('not found', { status: 404 })
      const region = feed[1]
      if (failing.has(region)) return new Response('down', { status: 503 })
      await held[region]
      const base = `http://127.0.0.1:${upstream.port}`
      return Response.json({
        feed: {
          updated: new Date(Date.now() - 3 * 3_600_000).toUTCString(),
          results: SONGS.map(([name, artistName, explicit], i) => ({
            name: i === 0 ? `${name} (${region.toUpperCase()})` : name,
            artistName,
            // One hostile item: its artwork must never reach the page.
            artworkUrl100: i === 4 ? 'javascript:alert(document.domain)' : `${base}/art/${i}.svg`,
            ...(explicit ? { contentAdvisoryRating: 'Explicit' } : {}),
          })),
        },
      })
    },
  })
  ;[server, browser] = await Promise.all([
    startServer({ CHARTS_SOURCE_URL: `http://127.0.0.1:${upstream.port}/feeds/{region}.json`, DEFAULT_COUNTRY: 'US' }),
    launchBrowser(),
  ])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  upstream?.stop(true)
})

describe('contact', () => {
  test('validation appears after touch, submit is disabled until valid, success clears the form', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await gotoHydrated(page, '/contact')
    const submit = page.getByRole('button', { name: 'Send Message' })
    expect(await submit.isDisabled()).toBe(true)
    expect(await submit.getAttribute('aria-disabled')).toBe('true')
    expect(await page.getByText('Name is required').count()).toBe(0)
    expect(await page.getByText('Name must be at least 2 characters').count()).toBe(0)

    const name = page.getByLabel('Your Name')
    await name.fill('A')
    expect(await page.getByText('Name must be at least 2 characters').count()).toBe(0)
    await name.blur()
    await page.getByText('Name must be at least 2 characters').waitFor()
    await page.getByLabel('Your Email').fill('grace@example')
    await page.getByLabel('Your Email').blur()
    await page.getByText('Please enter a valid email address').waitFor()
    await page.getByLabel('Your Message').fill('Hi')
    await page.getByLabel('Your Message').blur()
    await page.getByText('Message must be at least 10 characters').waitFor()
    expect(await submit.isDisabled()).toBe(true)

    await name.fill('Grace Hopper')
    await page.getByLabel('Your Email').fill('grace@example.com')
    await page.getByLabel('Your Message').fill('The charts page is lovely. Can it show albums too?')
    expect(await page.getByRole('alert').count()).toBe(0)
    await submit.click()
    await page.getByText("Thank you for your message! We'll get back to you as soon as possible.").waitFor()
    expect(await name.inputValue()).toBe('')
    expect(await page.getByLabel('Your Message').inputValue()).toBe('')
    expect(await page.getByText('Name is required').count()).toBe(0)

    expect(await sqlOn(server, 'SELECT name, email, subject FROM contact_messages')).toEqual([
      { name: 'Grace Hopper', email: 'grace@example.com', subject: 'The charts page is lovely.' },
    ])

    await page.getByRole('link', { name: 'Back to Home' }).click()
    await page.waitForURL(server.url + '/')
    expect(consoleErrors).toEqual([])
    await context.close()
  })
})

describe('contact by keyboard, and its error state', () => {
  test('Tab through the fields, Enter sends; a failed send keeps the text and says so', async () => {
    const { page, context } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    await gotoHydrated(page, '/contact')
    const name = page.getByLabel('Your Name')
    // Pressing Send while the form is incomplete shows every field's problem and goes to the first.
    await page.getByRole('button', { name: 'Send Message' }).press('Enter')
    for (const text of ['Name is required', 'Email is required', 'Message is required']) await page.getByText(text).waitFor()
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'fullName')
    await page.keyboard.type('Nadia 🎧 نادية')
    await page.keyboard.press('Tab')
    await page.keyboard.type('nadia@example.com')
    await page.keyboard.press('Tab')
    await page.keyboard.type('<b>Not bold</b> — the form sends markup as plain text.')
    await page.getByText('54/500 characters').waitFor()

    let status = 500
    await page.route('**/api/trpc/contact.create**', (route) =>
      status === 0
        ? route.abort('connectionrefused')
        : route.fulfill({
            status,
            contentType: 'application/json',
            body: JSON.stringify([{ error: { json: { message: 'x', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: status } } } }]),
          }),
    )
    await page.keyboard.press('Tab')
    expect(await page.getByRole('button', { name: 'Send Message' }).evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByRole('alert').filter({ hasText: 'Failed to submit the form. Please try again.' }).waitFor()
    expect(await name.inputValue()).toBe('Nadia 🎧 نادية')
    await page.screenshot({ path: path.join(SHOTS, 'contact-error-390.png') })
    status = 0
    await page.getByRole('button', { name: 'Send Message' }).press('Enter')
    await page.getByRole('alert').filter({ hasText: 'An unexpected error occurred. Please try again later.' }).waitFor()

    await page.unroute('**/api/trpc/contact.create**')
    await page.getByRole('button', { name: 'Send Message' }).press('Enter')
    const thanks = page.getByRole('status').filter({ hasText: "Thank you for your message! We'll get back to you as soon as possible." })
    await thanks.waitFor()
    expect(await page.getByLabel('Your Message').inputValue()).toBe('')
    // The emptied form's button is inert, so focus moved to the thank-you text rather than <body>.
    expect(await thanks.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.screenshot({ path: path.join(SHOTS, 'contact-success-390.png') })
    expect(await sqlOn(server, "SELECT name, message FROM contact_messages WHERE email = 'nadia@example.com'")).toEqual([
      { name: 'Nadia 🎧 نادية', message: '<b>Not bold</b> — the form sends markup as plain text.' },
    ])
    await context.close()
  })
})

describe('charts', () => {
  test('shows the US chart with artwork and Explicit tags; the region select works by keyboard alone and fetches at once', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await gotoHydrated(page, '/charts')
    await page.getByText('What the United States is listening to right now.').waitFor()
    const list = page.getByRole('list', { name: 'Most-Played Songs' })
    await list.getByText('Midnight Drive (US)').waitFor()
    const rows = list.getByRole('listitem')
    expect(await rows.count()).toBe(SONGS.length)
    const first = rows.first()
    expect(await first.getByText('Neon Coast').count()).toBe(1)
    expect(await first.getByText('Explicit').count()).toBe(1)
    expect(await rows.nth(1).getByText('Explicit').count()).toBe(0)
    await page.waitForFunction(() =>
      [...document.querySelectorAll('ol img')].every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
    )
    // Every song but the one whose feed artwork is a javascript: URL has its cover.
    expect(await list.locator('img').count()).toBe(SONGS.length - 1)
    expect(await list.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).src.startsWith('http://127.0.0.1:')))).toBe(true)
    expect(await page.locator('[src^="javascript:" i], [href^="javascript:" i]').count()).toBe(0)

    const listen = first.getByRole('button', { name: 'Listen' })
    expect(await listen.isDisabled()).toBe(true)
    expect(await listen.getAttribute('aria-describedby')).toBe('listen-unavailable')
    await listen.hover({ force: true })
    await page.getByRole('tooltip').getByText('Listening functionality unavailable').waitFor()

    await page.getByText('Last updated 3 hours ago').waitFor()
    await page.getByText(/^Updated: \d/).waitFor()

    // Keyboard only: Tab to the select, open it with ArrowDown, move to United Kingdom, choose it.
    const select = page.getByRole('combobox', { name: 'Region' })
    for (let i = 0; i < 20 && !(await select.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab')
    expect(await select.evaluate((el) => el === document.activeElement && getComputedStyle(el).outlineStyle !== 'none')).toBe(true)
    await page.keyboard.press('ArrowDown')
    await page.getByRole('listbox').waitFor()
    await listHasFocus(page)
    await page.keyboard.press('ArrowDown')
    await page.locator('[role=option][data-highlighted]', { hasText: 'United Kingdom' }).waitFor()
    await page.keyboard.press('Enter')
    await list.getByText('Midnight Drive (GB)').waitFor()
    expect(await select.textContent()).toBe('United Kingdom')
    expect(await select.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await page.getByText('Midnight Drive (US)').count()).toBe(0)
    await page.getByRole('heading', { name: 'Top songs · United Kingdom' }).waitFor()

    // Typeahead: Enter opens, "j" jumps to Japan (feed down, no plays: the empty state), Enter picks.
    await page.keyboard.press('Enter')
    await page.getByRole('listbox').waitFor()
    // The open list highlights the current region once it has taken focus: type only then.
    await page.locator('[role=option][data-highlighted]', { hasText: 'United Kingdom' }).waitFor()
    await listHasFocus(page)
    await page.keyboard.type('j')
    await page.locator('[role=option][data-highlighted]', { hasText: 'Japan' }).waitFor()
    await page.keyboard.press('Enter')
    await page.getByText('No chart data available').waitFor()
    await page.getByText('Nothing has been played from Japan on this server in the last 30 days. Check back soon.').waitFor()
    // Escape on an open list closes it and leaves focus on the select.
    await page.keyboard.press('Enter')
    await page.getByRole('listbox').waitFor()
    // As above: the list takes keys once it has focus and highlights the current region.
    await page.locator('[role=option][data-highlighted]', { hasText: 'Japan' }).waitFor()
    await listHasFocus(page)
    await page.keyboard.press('Escape')
    await page.getByRole('listbox').waitFor({ state: 'detached' })
    expect(await select.evaluate((el) => el === document.activeElement)).toBe(true)

    // Refresh by keyboard re-fetches, and keeps focus on the button.
    await page.keyboard.press('Tab')
    const refetch = page.waitForRequest((req) => req.url().includes('/api/trpc/charts.byRegion') && decodeURIComponent(req.url()).includes('"region":"jp"'))
    await page.keyboard.press('Enter')
    await refetch
    await page.getByText('No chart data available').waitFor()
    expect(await page.getByRole('button', { name: 'Refresh' }).evaluate((el) => el === document.activeElement)).toBe(true)
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('a region with no plays points to this server’s worldwide chart, which ranks the LAN’s plays', async () => {
    const member = await createMember(server.url)
    for (const [title, n] of [
      ['Garden Party', 2],
      ['Attic Echoes', 1],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const res = await api(server.url, 'POST', '/playlist/plays', {
          token: member.token,
          body: { trackUrl: `/media/lan/${n}.mp3`, title, artist: 'Home Band', duration: 90 },
        })
        expect(res.status).toBe(201)
      }
    }
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await gotoHydrated(page, '/charts')
    await page.getByRole('combobox', { name: 'Region' }).click()
    // Japan's feed is down and nobody played from there: the local chart is empty.
    await page.getByRole('option', { name: 'Japan' }).click()
    await page.getByText('No chart data available').waitFor()
    await page.getByRole('button', { name: "Show this server's worldwide chart" }).click()
    await page.getByRole('heading', { name: 'Top songs · Worldwide (this server)' }).waitFor()
    await page.getByText('Garden Party', { exact: true }).waitFor()
    await page.getByText('Attic Echoes', { exact: true }).waitFor()
    await page.getByText('Ranked by plays from everyone on this server over the last 30 days.').waitFor()
    expect(await page.getByRole('combobox', { name: 'Region' }).textContent()).toBe('Worldwide (this server)')
    const shots = process.env.SCREENSHOT_DIR
    if (shots) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 })
        await page.waitForTimeout(150)
        await page.screenshot({ path: path.join(shots, `charts-worldwide-${width}.png`), fullPage: true })
      }
    }
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('loading and error states are visible; Try Again recovers', async () => {
    const { page, context } = await newPage(browser, server.url, { viewport: { width: 390, height: 844 } })
    let release!: () => void
    held.de = new Promise((resolve) => (release = resolve))
    await gotoHydrated(page, '/charts')
    await page.getByRole('list', { name: 'Most-Played Songs' }).waitFor()
    await page.getByRole('combobox', { name: 'Region' }).click()
    await page.getByRole('option', { name: 'Germany' }).click()
    await page.getByRole('status', { name: 'Loading charts' }).waitFor()
    expect(await page.getByRole('button', { name: 'Refresh' }).getAttribute('aria-busy')).toBe('true')
    await page.screenshot({ path: path.join(SHOTS, 'charts-loading-390.png') })
    release()
    await page.getByText('Midnight Drive (DE)').waitFor()

    await page.route('**/api/trpc/charts.byRegion**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify([
          { error: { json: { message: 'Internal server error', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } } },
        ]),
      }),
    )
    await page.getByRole('combobox', { name: 'Region' }).click()
    await page.getByRole('option', { name: 'Greece' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'Error Loading Charts' })
    await alert.getByText('HTTP error 500').waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'charts-error-390.png') })
    await page.unroute('**/api/trpc/charts.byRegion**')
    await alert.getByRole('button', { name: 'Try Again' }).click()
    await page.getByText('Midnight Drive (GR)').waitFor()
    await context.close()
  })

  test('re-fetches every 60 seconds and the relative time ticks (fake clock)', async () => {
    const { page, context } = await newPage(browser, server.url)
    await page.clock.install()
    await gotoHydrated(page, '/charts')
    await page.getByRole('list', { name: 'Most-Played Songs' }).getByText('Midnight Drive (US)').waitFor()
    await page.getByText('Last updated 3 hours ago').waitFor()
    const refetch = page.waitForRequest((req) => req.url().includes('/api/trpc/charts.byRegion'))
    await page.clock.fastForward(61_000)
    expect(decodeURIComponent((await refetch).url())).toContain('"region":"us"')
    await page.clock.fastForward(60 * 60_000)
    await page.getByText('Last updated 4 hours ago').waitFor()
    await context.close()
  })
})

describe('footer counter', () => {
  test('counts exactly one hit per navigation: not for hover preloads, re-renders or unknown paths', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    const counter = page.getByTestId('page-visits')
    const hits = async () => {
      const rows = await sqlOn<{ page: string; n: number }>(
        server,
        "SELECT page, count(*) AS n FROM page_hits WHERE page IN ('about', 'contact', 'charts', 'home', 'no-such-page') GROUP BY page",
      )
      return Object.fromEntries(rows.map((r) => [r.page, r.n]))
    }
    const before = await hits()
    const seen = (p: string) => before[p] ?? 0
    const settled = async (text: string) => {
      await counter.getByText(text).waitFor()
      await page.waitForLoadState('networkidle')
    }
    await gotoHydrated(page, '/about')
    await settled(`Page Visits: ${seen('about') + 1}`)

    const nav = page.getByRole('navigation', { name: 'Main' })
    // Hovering a link preloads its route (defaultPreload: 'intent'); that is no visit.
    await nav.getByRole('link', { name: 'Charts' }).hover()
    await nav.getByRole('link', { name: 'Contact' }).hover()
    await page.waitForLoadState('networkidle')
    await nav.getByRole('link', { name: 'Contact' }).click()
    await page.waitForURL('**/contact')
    await settled(`Page Visits: ${seen('contact') + 1}`)
    // Typing re-renders the page many times; still one visit.
    await page.getByLabel('Your Name').fill('Re Render')
    await nav.getByRole('link', { name: 'About' }).click()
    await page.waitForURL('**/about')
    await settled(`Page Visits: ${seen('about') + 2}`)
    await page.goBack()
    await page.waitForURL('**/contact')
    await settled(`Page Visits: ${seen('contact') + 2}`)
    await page.reload()
    await settled(`Page Visits: ${seen('contact') + 3}`)
    // An unknown path redirects to / and counts for home only.
    await page.goto('/no-such-page')
    await page.waitForURL(server.url + '/')
    await settled(`Page Visits: ${seen('home') + 1}`)

    expect(await hits()).toEqual({ ...before, about: seen('about') + 2, contact: seen('contact') + 3, home: seen('home') + 1 })
    // The server answers an unknown path's document with 404 before the client redirects.
    expect(consoleErrors.filter((e) => !e.includes('status of 404'))).toEqual([])
    await context.close()
  })

  test('shows "Loading..." while the call is out, then "Stats unavailable" on failure — only that, no error toast', async () => {
    const { page, context } = await newPage(browser, server.url)
    let fail!: () => void
    const failed = new Promise<void>((resolve) => (fail = resolve))
    await page.route('**/api/trpc/hits.record**', async (route) => {
      await failed
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify([{ error: { json: { message: 'x', code: -32603, data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 } } } }]),
      })
    })
    await gotoHydrated(page, '/about')
    const counter = page.getByTestId('page-visits')
    await counter.getByText('Loading...').waitFor()
    fail()
    await counter.getByText('Stats unavailable').waitFor()
    await page.waitForLoadState('networkidle')
    expect(await page.getByText('Server Error').count()).toBe(0)
    await context.close()
  })
})

describe('layout', () => {
  test('/contact, /about and /charts fit 1280 and 390 px without sideways scrolling', async () => {
    for (const width of [1280, 390]) {
      const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport: { width, height: width > 500 ? 900 : 844 } })
      for (const route of ['/contact', '/about', '/charts']) {
        await gotoHydrated(page, route)
        if (route === '/charts')
          await page.waitForFunction(
            () => document.querySelectorAll('ol img').length > 0 && [...document.querySelectorAll('ol img')].every((i) => (i as HTMLImageElement).complete),
          )
        await page
          .getByTestId('page-visits')
          .getByText(/^Page Visits: \d+$/)
          .waitFor()
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect({ route, width, overflow }).toEqual({ route, width, overflow: 0 })
        await page.screenshot({ path: path.join(SHOTS, `${route.slice(1)}-${width}.png`), fullPage: true })
      }
      expect(consoleErrors).toEqual([])
      await context.close()
    }
  })
})
