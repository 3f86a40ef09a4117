// Converted library files in Debian's Chromium: a 10-minute .wma and an MPEG-4/MP3 .mkv (which
// no browser plays as they are) reach `canplay` from their live conversion; once the converted
// copy is cached, a fresh <audio>/<video> knows the whole duration, seeks to a point far past
// anything buffered and plays on from there (ranges on the cached copy).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { signMediaUrl } from '~/server/media/sign'
import { adminEnv, loginAdmin } from '../helpers/api'
import { gotoHydrated, launchBrowser, newPage } from '../helpers/browser'
import { scanLibraryNow } from '../helpers/library-scan'
import { ffmpeg, makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'transcode-e2e-secret-'.repeat(3)
let server: TestServer
let browser: Browser

function makeMkv(file: string, seconds: number) {
  mkdirSync(path.dirname(file), { recursive: true })
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=duration=${seconds}`,
    '-c:v',
    'mpeg4',
    '-c:a',
    'libmp3lame',
    file,
  )
}

async function cached(count: number) {
  const dir = path.join(server.dataDir, 'transcode-cache')
  // Up to 45 s: a 10-minute conversion on a loaded 2-core machine.
  for (let i = 0; i < 900; i++) {
    const names = existsSync(dir) ? readdirSync(dir) : []
    if (names.filter((n) => !n.endsWith('.part')).length >= count) return
    await Bun.sleep(50)
  }
  throw new Error('the converted copy never reached the cache')
}

/** Loads `url` into a fresh media element of the page; resolves with what it reached. */
function load(page: Page, tag: 'audio' | 'video', url: string, seekTo?: number) {
  return page.evaluate(
    ({ tag, url, seekTo }) =>
      new Promise<{ event: string; duration: number; currentTime: number; width: number; error: number | null }>((resolve) => {
        const el = document.createElement(tag)
        el.muted = true
        el.preload = 'auto'
        const done = (event: string) =>
          resolve({ event, duration: el.duration, currentTime: el.currentTime, width: (el as HTMLVideoElement).videoWidth ?? 0, error: el.error?.code ?? null })
        el.addEventListener('error', () => done('error'))
        if (seekTo === undefined) el.addEventListener('canplay', () => done('canplay'), { once: true })
        else {
          el.addEventListener('loadedmetadata', () => (el.currentTime = seekTo), { once: true })
          el.addEventListener(
            'seeked',
            () => {
              void el.play()
              const check = () => (el.currentTime > seekTo + 0.3 ? done('played-after-seek') : setTimeout(check, 50))
              check()
            },
            { once: true },
          )
        }
        el.src = url
        document.body.append(el)
      }),
    { tag, url, seekTo },
  )
}

beforeAll(async () => {
  server = await startServer({ ...adminEnv, AUTH_SECRET: SECRET })
  makeTone(path.join(server.mediaRoot, 'old/long chime.wma'), { seconds: 600, title: 'Long Chime' })
  makeMkv(path.join(server.mediaRoot, 'films/pattern.mkv'), 12)
  // Indexed once written: the start-up scan may have walked while the files were being written (decision 099).
  await scanLibraryNow(server.url, await loginAdmin(server.url))
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('converted library files in Chromium', () => {
  test('a .wma plays from its live conversion, then seeks anywhere once cached', async () => {
    const { page } = await newPage(browser, server.url)
    await gotoHydrated(page, '/')
    const url = signMediaUrl(SECRET, 'old/long chime.wma', 'mp3')
    expect(await load(page, 'audio', url)).toMatchObject({ event: 'canplay', error: null })
    await cached(1)
    const seeked = await load(page, 'audio', url, 450)
    expect(seeked).toMatchObject({ event: 'played-after-seek', error: null })
    expect(seeked.duration).toBeGreaterThan(599)
    expect(seeked.duration).toBeLessThan(601)
    expect(seeked.currentTime).toBeGreaterThan(450)
    expect(seeked.currentTime).toBeLessThan(455)
  })

  test('an .mkv of MPEG-4 video and MP3 plays as MP4 and seeks once cached', async () => {
    const { page } = await newPage(browser, server.url)
    await gotoHydrated(page, '/')
    const url = signMediaUrl(SECRET, 'films/pattern.mkv', 'mp4')
    expect(await load(page, 'video', url)).toMatchObject({ event: 'canplay', width: 320, error: null })
    await cached(2)
    const seeked = await load(page, 'video', url, 8)
    expect(seeked).toMatchObject({ event: 'played-after-seek', error: null })
    expect(seeked.currentTime).toBeGreaterThan(8)
    expect(seeked.currentTime).toBeLessThan(11)
  })
})
