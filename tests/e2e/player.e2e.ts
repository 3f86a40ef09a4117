// The player in Debian's Chromium: a folder of real audio and video files (made with ffmpeg) picked
// through the directory input, every control, a forced advert, and members' listening events
// landing in the server's database.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { ffmpeg } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let browser: Browser
let fixtures: string
let album: string
let empty: string
let broken: string

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'vibes-player-'))
  album = path.join(fixtures, 'Road Trip')
  empty = path.join(fixtures, 'Documents')
  mkdirSync(album)
  mkdirSync(empty)
  // Sorted naturally: A Morning (tagged), B Clip 2011 (video), Miles Davis - So What (name only).
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=15',
    '-metadata',
    'title=Morning Light',
    '-metadata',
    'artist=Ada Lovelace',
    '-metadata',
    'album=Sunrise',
    '-metadata',
    'genre=Jazz',
    '-metadata',
    'date=1999',
    path.join(album, 'A Morning.mp3'),
  )
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=10:size=160x120:rate=15',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=10',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    path.join(album, 'B Clip 2011.mp4'),
  )
  ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=660:duration=15', path.join(album, 'Miles Davis - So What.mp3'))
  writeFileSync(path.join(album, 'notes.txt'), 'not media')
  writeFileSync(path.join(empty, 'letter.txt'), 'no media here')
  broken = path.join(fixtures, 'Broken')
  mkdirSync(broken)
  writeFileSync(path.join(broken, 'Noise.mp3'), new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)))
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(fixtures, { recursive: true, force: true })
})

type MediaState = { currentTime: number; paused: boolean; volume: number; muted: boolean; kind: string | null; src: string }
const media = (page: Page): Promise<MediaState> =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid=media]') as HTMLVideoElement
    return { currentTime: el.currentTime, paused: el.paused, volume: el.volume, muted: el.muted, kind: el.getAttribute('data-kind'), src: el.currentSrc }
  })

/** Waits until the media element has played past `seconds` since its last load. */
const playsPast = (page: Page, seconds: number) =>
  page.waitForFunction((s) => {
    const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
    return !el.paused && el.currentTime > s
  }, seconds)

const title = (page: Page) => page.getByTestId('track-title')

async function openPlayer(page: Page, adChance = 0) {
  await page.addInitScript((c) => ((window as unknown as { __vibesAdChance: number }).__vibesAdChance = c), adChance)
  await gotoHydrated(page, '/')
}

async function pickAlbum(page: Page) {
  await page.getByTestId('folder-input').setInputFiles(album)
  await expectText(page, 'Morning Light').catch(async (e) => {
    const shown = await page.evaluate(() => [
      document.querySelector('[data-testid=track-title]')?.textContent,
      document.querySelector('[data-testid=track-count]')?.textContent,
    ])
    throw new Error(`title never became "Morning Light" (showing ${JSON.stringify(shown)}): ${e}`)
  })
}

async function expectText(page: Page, text: string) {
  await page.waitForFunction((t) => document.querySelector('[data-testid=track-title]')?.textContent === t, text)
}

/** The first row of `sql` on the server's database (either engine) once `ok` accepts it. */
async function waitForRow<T>(sql: string, params: string[], ok: (row: T | null) => boolean = (r) => r !== null, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const row = ((await sqlOn<T>(server, sql, params))[0] ?? null) as T | null
    if (ok(row)) return row as T
    if (Date.now() > deadline) throw new Error(`no matching row for ${sql} (${JSON.stringify(row)})`)
    await Bun.sleep(100)
  }
}

describe('local folder playback', () => {
  test('a folder without media shows "No media files"; a media folder plays at once', async () => {
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await openPlayer(page)
    await page.getByRole('heading', { name: 'No Track Selected' }).waitFor()
    await page.getByTestId('folder-input').setInputFiles(empty)
    await page.getByText('No media files (audio/video) found in the selected folder').waitFor()

    await pickAlbum(page)
    await playsPast(page, 0.5)
    await page.getByText('PLAYING', { exact: true }).waitFor()
    await page.getByText('Road Trip', { exact: true }).waitFor()
    expect(await page.getByTestId('track-count').textContent()).toBe('3 tracks')
    const list = page.getByRole('list', { name: 'Track list' })
    expect(await list.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Morning Light'),
      expect.stringContaining('B Clip 2011'),
      expect.stringContaining('So What'),
    ])
    // First track: no Previous title, Next is the video.
    expect(await page.getByTestId('previous-title').count()).toBe(0)
    expect(await page.getByTestId('next-title').textContent()).toBe('Next: B Clip 2011')
    await page.getByText('Ada Lovelace · Sunrise · 1999').waitFor()
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('next, previous, stop, play, seek, ±10 s, mute and volume drive the media element', async () => {
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page)
    await pickAlbum(page)
    await playsPast(page, 0.3)

    // Next is the video: VIDEO badge, video element, and it plays.
    await page.getByRole('button', { name: 'Next', exact: true }).click()
    await expectText(page, 'B Clip 2011')
    await page.getByText('VIDEO', { exact: true }).waitFor()
    await playsPast(page, 0.5)
    expect((await media(page)).kind).toBe('video')
    await page.getByRole('button', { name: 'Fullscreen' }).waitFor()
    expect(await page.getByTestId('previous-title').textContent()).toBe('Previous: Morning Light')

    await page.getByRole('button', { name: 'Previous', exact: true }).click()
    await expectText(page, 'Morning Light')
    await playsPast(page, 0.3)
    expect((await media(page)).kind).toBe('audio')

    // Previous from the first track wraps to the last.
    await page.getByRole('button', { name: 'Previous', exact: true }).click()
    await expectText(page, 'So What')
    expect(await page.getByTestId('next-title').count()).toBe(0)
    await playsPast(page, 0.3)

    await page.getByRole('button', { name: 'Stop' }).click()
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
      return el.paused && el.currentTime === 0
    })
    await page.getByRole('button', { name: 'Play', exact: true }).click()
    await playsPast(page, 0.2)
    await page.getByRole('button', { name: 'Pause' }).click()
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)

    // Seek with the progress bar, then ±10 s (clamped to the track).
    await page.getByRole('slider', { name: 'Seek' }).fill('3')
    expect(Math.round((await media(page)).currentTime)).toBe(3)
    await page.getByRole('button', { name: 'Rewind 10 seconds' }).click()
    expect((await media(page)).currentTime).toBe(0)
    await page.getByRole('button', { name: 'Forward 10 seconds' }).click()
    expect((await media(page)).currentTime).toBeGreaterThan(5)

    // Volume: default 0.8, a quick-set dot, the slider's keyboard, mute that restores.
    expect((await media(page)).volume).toBeCloseTo(0.8, 5)
    await page.getByRole('radio', { name: 'Set volume to 40%' }).click()
    expect((await media(page)).volume).toBeCloseTo(0.4, 5)
    const volume = page.getByRole('slider', { name: 'Volume' })
    await volume.focus()
    await page.keyboard.press('ArrowRight')
    expect((await media(page)).volume).toBeCloseTo(0.41, 5)
    await page.getByRole('tooltip').getByText('41%').waitFor()
    await page.getByRole('button', { name: 'Mute' }).click()
    expect((await media(page)).muted).toBe(true)
    expect(await volume.getAttribute('aria-valuenow')).toBe('0')
    await page.getByRole('button', { name: 'Unmute' }).click()
    const after = await media(page)
    expect(after.muted).toBe(false)
    expect(after.volume).toBeCloseTo(0.41, 5)
    await context.close()
  })

  test('shuffle, repeat and keyboard shortcuts', async () => {
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page)
    await pickAlbum(page)
    await playsPast(page, 0.3)

    const shuffle = page.getByRole('button', { name: 'Shuffle' })
    await shuffle.click()
    expect(await shuffle.getAttribute('aria-pressed')).toBe('true')
    // Shuffled neighbours wrap, so both titles show even on the first track.
    await page.getByTestId('previous-title').waitFor()
    await page.getByTestId('next-title').waitFor()
    const seen = new Set<string>()
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Next', exact: true }).click()
      await page.waitForFunction(() => !(document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
      seen.add((await title(page).textContent()) ?? '')
    }
    // Three steps through a shuffled order of three visit every track.
    expect(seen.size).toBe(3)
    // Picking a track by hand turns shuffle off.
    await page
      .getByRole('list', { name: 'Track list' })
      .getByRole('button', { name: /So What/ })
      .click()
    await expectText(page, 'So What')
    expect(await shuffle.getAttribute('aria-pressed')).toBe('false')

    // Repeat: the end of the track starts it again instead of moving on.
    const repeat = page.getByRole('button', { name: 'Repeat' })
    await repeat.click()
    expect(await repeat.getAttribute('aria-pressed')).toBe('true')
    await playsPast(page, 0.2)
    await page.getByRole('slider', { name: 'Seek' }).fill('14.5')
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
      return !el.paused && el.currentTime > 0.2 && el.currentTime < 3
    })
    expect(await title(page).textContent()).toBe('So What')

    // Shortcuts on the page: R repeat off, N next (wraps to the first), M mute, space pause.
    await page.locator('body').click({ position: { x: 5, y: 300 } })
    await page.keyboard.press('r')
    expect(await repeat.getAttribute('aria-pressed')).toBe('false')
    await page.keyboard.press('n')
    await expectText(page, 'Morning Light')
    await page.keyboard.press('m')
    expect((await media(page)).muted).toBe(true)
    await page.keyboard.press('m')
    await playsPast(page, 0.2)
    await page.keyboard.press(' ')
    await page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)
    await context.close()
  })

  test('a forced advert pauses between tracks, closes by itself, and the next track plays', async () => {
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page, 1)
    await pickAlbum(page)
    await playsPast(page, 0.3)
    await page.getByRole('slider', { name: 'Seek' }).fill('14.5')
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    await dialog.getByText('Advertisement will close in 5 seconds...').waitFor()
    await dialog.getByRole('link', { name: 'Learn More' }).waitFor()
    await dialog.getByRole('button', { name: 'Close advertisement' }).waitFor()
    expect((await media(page)).paused).toBe(true)
    await dialog.waitFor({ state: 'detached', timeout: 9000 })
    await expectText(page, 'B Clip 2011')
    await playsPast(page, 0.2)
    await context.close()
  })

  test('a visitor likes locally; the remote tab is locked with "Premium Feature"', async () => {
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page)
    await pickAlbum(page)
    await page.getByRole('button', { name: 'Like', exact: true }).click()
    expect(await page.getByRole('button', { name: 'Like', exact: true }).getAttribute('aria-pressed')).toBe('true')
    const likes = await page.evaluate(() => JSON.parse(localStorage.getItem('vibes:likes') ?? '{}'))
    expect(likes['Morning Light'].liked).toBe(true)

    await page.getByRole('tab', { name: 'Remote URL' }).click()
    await page.getByText('Premium Feature').waitFor()
    await page.getByText('Sign in to access remote streaming.').waitFor()
    const load = page.getByRole('button', { name: 'Sign in to Access' })
    expect(await load.isDisabled()).toBe(true)
    expect(await page.getByLabel('Remote Folder URL').isDisabled()).toBe(true)
    await context.close()
  })
})

describe('media errors', () => {
  test('a file the browser cannot play replaces the player with the playback error', async () => {
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page)
    await page.getByTestId('folder-input').setInputFiles(broken)
    const alert = page.getByRole('alert').filter({ hasText: 'Playback Error:' })
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/Playback Error: (Media format not supported by browser|Media decoding error)/)
    await alert.getByText('Please try a different file or format.').waitFor()
    expect(await page.getByRole('button', { name: 'Play', exact: true }).isVisible()).toBe(false)
    await alert.getByRole('button', { name: 'Dismiss' }).click()
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor()
    await context.close()
  })
})

describe('members', () => {
  test('the remote tab validates the URL before calling the server', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await openPlayer(page)
    await page.getByRole('tab', { name: 'Remote URL' }).click()
    const field = page.getByLabel('Remote Folder URL')
    const load = page.getByRole('button', { name: 'Load Remote Playlist' })
    expect(await load.isDisabled()).toBe(true)
    await page.getByText('Enter a URL to a folder containing audio files').waitFor()
    expect(await field.getAttribute('placeholder')).toMatch(/^https:\/\//)
    await field.fill('ftp://nas.local/music/')
    await field.blur()
    await page.getByText('Please enter a valid URL starting with http:// or https://').waitFor()
    await field.fill('')
    await page.getByText('Please enter a URL').waitFor()
    expect(await load.isDisabled()).toBe(true)
    expect(await page.getByText('Premium Feature').count()).toBe(0)
    await context.close()
  })

  test('plays, skips and likes reach the server with every field', async () => {
    const m = await createMember(server.url)
    const { page, context, consoleErrors } = await newPage(browser, server.url)
    await page.addInitScript((t) => localStorage.setItem('token', t), m.token)
    await openPlayer(page)
    await pickAlbum(page)
    await playsPast(page, 1)

    type Row = Record<string, string | number | null>
    const first = await waitForRow<Row>('SELECT * FROM play_events WHERE user_id = ? AND title = ?', [m.user.id, 'Morning Light'])
    expect(first).toMatchObject({
      track_url: 'local:Road Trip/A Morning.mp3',
      artist: 'Ada Lovelace',
      album: 'Sunrise',
      genre: 'Jazz',
      year: 1999,
      source: 'playlist',
      playlist_id: 'local',
      previous_track: null,
      next_track: 'local:Road Trip/B Clip 2011.mp4',
      session_position: 1,
      device_type: 'desktop',
      completed: 0,
    })
    expect(String(first.session_id)).toMatch(/^session_\d+_[0-9a-z]{9}$/)
    expect(['4g', '3g', '2g', 'ethernet', 'wifi', 'unknown']).toContain(String(first.network_type))
    expect(Number(first.duration)).toBeGreaterThan(5)

    await page.getByRole('button', { name: 'Like', exact: true }).click()
    await waitForRow<Row>('SELECT liked FROM play_events WHERE id = ?', [String(first.id)], (r) => Number(r?.liked) === 1)
    await waitForRow('SELECT * FROM likes WHERE user_id = ? AND track_key = ? AND liked', [m.user.id, 'Morning Light'])
    await waitForRow('SELECT * FROM interactions WHERE user_id = ? AND interaction_type = ? AND track_id = ?', [
      m.user.id,
      'like',
      'local:Road Trip/A Morning.mp3',
    ])

    // Skipping early reports skipped with the skip time and the heard seconds.
    await page.getByRole('button', { name: 'Next', exact: true }).click()
    const skipped = await waitForRow<Row>('SELECT * FROM play_events WHERE id = ?', [String(first.id)], (r) => Number(r?.skipped) === 1)
    expect(Number(skipped.completed)).toBe(0)
    expect(Number(skipped.skip_time)).toBeGreaterThan(0.5)
    expect(Number(skipped.listen_duration)).toBeGreaterThan(0.5)
    expect(skipped.ended_at).not.toBeNull()

    const second = await waitForRow<Row>('SELECT * FROM play_events WHERE user_id = ? AND title = ?', [m.user.id, 'B Clip 2011'])
    expect(second).toMatchObject({
      session_id: first.session_id,
      session_position: 2,
      previous_track: 'local:Road Trip/A Morning.mp3',
      source: 'playlist',
      year: 2011,
    })

    // Liked titles come back from the server after a reload.
    await gotoHydrated(page, '/')
    // Picking the same folder again resumes where it was; go back to the liked track.
    await page.getByTestId('folder-input').setInputFiles(album)
    await expectText(page, 'B Clip 2011')
    await page
      .getByRole('list', { name: 'Track list' })
      .getByRole('button', { name: /Morning Light/ })
      .click()
    await expectText(page, 'Morning Light')
    await page.waitForFunction(() => document.querySelector('button[aria-label=Like]')?.getAttribute('aria-pressed') === 'true')
    // A member signed in by stored token hydrates the signed-out server render without errors.
    expect(consoleErrors).toEqual([])
    await context.close()
  })

  test('plays made while signed out are queued in localStorage and sent after login', async () => {
    const m = await createMember(server.url)
    const { page, context } = await newPage(browser, server.url)
    await openPlayer(page)
    await pickAlbum(page)
    await playsPast(page, 1)
    await page.getByRole('button', { name: 'Pause' }).click()
    await page.waitForFunction(() => {
      const q = JSON.parse(localStorage.getItem('vibes:event-queue') ?? '[]') as Array<{ kind: string; update?: { listenDuration?: number } }>
      return q.some((i) => i.kind === 'play' && (i.update?.listenDuration ?? 0) > 0.5)
    })
    await page.getByRole('link', { name: 'Login' }).first().click()
    await page.getByLabel('Email').fill(m.email)
    await page.getByLabel('Password', { exact: true }).fill(m.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    const row = await waitForRow<Record<string, unknown>>(
      'SELECT * FROM play_events WHERE user_id = ? AND title = ?',
      [m.user.id, 'Morning Light'],
      (r) => Number(r?.listen_duration ?? 0) > 0.5,
    )
    expect(row.track_url).toBe('local:Road Trip/A Morning.mp3')
    await page.waitForFunction(() => localStorage.getItem('vibes:event-queue') === null)
    await context.close()
  })
})
