// The player for members in Debian's Chromium: a real remote folder (Python's http.server on
// loopback, allowed with REMOTE_ALLOW_HOSTS) loaded through the Remote URL tab, its error toasts,
// the video → audio/mpeg fallback in the stored list, a saved folder on /player with its play
// events, repeat and share interactions, and the 30-second progress reports (Playwright's clock).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { startPython, type ListingServer } from '../helpers/listing-servers'
import { clip, expectTitle, garbage, media, playsPast, readRows, setAdChance, tone, waitForRow, waitPaused, type Row } from '../helpers/player'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let listing: ListingServer
let served: string

beforeAll(async () => {
  served = mkdtempSync(path.join(tmpdir(), 'vibes-remote-'))
  const jazz = path.join(served, 'music', 'Jazz Night')
  mkdirSync(jazz, { recursive: true })
  // Long enough that no track ends by itself while a test looks at it.
  tone(path.join(jazz, '01 Blue Morning.mp3'), 15)
  tone(path.join(jazz, 'Ella Fitzgerald - Late Show 1957.mp3'), 15, {}, 550)
  clip(path.join(jazz, '03 Night Clip.mp4'), 3)
  mkdirSync(path.join(served, 'empty'))
  writeFileSync(path.join(served, 'empty', 'readme.txt'), 'no media here')
  mkdirSync(path.join(served, 'broken'))
  writeFileSync(path.join(served, 'broken', '01 Broken Clip.mp4'), garbage())
  writeFileSync(path.join(served, 'broken', '02 Broken Tune.ogg'), garbage())
  writeFileSync(path.join(served, 'broken', '03 Broken Song.mp3'), garbage())
  tone(path.join(served, 'broken', '04 Fine Song.mp3'), 3)
  // A folder on the member's own device (not served).
  mkdirSync(path.join(served, 'device', 'Offline Mix'), { recursive: true })
  tone(path.join(served, 'device', 'Offline Mix', 'Rainy Day.mp3'), 15, { title: 'Rainy Day', artist: 'Clouds' })

  server = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: '127.0.0.1' })
  // The member folder lives in MEDIA_ROOT: a long tone for the progress reports and a short one.
  mkdirSync(path.join(server.mediaRoot, 'library'))
  tone(path.join(server.mediaRoot, 'library', '01 Long Tone.mp3'), 45, { title: 'Long Tone', artist: 'Drone Unit', genre: 'Ambient', date: 2004 })
  tone(path.join(server.mediaRoot, 'library', '02 Short Tone.mp3'), 10, { title: 'Short Tone', artist: 'Drone Unit' }, 660)
  // Written while the start-up scan may be running (slower to start on PostgreSQL, which takes a
  // lease first): that scan can index a half-written file, so the folder's list is read after a scan.
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  ;[listing, browser] = await Promise.all([startPython(served, '127.0.0.1'), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await listing?.stop()
  await server?.stop()
  rmSync(served, { recursive: true, force: true })
})

async function memberPage(pathname = '/') {
  const m = await createMember(server.url)
  const opened = await newPage(browser, server.url)
  await setAdChance(opened.page, 0)
  await opened.page.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await gotoHydrated(opened.page, pathname)
  return { m, ...opened }
}

async function loadRemote(page: Page, url: string) {
  await page.getByRole('tab', { name: 'Remote URL' }).click()
  await page.getByLabel('Remote Folder URL').fill(url)
  await page.getByRole('button', { name: 'Load Remote Playlist' }).click()
}

const toast = (page: Page) => page.getByRole('status').filter({ has: page.locator('[data-part=title]') })

describe('remote folders', () => {
  test('a member loads a real directory listing: toast, playback, the play event, a reload keeps it', async () => {
    const { m, page, context, consoleErrors } = await memberPage()
    const folderUrl = `${listing.url}/music/Jazz%20Night/`
    await loadRemote(page, folderUrl)
    await toast(page).getByText('Playlist loaded').waitFor()
    await toast(page).getByText('Playing 3 tracks from Jazz Night').waitFor()
    await expectTitle(page, '01 Blue Morning')
    await playsPast(page, 0.5)
    expect((await media(page)).src).toBe(`${folderUrl}01%20Blue%20Morning.mp3`)
    await page.getByText('Jazz Night', { exact: true }).waitFor()
    expect(await page.getByRole('radio', { name: 'Remote (3)' }).getAttribute('aria-checked')).toBe('true')
    expect(await page.getByTestId('track-count').textContent()).toBe('3 tracks')

    const row = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ?', [m.user.id])
    expect(row).toMatchObject({
      track_url: `${folderUrl}01%20Blue%20Morning.mp3`,
      title: '01 Blue Morning',
      source: 'playlist',
      playlist_id: 'remote',
      next_track: `${folderUrl}03%20Night%20Clip.mp4`,
      session_position: 1,
    })
    // An untagged 'Artist - Title 19xx' file name gives artist, title and year.
    const ella = page.getByRole('list', { name: 'Track list' }).getByRole('button', { name: /Late Show 1957/ })
    expect(await ella.textContent()).toContain('Ella Fitzgerald')
    expect(await ella.textContent()).not.toContain('Ella Fitzgerald - ')

    // The source chooser: one tab stop, arrows switch between the local and the remote list.
    const remoteRadio = page.getByRole('radio', { name: 'Remote (3)' })
    expect(await remoteRadio.getAttribute('tabindex')).toBe('0')
    expect(await page.getByRole('radio', { name: 'Local (0)' }).getAttribute('tabindex')).toBe('-1')
    await remoteRadio.focus()
    await page.keyboard.press('ArrowLeft')
    expect(await page.getByRole('radio', { name: 'Local (0)' }).getAttribute('aria-checked')).toBe('true')
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    await page.keyboard.press('ArrowRight')
    await expectTitle(page, '01 Blue Morning')
    expect(await remoteRadio.getAttribute('aria-checked')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remote (3)')

    // A reload shows the stored list again, paused until asked.
    await gotoHydrated(page, '/')
    await expectTitle(page, '01 Blue Morning')
    expect(await page.getByRole('radio', { name: 'Remote (3)' }).getAttribute('aria-checked')).toBe('true')
    expect((await media(page)).paused).toBe(true)
    await page.getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.3)

    // Logging out stops playback and forgets the remote list.
    await page.getByRole('button', { name: /^Account menu for / }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    await waitPaused(page)
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('vibes:user:')))).toEqual([])
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('"Loading..." while the server reads; an empty listing, a refused address and a missing folder are error toasts', async () => {
    const { page, context } = await memberPage()
    // Hold the first call so the busy state can be seen.
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    await page.route('**/api/trpc/remote.playlist**', async (route) => {
      await held
      await route.continue()
    })
    await loadRemote(page, `${listing.url}/empty/`)
    const busy = page.getByRole('button', { name: 'Loading...' })
    await busy.waitFor()
    expect(await busy.isDisabled()).toBe(true)
    expect(await page.getByLabel('Remote Folder URL').isDisabled()).toBe(true)
    release()
    await toast(page).getByText('No tracks found in the provided URL').waitFor()
    expect(await toast(page).getByText('Error', { exact: true }).count()).toBe(1)

    await loadRemote(page, 'http://10.1.2.3/music/')
    await toast(page).getByText('Remote URL refused: 10.1.2.3 is a private address (set REMOTE_ALLOW_PRIVATE or REMOTE_ALLOW_HOSTS to allow it)').waitFor()

    await loadRemote(page, `${listing.url}/no-such-folder/`)
    await toast(page)
      .getByText(/^That address answered 404 File not found/)
      .waitFor()
    // Nothing was loaded: the player is still empty and the button is usable again.
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    expect(await page.getByRole('button', { name: 'Load Remote Playlist' }).isEnabled()).toBe(true)
    await context.close()
  })

  test('media errors: video and failed audio become audio/mpeg in the playlist and the stored list', async () => {
    const { page, context } = await memberPage()
    const folderUrl = `${listing.url}/broken/`
    await loadRemote(page, folderUrl)
    await toast(page).getByText('Playing 4 tracks from broken').waitFor()
    const stored = () =>
      page.evaluate(() => {
        const list = JSON.parse(localStorage.getItem('vibes:user:playlist:remote') ?? 'null') as { tracks: Array<{ url: string; mime: string }> } | null
        return list?.tracks.map((t) => [decodeURIComponent(t.url.split('/').pop()!), t.mime])
      })
    // As listed (the video's fallback may already have happened: it is the first track).
    expect((await stored())!.slice(1)).toEqual([
      ['02 Broken Tune.ogg', 'audio/ogg'],
      ['03 Broken Song.mp3', 'audio/mpeg'],
      ['04 Fine Song.mp3', 'audio/mpeg'],
    ])
    const alert = page.getByRole('alert').filter({ hasText: 'Playback Error:' })
    const list = page.getByRole('list', { name: 'Track list' })
    // The video fails, is retried as audio/mpeg, fails again: the error replaces the player.
    await alert.waitFor()
    expect((await stored())![0]).toEqual(['01 Broken Clip.mp4', 'audio/mpeg'])
    expect(await list.getByRole('img', { name: 'Video' }).count()).toBe(0)
    // An ogg that fails and whose test load fails too becomes audio/mpeg as well.
    await alert.getByRole('button', { name: 'Next Track' }).click()
    await expectTitle(page, '02 Broken Tune')
    await alert.waitFor()
    expect((await stored())![1]).toEqual(['02 Broken Tune.ogg', 'audio/mpeg'])
    // An mp3 is already audio/mpeg: straight to the error, nothing changes.
    await alert.getByRole('button', { name: 'Next Track' }).click()
    await expectTitle(page, '03 Broken Song')
    await alert.waitFor()
    expect((await alert.textContent()) ?? '').toMatch(
      /Playback Error: (Media format not supported by browser|Media decoding error)Please try a different file or format\./,
    )
    await alert.getByRole('button', { name: 'Next Track' }).click()
    await expectTitle(page, '04 Fine Song')
    await playsPast(page, 0.2)
    await context.close()
  })
})

describe('network loss', () => {
  test('plays made while the network is down are queued and sent when it comes back', async () => {
    const { m, page, context } = await memberPage()
    await context.setOffline(true)
    await page.getByTestId('folder-input').setInputFiles(path.join(served, 'device', 'Offline Mix'))
    await expectTitle(page, 'Rainy Day')
    await playsPast(page, 1)
    await page.getByRole('button', { name: 'Like', exact: true }).click()
    await page.getByRole('button', { name: 'Pause' }).click()
    // Nothing reached the server; the queue in localStorage holds the play with its update.
    const queued = await page.waitForFunction(() => {
      const q = JSON.parse(localStorage.getItem('vibes:event-queue') ?? '[]') as Array<{ kind: string; update?: { listenDuration?: number; liked?: boolean } }>
      const play = q.find((i) => i.kind === 'play')
      return play?.update?.liked === true && (play.update.listenDuration ?? 0) > 0.5 ? q.map((i) => i.kind) : null
    })
    expect((await queued.jsonValue())!.sort()).toEqual(['interaction', 'play'])
    expect((await readRows<Row>(server, 'SELECT count(*) AS n FROM play_events WHERE user_id = ?', m.user.id))[0].n).toBe(0)

    await context.setOffline(false)
    const row = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ?', [m.user.id], (r) => r?.liked === 1)
    // (Offline, the lazily loaded tag reader may be out of reach: the file name gives the title.)
    expect(row).toMatchObject({
      title: 'Rainy Day',
      track_url: 'local:Offline Mix/Rainy Day.mp3',
      playlist_id: 'local',
      source: 'playlist',
      session_position: 1,
    })
    expect(Number(row.listen_duration)).toBeGreaterThan(0.5)
    await waitForRow(server, 'SELECT * FROM interactions WHERE user_id = ? AND interaction_type = ?', [m.user.id, 'like'])
    await page.waitForFunction(() => localStorage.getItem('vibes:event-queue') === null)
    await context.close()
  })
})

describe('leaving the page', () => {
  test('a reload mid-track still reports the play (skipped, heard seconds, end time)', async () => {
    const { m, page, context } = await memberPage()
    await page.getByTestId('folder-input').setInputFiles(path.join(served, 'device', 'Offline Mix'))
    await expectTitle(page, 'Rainy Day')
    await playsPast(page, 1.5)
    const first = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ?', [m.user.id])
    expect(first.skipped).toBe(0)
    await gotoHydrated(page, '/')
    const left = await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(first.id)], (r) => r?.skipped === 1)
    expect(Number(left.listen_duration)).toBeGreaterThan(1)
    expect(Number(left.skip_time)).toBeGreaterThan(1.4)
    expect(left.ended_at).not.toBeNull()
    // The durable copy kept for the next load has been sent and cleared.
    await page.waitForFunction(() => localStorage.getItem('vibes:event-queue') === null)
    await context.close()
  })
})

describe('a saved folder on /player', () => {
  async function folderFor(token: string) {
    const res = await api(server.url, 'POST', '/user/folders', { token, body: { label: 'Drones', path: '/library' } })
    expect(res.status).toBe(201)
    return res.body.data.id as string
  }

  test('play events carry the folder id and a stable track id; repeat and share are recorded', async () => {
    const m = await createMember(server.url)
    const fid = await folderFor(m.token)
    const { page, context } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, `/player?fid=${fid}`)
    await page.getByRole('heading', { name: 'Drones' }).waitFor()
    await page.getByText('Playing 2 tracks from your collection').waitFor()
    await expectTitle(page, 'Long Tone')
    await playsPast(page, 0.5)

    const first = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ? AND title = ?', [m.user.id, 'Long Tone'])
    expect(first).toMatchObject({
      source: 'playlist',
      playlist_id: fid,
      track_url: '/media/library/01%20Long%20Tone.mp3',
      next_track: '/media/library/02%20Short%20Tone.mp3',
      artist: 'Drone Unit',
      genre: 'Ambient',
      year: 2004,
    })

    // Picking a track by hand: source "direct", same folder; the first play is reported skipped.
    await page
      .getByRole('list', { name: 'Track list' })
      .getByRole('button', { name: /Short Tone/ })
      .click()
    await expectTitle(page, 'Short Tone')
    const direct = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ? AND title = ?', [m.user.id, 'Short Tone'])
    expect(direct).toMatchObject({ source: 'direct', playlist_id: fid, previous_track: '/media/library/01%20Long%20Tone.mp3', session_position: 2 })
    await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(first.id)], (r) => r?.skipped === 1)

    // Share (clipboard here) marks the play and records an interaction.
    await page.getByRole('button', { name: 'Share' }).click()
    await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(direct.id)], (r) => r?.shared === 1)
    await waitForRow(
      server,
      'SELECT * FROM interactions WHERE user_id = ? AND interaction_type = ?',
      [m.user.id, 'share'],
      (r) => r?.track_id === '/media/library/02%20Short%20Tone.mp3',
    )

    // Repeat: the end restarts the track, the play is completed + repeated, a new "repeat" play starts.
    await page.getByRole('button', { name: 'Repeat' }).click()
    await playsPast(page, 0.2)
    await page.getByRole('slider', { name: 'Seek' }).fill('9.6')
    await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(direct.id)], (r) => r?.repeated === 1 && r?.completed === 1)
    await waitForRow(server, 'SELECT * FROM interactions WHERE user_id = ? AND interaction_type = ?', [m.user.id, 'repeat'])
    const again = await waitForRow(server, "SELECT * FROM play_events WHERE user_id = ? AND source = 'repeat'", [m.user.id])
    expect(again).toMatchObject({ title: 'Short Tone', playlist_id: fid, session_position: 3 })
    expect(await page.getByTestId('track-title').textContent()).toBe('Short Tone')

    // Repeat all (one → off → all, decision 022): the end is reported completed (not repeated) and
    // the list wraps to the first track.
    await page.getByRole('button', { name: 'Repeat' }).click()
    await page.getByRole('button', { name: 'Repeat' }).click()
    await playsPast(page, 0.2)
    await page.getByRole('slider', { name: 'Seek' }).fill('9.6')
    await expectTitle(page, 'Long Tone')
    const ended = await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(again.id)], (r) => r?.completed === 1)
    expect(ended).toMatchObject({ repeated: 0, skipped: 0 })
    expect(ended.ended_at).not.toBeNull()
    await waitForRow(server, "SELECT * FROM play_events WHERE user_id = ? AND title = 'Long Tone' AND session_position = 4", [m.user.id])
    await context.close()
  })

  test('while playing, progress is reported every 30 s (listenDuration, not completed)', async () => {
    const m = await createMember(server.url)
    const fid = await folderFor(m.token)
    const { page, context } = await newPage(browser, server.url)
    await setAdChance(page, 0)
    // Timers are the page clock's: 30 s of reporting interval pass at once when we say so.
    await page.clock.install()
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await gotoHydrated(page, `/player?fid=${fid}`)
    await expectTitle(page, 'Long Tone')
    await playsPast(page, 1.2)
    const first = await waitForRow(server, 'SELECT * FROM play_events WHERE user_id = ?', [m.user.id])
    expect(first.listen_duration).toBe(0)

    await page.clock.runFor(30_000)
    const reported = await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(first.id)], (r) => Number(r?.listen_duration) > 0.5)
    expect(reported).toMatchObject({ completed: 0, skipped: 0, ended_at: null })
    // It was the timer, not a pause or an end: the track is still playing.
    expect((await media(page)).paused).toBe(false)
    const heard = Number(reported.listen_duration)
    expect(heard).toBeLessThan(30)

    // Another 30 s later, a larger figure.
    await playsPast(page, heard + 0.5)
    await page.clock.runFor(30_000)
    await waitForRow(server, 'SELECT * FROM play_events WHERE id = ?', [String(first.id)], (r) => Number(r?.listen_duration) > heard)
    expect((await readRows<Row>(server, 'SELECT count(*) AS n FROM play_events WHERE user_id = ?', m.user.id))[0].n).toBe(1)
    await context.close()
  })
})
