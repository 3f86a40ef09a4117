// Shared bits of the player's browser tests: ffmpeg fixtures, the media element's state, waits on
// the track title, and reading the server's database.
import type { Browser, Page } from 'playwright-core'
import { gotoHydrated, newPage } from './browser'
import { sqlOn } from './engine'
import { ffmpeg } from './media'
import type { TestServer } from './server'

/** A small mono MP3 tone with optional ID3 tags. */
export function tone(file: string, seconds: number, tags: Record<string, string | number> = {}, frequency = 440) {
  const meta = Object.entries(tags).flatMap(([k, v]) => ['-metadata', `${k}=${v}`])
  ffmpeg('-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`, '-ac', '1', '-ar', '22050', '-b:a', '32k', ...meta, file)
}

/** A tiny H.264/AAC MP4 test card. */
export function clip(file: string, seconds: number) {
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=160x120:rate=15`,
    '-f',
    'lavfi',
    '-i',
    `sine=duration=${seconds}`,
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file,
  )
}

/** Bytes no decoder accepts (a "video" or "song" that cannot play). */
export const garbage = () => new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))

export type MediaState = { currentTime: number; paused: boolean; volume: number; muted: boolean; kind: string | null; src: string; controls: boolean }

export const media = (page: Page): Promise<MediaState> =>
  page.evaluate(() => {
    const el = document.querySelector('[data-testid=media]') as HTMLVideoElement
    return {
      currentTime: el.currentTime,
      paused: el.paused,
      volume: el.volume,
      muted: el.muted,
      kind: el.getAttribute('data-kind'),
      src: el.currentSrc,
      controls: el.controls,
    }
  })

/** Waits until the media element is playing past `seconds`. */
export const playsPast = (page: Page, seconds: number, timeout?: number) =>
  page.waitForFunction(
    (s) => {
      const el = document.querySelector('[data-testid=media]') as HTMLMediaElement
      return !el.paused && el.currentTime > s
    },
    seconds,
    { timeout },
  )

export const waitPaused = (page: Page) => page.waitForFunction(() => (document.querySelector('[data-testid=media]') as HTMLMediaElement).paused)

/** Waits until the player's title reads `text`. */
export async function expectTitle(page: Page, text: string) {
  try {
    await page.waitForFunction((t) => document.querySelector('[data-testid=track-title]')?.textContent === t, text)
  } catch (e) {
    const shown = await page.evaluate(() => document.querySelector('[data-testid=track-title]')?.textContent)
    throw new Error(`title never became ${JSON.stringify(text)} (showing ${JSON.stringify(shown)}): ${e}`)
  }
}

/** Forces (1) or forbids (0) adverts for the page's lifetime. */
export const setAdChance = (page: Page, chance: number) =>
  page.addInitScript((c) => ((window as unknown as { __vibesAdChance: number }).__vibesAdChance = c), chance)

/** A fresh page on the player (`/`), adverts off, hydrated: where every player test starts. */
export async function openPlayer(browser: Browser, baseUrl: string, viewport?: { width: number; height: number }) {
  const opened = await newPage(browser, baseUrl, { viewport })
  await setAdChance(opened.page, 0)
  await gotoHydrated(opened.page, '/')
  return opened
}

export type Row = Record<string, string | number | null>

/** Polls the server's database (either engine) until `ok(row)` holds for the first row. */
export async function waitForRow<T = Row>(
  server: TestServer,
  sql: string,
  params: string[],
  ok: (row: T | null) => boolean = (r) => r !== null,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const row = ((await sqlOn<T>(server, sql, params))[0] ?? null) as T | null
    if (ok(row)) return row as T
    if (Date.now() > deadline) throw new Error(`no matching row for ${sql} ${JSON.stringify(params)} (last: ${JSON.stringify(row)})`)
    await Bun.sleep(100)
  }
}

/** The rows of `sql` on the server's database (either engine). */
export function readRows<T = Row>(server: TestServer, sql: string, ...params: string[]): Promise<T[]> {
  return sqlOn<T>(server, sql, params)
}
