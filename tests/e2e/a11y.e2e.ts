// Accessibility: axe-core, run inside Debian's Chromium, finds no serious or critical
// violation on the home player, a member's /player and the player with its playlist shown, at a
// desktop and a phone width. The pages carry a strict nonce CSP, so axe goes in through the
// DevTools protocol (page.evaluate of the library's text), which the page's CSP does not govern.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { expectTitle, setAdChance, tone } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

const AXE_SOURCE = readFileSync(path.resolve(import.meta.dir, '../../node_modules/axe-core/axe.min.js'), 'utf8')
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]

let server: TestServer
let browser: Browser
let fixtures: string
let album: string

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-a11y-'))
  album = path.join(fixtures, 'Album')
  mkdirSync(album)
  tone(path.join(album, '01 Intro.mp3'), 20, { title: 'Intro', artist: 'The Openers' })
  tone(path.join(album, '02 Outro.mp3'), 20, { title: 'Outro', artist: 'The Closers' }, 550)
  server = await startServer(adminEnv)
  mkdirSync(path.join(server.mediaRoot, 'library'))
  tone(path.join(server.mediaRoot, 'library', '01 Long Tone.mp3'), 20, { title: 'Long Tone', artist: 'Drone Unit' })
  // Indexed once written: the start-up scan may have walked while the files were being written (decision 099).
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

type Finding = { id: string; impact: string | null; help: string; targets: string[] }

/** Runs axe on the page as it stands; returns the serious and critical violations. */
async function seriousViolations(page: Page): Promise<Finding[]> {
  await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: any[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: v.impact as string | null,
      help: v.help as string,
      // The selector, then axe's own account of the failure (colours and ratio for contrast).
      targets: (v.nodes as { target: unknown[]; failureSummary?: string }[]).map(
        (n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    }))
  })
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/** One readable entry per violation (rule, impact, help, offending selectors), collected over a
 *  test's states so one failing run lists everything that needs fixing. */
async function audit(page: Page, where: string, report: string[]) {
  for (const f of await seriousViolations(page)) {
    report.push(`${where}: [${f.impact}] ${f.id} — ${f.help}\n    ${f.targets.join('\n    ')}`)
  }
}

describe('no serious or critical axe violation', () => {
  for (const { name, viewport } of WIDTHS) {
    test(`${name}: the home player, empty, then with a folder and its playlist shown`, async () => {
      const report: string[] = []
      const { page, context } = await newPage(browser, server.url, { viewport })
      await setAdChance(page, 0)
      await gotoHydrated(page, '/')
      await audit(page, `${name} / (no folder)`, report)
      await page.getByTestId('folder-input').setInputFiles(album)
      await expectTitle(page, 'Intro')
      await audit(page, `${name} / (folder loaded)`, report)
      await page.getByRole('button', { name: 'Show playlist' }).click()
      await page.getByRole('list', { name: 'Playlist' }).waitFor()
      await audit(page, `${name} / (playlist shown)`, report)
      await context.close()
      expect(report).toEqual([])
    })

    test(`${name}: a member's /player with a saved folder`, async () => {
      const m = await createMember(server.url)
      const made = await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Drones', path: '/library' } })
      expect(made.status).toBe(201)
      const report: string[] = []
      const { page, context } = await newPage(browser, server.url, { viewport })
      await setAdChance(page, 0)
      await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
      await gotoHydrated(page, `/player?fid=${made.body.data.id}`)
      await expectTitle(page, 'Long Tone')
      await audit(page, `${name} /player`, report)
      await page.getByRole('button', { name: 'Show playlist' }).click()
      await page.getByRole('list', { name: 'Playlist' }).waitFor()
      await audit(page, `${name} /player (playlist shown)`, report)
      await context.close()
      expect(report).toEqual([])
    })
  }
})
