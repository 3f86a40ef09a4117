// The admin sees names, not ids, in Debian's Chromium against the built server with a scanned
// library: the Playlists tab of Listening Analytics shows a member's library folder by label,
// owner and path with the number of tracks the library holds in it, a remote folder with its URL
// and "—" for its size, and the player's "remote" source by name; the dashboard's Hit Analytics
// shows an album page by the album's name, and pages of unknown ids under library/albums/:id.
// Screenshots at 1280×800 and 390×844 go to shots/.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SHOTS = path.resolve(import.meta.dir, '../../shots')
let server: TestServer
let browser: Browser
let owner: string

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ;[server, browser] = await Promise.all([startServer(adminEnv), launchBrowser()])
  for (const [i, title] of ['One', 'Two', 'Three', 'Four'].entries())
    makeTone(path.join(server.mediaRoot, 'Mix', `0${i + 1} ${title}.mp3`), { title, artist: 'Björk', album: 'Homogenic' })
  const admin = await loginAdmin(server.url)
  await scanLibraryNow(server.url, admin)
  const m = await createMember(server.url)
  owner = m.username
  const mix = (await api(server.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Road trip', path: '/Mix' } })).body.data.id as string
  // A remote folder as the folders page saves it (written directly: the test server may not fetch a URL).
  await sqlOn(server, 'INSERT INTO folders (id, user_id, label, path, position, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)', [
    'remote-folder-of-test',
    m.user.id,
    'Radio',
    'https://music.example/radio/',
    Date.now(),
    Date.now(),
  ])
  for (const [playlistId, title] of [
    [mix, 'One'],
    [mix, 'One'],
    [mix, 'One'],
    ['remote-folder-of-test', 'Far'],
    ['remote-folder-of-test', 'Far'],
    ['remote', 'Resumed'],
  ]) {
    await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: { trackUrl: `https://x.example/${title}.mp3`, title, duration: 60, playlistId } })
  }
  const album = (await api(server.url, 'GET', '/library/albums', { token: admin })).body.data.albums[0].id as string
  for (const page of [
    `library/albums/${album}`,
    `library/albums/${album}`,
    `library/albums/${album}`,
    'library/albums/0000000000000000',
    'library/albums/ffffffffffffffff',
  ])
    await api(server.url, 'GET', `/hits/page-hits?page=${page}`, { headers: { 'user-agent': 'UA-1' } })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`playlists and hit analytics show names and real sizes (${viewport.width}px)`, async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url, { viewport })
    await gotoHydrated(page, '/login')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await page.waitForURL('**/admin')

    const hits = page.getByRole('region', { name: 'Hit Analytics · 7 days' })
    await hits.getByText('Album · Homogenic').waitFor()
    await hits.getByRole('cell', { name: 'library/albums/:id', exact: true }).waitFor()
    await hits.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(SHOTS, `admin-hit-names-${viewport.width}.png`) })

    await gotoHydrated(page, '/admin/listening-analytics')
    await page.getByRole('tab', { name: 'Playlists' }).click()
    const table = page.getByRole('tabpanel').getByRole('region', { name: 'Playlist Performance' })
    await table.getByText('Road trip').waitFor()
    const rows = table.getByRole('row')
    const cells = async (n: number) => (await rows.nth(n).getByRole('cell').allTextContents()).slice(0, 4)
    expect(await cells(1)).toEqual([expect.stringContaining(`Road trip · ${owner}/Mix`), '3', '1', '4'])
    expect(await cells(2)).toEqual([expect.stringContaining(`Radio · ${owner}https://music.example/radio/`), '2', '1', '—Not known'])
    expect(await cells(3)).toEqual([expect.stringContaining('Remote URL or resumed queue'), '1', '1', '—Not known'])
    await page.screenshot({ path: path.join(SHOTS, `admin-playlists-${viewport.width}.png`), fullPage: true })
    expect(consoleErrors).toEqual([])
    await context.close()
  })
}
