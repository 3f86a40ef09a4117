// A crafted MP3 whose embedded "cover" is an HTML page with a script, opened in Debian's Chromium
// the way a victim would open a link to it: the signed cover URL of a library file, in a browser
// where the admin is signed in (token in localStorage). The page must never render as HTML nor
// run the script; it would read the token.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { signMediaUrl } from '~/server/media/sign'
import { adminEnv, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { makeToneWithPicture } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'media-cover-e2e-secret-'.repeat(3)
const EVIL = `<!DOCTYPE html><html><head><title>cover</title></head><body><h1 id="evil">Evil cover</h1><script>
  window.__pwned = true;
  document.title = 'pwned:' + localStorage.getItem('token');
</script></body></html>`

let server: TestServer
let browser: Browser
let adminToken: string

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
  const enc = new TextEncoder()
  makeToneWithPicture(path.join(server.mediaRoot, 'evil/html.mp3'), 'text/html', enc.encode(EVIL), { title: 'Html Cover' })
  makeToneWithPicture(path.join(server.mediaRoot, 'evil/lying.mp3'), 'image/jpeg', enc.encode(EVIL), { title: 'Lying Cover' })
  ;[adminToken, browser] = await Promise.all([loginAdmin(server.url), launchBrowser()])
  // Indexed once written: the start-up scan may have walked while the files were being written (decision 099).
  await scanLibraryNow(server.url, adminToken)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('an HTML "cover" in an audio file', () => {
  test('its cover URL, opened by a signed-in admin, never renders a page nor runs the script', async () => {
    const { context, page } = await newPage(browser, server.url)
    try {
      // The admin is signed in on this origin, as the attacker hopes.
      await context.addInitScript((t) => localStorage.setItem('token', t), adminToken)
      await gotoHydrated(page, '/')
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(adminToken)

      for (const rel of ['evil/html.mp3', 'evil/lying.mp3']) {
        const response = await page.goto(signMediaUrl(SECRET, rel, 'cover'))
        expect(response).not.toBeNull()
        // Give a script that did run every chance to show itself.
        await page.waitForLoadState('load')
        await Bun.sleep(200)
        const seen = await page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: boolean }).__pwned ?? false,
          title: document.title,
          evilHeading: document.getElementById('evil') !== null,
          text: document.body?.innerText ?? '',
        }))
        const headers = response!.headers()
        expect({ rel, ...seen, html: /html/i.test(headers['content-type'] ?? ''), csp: headers['content-security-policy'] }).toEqual({
          rel,
          pwned: false,
          title: '',
          evilHeading: false,
          text: 'No cover art',
          html: false,
          csp: "default-src 'none'; sandbox",
        })
      }
    } finally {
      await context.close()
    }
  })
})
