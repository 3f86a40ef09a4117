// Nothing fake in the admin console: on an instance filled by `bun run seed:demo` (members, plays, hits,
// messages), every admin page shows this server's data in Debian's Chromium — seeded members,
// messages and plays appear, and no page falls back to sample text or an empty chart. The seeder
// writes SQLite; on PostgreSQL the seeded instance is moved with `vibes db copy`, as an operator
// would, and the SQLite file is removed so every page can only show what PostgreSQL holds.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { ADMIN, adminEnv } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { sqlOn } from '../helpers/engine'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, TEST_ENGINE, type TestServer } from '../helpers/server'

const ROOT = path.resolve(import.meta.dir, '../..')

let server: TestServer
let browser: Browser
let dataDir: string
let mediaRoot: string
let seeded: { username: string; sender: string; plays7: number }

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vibes-seeded-'))
  mediaRoot = mkdtempSync(path.join(tmpdir(), 'vibes-seeded-media-'))
  const env = { ...process.env, DATA_DIR: dataDir }
  const seed = Bun.spawnSync(['bun', 'scripts/seed-demo.ts', '--users', '30', '--events', '2000', '--days', '30'], { cwd: ROOT, env })
  if (seed.exitCode !== 0) throw new Error(`seed:demo failed: ${seed.stderr.toString()}`)
  let engine: Record<string, string> = {}
  if (TEST_ENGINE === 'postgres') {
    const url = await freshPostgresUrl()
    const copy = Bun.spawnSync(['bun', 'src/server/entry.ts', 'db', 'copy', '--to', url], { cwd: ROOT, env })
    if (copy.exitCode !== 0) throw new Error(`db copy failed: ${copy.stderr.toString()}`)
    for (const file of readdirSync(dataDir).filter((f) => f.startsWith('vibes.db'))) rmSync(path.join(dataDir, file))
    engine = { DATABASE_URL: url, AUTH_SECRET: TEST_AUTH_SECRET }
  }
  ;[server, browser] = await Promise.all([startServer({ ...adminEnv, ...engine }, { dataDir, mediaRoot }), launchBrowser()])
  // What the pages must show, read from the database the server runs on (the admin it has just
  // created aside: the newest member must be a seeded one).
  const [[user], [message], [plays]] = await Promise.all([
    sqlOn<{ username: string }>(server, 'SELECT username FROM users WHERE email <> ? ORDER BY created_at DESC LIMIT 1', [ADMIN.email]),
    sqlOn<{ name: string }>(server, 'SELECT name FROM contact_messages ORDER BY created_at DESC LIMIT 1'),
    sqlOn<{ n: number }>(server, 'SELECT count(*) AS n FROM play_events WHERE started_at >= ?', [Date.now() - 7 * 86_400_000]),
  ])
  seeded = { username: user.username, sender: message.name, plays7: plays.n }
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(mediaRoot, { recursive: true, force: true })
})

test('every admin page shows the seeded data and no sample text', async () => {
  expect(seeded.plays7).toBeGreaterThan(0)
  const { page, context, consoleErrors } = await newPage(browser, server.url)
  await gotoHydrated(page, '/login')
  await page.getByLabel('Email').fill(ADMIN.email)
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
  await page.waitForURL('**/admin')

  // What each page must show of the seeded instance.
  const expected: Array<[string, string | RegExp]> = [
    ['/admin/dashboard', 'New user registered'],
    ['/admin/users', seeded.username],
    ['/admin/messages', seeded.sender],
    ['/admin/insights', 'Total Plays'],
    ['/admin/listening-analytics', 'Total Plays'],
    ['/admin/stats', 'Views'],
    ['/admin/folders', seeded.username],
    ['/admin/music', 'Music Management'],
  ]
  const found: Record<string, string[]> = {}
  for (const [p, text] of expected) {
    await gotoHydrated(page, p)
    await page.getByText(text).first().waitFor({ timeout: 15_000 })
    await page.waitForLoadState('networkidle')
    const body = await page.locator('body').innerText()
    const problems = [/\bsample\b/i, /lorem ipsum/i, /No data available/i].filter((re) => re.test(body)).map(String)
    if (problems.length) found[p] = problems
  }
  expect(found).toEqual({})
  // The 7-day Total Plays on Insights is the seeded count, not a placeholder.
  await gotoHydrated(page, '/admin/insights')
  await page.getByText(seeded.plays7.toLocaleString('en-US'), { exact: true }).first().waitFor({ timeout: 15_000 })
  expect(consoleErrors).toEqual([])
  await context.close()
}, 180_000)
