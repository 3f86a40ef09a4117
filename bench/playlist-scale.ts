// A member's 5,000-song playlist on the real built server, over a library of 10,000 indexed
// tracks (goal: it loads in the web player within 1 s).
// (a) HTTP: open it (GET, every entry signed), move the first song to the end and back, remove the
//     first song, add one at the start: p50/p95 over RUNS rounds, beside GET /api/health.
// (b) Chromium: from navigating to /playlists/<id> until rows are on screen and Play all is usable
//     (hydrated, enabled), and from clicking Play all to the first track playing; beside the same
//     page for a 3-song playlist (the bare page). The browser is signed in as the login form
//     leaves it (token in storage, session cookie), so the server renders the page's first rows.
// Writes bench/results/playlist-scale.json.
//   bun run build && bun bench/playlist-scale.ts
import { linkSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { adminEnv, api, createMember, loginAdmin } from '../tests/helpers/api'
import { launchBrowser, newPage } from '../tests/helpers/browser'
import { scanLibraryNow } from '../tests/helpers/library-scan'
import { makeTone } from '../tests/helpers/media'
import { setAdChance } from '../tests/helpers/player'
import { startServer } from '../tests/helpers/server'

const LIBRARY = Number(process.env.BENCH_LIBRARY ?? 10_000)
const PLAYLIST = Number(process.env.BENCH_PLAYLIST ?? 5000)
const RUNS = 7
const BROWSER_RUNS = 5
const GOAL_MS = 1000

const app = await startServer(adminEnv)
const source = path.join(app.mediaRoot, 'source.mp3')
makeTone(source, { title: 'Tone', artist: 'Bench', album: 'Ten Thousand', seconds: 20 })
// Hard links: 10,000 library paths (each its own index row) without 10,000 copies on disk.
const dir = path.join(app.mediaRoot, 'big')
for (let i = 0; i < LIBRARY; i++) {
  const sub = path.join(dir, `disc ${Math.floor(i / 1000) + 1}`)
  if (i % 1000 === 0) mkdirSync(sub, { recursive: true })
  linkSync(source, path.join(sub, `${i + 1} track.mp3`))
}
const progress = (what: string) => console.error(`… ${what} (${Math.round(performance.now() / 1000)} s)`)
progress('files written')
await scanLibraryNow(app.url, await loginAdmin(app.url))
progress('library scanned')
const m = await createMember(app.url)
const folder = (await api(app.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Big', path: '/big' } })).body.data
const tracks: { url: string }[] = (await api(app.url, 'GET', `/user/folders/${folder.id}/playlist`, { token: m.token })).body.data
if (tracks.length !== LIBRARY) throw new Error(`indexed ${tracks.length} of ${LIBRARY}`)
const urls = tracks.map((t) => t.url)

async function create(name: string, trackUrls: string[]): Promise<string> {
  const res = await api(app.url, 'POST', '/user/playlists', { token: m.token, body: { name, trackUrls } })
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
  return res.body.data.id
}
const big = await create('Five thousand', urls.slice(0, PLAYLIST))
const small = await create('Three', urls.slice(0, 3))
type Entry = { track: { id: string } }
const trackIdsOf = async () => ((await api(app.url, 'GET', `/user/playlists/${big}`, { token: m.token })).body.data.entries as Entry[]).map((e) => e.track.id)
const startOrder = await trackIdsOf()
progress('playlists created')

async function timed(method: string, url: string, body?: unknown): Promise<number> {
  const started = performance.now()
  const res = await api(app.url, method, url, { token: m.token, body })
  const ms = performance.now() - started
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
  return ms
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]
const stats = (xs: number[]) => ({ p50: Math.round(pct(xs, 50)), p95: Math.round(pct(xs, 95)), runs: xs.map(Math.round) })

// (a) HTTP. Each round leaves the playlist as it found it (5,000 songs, same order).
/** The request the page itself makes (tRPC, batched): the answer as the browser gets it. */
async function timedPageQuery(): Promise<number> {
  const input = encodeURIComponent(JSON.stringify({ 0: { json: { id: big } } }))
  const started = performance.now()
  const res = await fetch(`${app.url}/api/trpc/playlists.byId?batch=1&input=${input}`, { headers: { authorization: `Bearer ${m.token}` } })
  const text = await res.text()
  const ms = performance.now() - started
  if (res.status !== 200 || !text.includes('entries')) throw new Error(`playlists.byId: ${res.status} ${text.slice(0, 200)}`)
  return ms
}
/** The page's HTML as a signed-in browser gets it (the server render, first rows included). */
async function timedPageHtml(id: string): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${app.url}/playlists/${id}`, { headers: { cookie: `vibes_session=${m.token}` } })
  const html = await res.text()
  const ms = performance.now() - started
  if (res.status !== 200 || !html.includes('aria-label="Songs"')) throw new Error(`page: ${res.status} without its rows`)
  return ms
}
const http = {
  pageHtml: [] as number[],
  pageHtmlBare: [] as number[],
  openAsThePage: [] as number[],
  open: [] as number[],
  moveFirstToLast: [] as number[],
  moveLastToFirst: [] as number[],
  removeFirst: [] as number[],
  addAtStart: [] as number[],
}
const health: number[] = []
for (let run = 0; run < RUNS; run++) {
  health.push(await timed('GET', '/health'))
  http.pageHtml.push(await timedPageHtml(big))
  http.pageHtmlBare.push(await timedPageHtml(small))
  http.openAsThePage.push(await timedPageQuery())
  http.open.push(await timed('GET', `/user/playlists/${big}`))
  http.moveFirstToLast.push(await timed('POST', `/user/playlists/${big}/tracks/move`, { from: 0, to: PLAYLIST - 1 }))
  http.moveLastToFirst.push(await timed('POST', `/user/playlists/${big}/tracks/move`, { from: PLAYLIST - 1, to: 0 }))
  http.removeFirst.push(await timed('DELETE', `/user/playlists/${big}/tracks`, { indexes: [0] }))
  http.addAtStart.push(await timed('POST', `/user/playlists/${big}/tracks`, { trackUrls: [urls[0]], position: 0 }))
}
if (JSON.stringify(await trackIdsOf()) !== JSON.stringify(startOrder)) throw new Error('the rounds changed the playlist')

progress('HTTP rounds done')

// (b) Chromium.
/**
 * Where a page load's time goes: until the app is hydrated, the playlist request (sent → its last
 * byte, and its size), and from that last byte until the rows are on screen (parsing the answer,
 * rendering the page).
 */
type PageTimes = {
  shown: number
  playing: number
  rows: number
  hydrated: number
  requestSent: number
  responseEnd: number
  responseBytes: number
  /** The page's HTML as sent (compressed, if it was) and as parsed. */
  htmlBytes: number
  htmlDecodedBytes: number
}
async function pageTimes(browser: Browser, id: string): Promise<PageTimes> {
  const { page, context } = await newPage(browser, app.url)
  page.setDefaultTimeout(60_000)
  await setAdChance(page, 0)
  await context.addInitScript((t) => localStorage.setItem('token', t), m.token)
  await context.addCookies([{ name: 'vibes_session', value: m.token, url: app.url, httpOnly: true, sameSite: 'Lax' }])
  await page.goto(`/playlists/${id}`)
  // performance.now() counts from the navigation's start. Polled every frame.
  const shown = await page
    .waitForFunction(
      () => {
        const w = window as unknown as { __vibesHydrated?: boolean; __benchHydratedAt?: number }
        const hydrated = w.__vibesHydrated === true
        if (hydrated) w.__benchHydratedAt ??= performance.now()
        const row = document.querySelector('ul[aria-label=Songs] li')
        const play = [...document.querySelectorAll('main button')].find((b) => b.textContent?.trim() === 'Play all') as HTMLButtonElement | undefined
        return hydrated && row && play && !play.disabled ? performance.now() : false
      },
      undefined,
      { polling: 'raf' },
    )
    .then((h) => h.jsonValue() as Promise<number>)
  const playing = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const play = [...document.querySelectorAll('main button')].find((b) => b.textContent?.trim() === 'Play all') as HTMLButtonElement
        const clicked = performance.now()
        // Media events do not bubble; a capturing listener hears whichever element the player uses.
        document.addEventListener('playing', () => resolve(performance.now() - clicked), { once: true, capture: true })
        setTimeout(() => reject(new Error('no playback within 30 s')), 30_000)
        play.click()
      }),
  )
  const rows = await page.locator('ul[aria-label=Songs] li').count()
  const split = await page.evaluate(() => {
    const request = performance.getEntriesByType('resource').find((e) => e.name.includes('playlists.byId')) as PerformanceResourceTiming | undefined
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    return {
      htmlBytes: navigation.encodedBodySize,
      htmlDecodedBytes: navigation.decodedBodySize,
      hydrated: (window as unknown as { __benchHydratedAt?: number }).__benchHydratedAt ?? 0,
      requestSent: request?.startTime ?? 0,
      responseEnd: request?.responseEnd ?? 0,
      responseBytes: request?.encodedBodySize ?? 0,
    }
  })
  await context.close()
  return { shown, playing, rows, ...split }
}

const browser = await launchBrowser()
const web = { big: [] as PageTimes[], small: [] as PageTimes[] }
try {
  for (let run = 0; run < BROWSER_RUNS; run++) {
    web.big.push(await pageTimes(browser, big))
    web.small.push(await pageTimes(browser, small))
    progress(`page load ${run + 1} of ${BROWSER_RUNS}`)
  }
} finally {
  await browser.close()
  await app.stop()
}

const ms = (x: number) => `${Math.round(x)} ms`
const line = (name: string, xs: number[]) => console.log(`${name.padEnd(44)} p50 ${ms(pct(xs, 50)).padStart(8)}   p95 ${ms(pct(xs, 95)).padStart(8)}`)
console.log(`Playlist of ${PLAYLIST} songs over a library of ${LIBRARY} indexed tracks; ${RUNS} HTTP rounds, ${BROWSER_RUNS} page loads`)
line('GET /api/health (bare reference)', health)
line(`page HTML, server render (${PLAYLIST} songs)`, http.pageHtml)
line('page HTML, server render (3 songs, bare)', http.pageHtmlBare)
line(`open as the page does: tRPC playlists.byId`, http.openAsThePage)
line(`open: GET /user/playlists/:id (${PLAYLIST} entries)`, http.open)
line('move first → last', http.moveFirstToLast)
line('move last → first', http.moveLastToFirst)
line('remove the first song', http.removeFirst)
line('add one song at the start', http.addAtStart)
const shownBig = web.big.map((r) => r.shown)
const playBig = web.big.map((r) => r.playing)
line(`page: rows shown + Play usable (${PLAYLIST} songs)`, shownBig)
line(
  'page: rows shown + Play usable (3 songs, bare)',
  web.small.map((r) => r.shown),
)
line(`page: Play all → playing (${PLAYLIST} songs)`, playBig)
line(
  'page: Play all → playing (3 songs, bare)',
  web.small.map((r) => r.playing),
)
console.log(`rows in the DOM for ${PLAYLIST} songs: ${web.big[0].rows}`)
const split = (runs: PageTimes[]) => ({
  hydrated: stats(runs.map((r) => r.hydrated)),
  requestSent: stats(runs.map((r) => r.requestSent)),
  request: stats(runs.map((r) => r.responseEnd - r.requestSent)),
  afterResponse: stats(runs.map((r) => r.shown - r.responseEnd)),
  responseBytes: runs[0].responseBytes,
  htmlBytes: runs[0].htmlBytes,
  htmlDecodedBytes: runs[0].htmlDecodedBytes,
})
const bigSplit = split(web.big)
console.log(
  `where a ${PLAYLIST}-song load goes (p50): hydrated at ${ms(bigSplit.hydrated.p50)}, playlist request sent at ${ms(bigSplit.requestSent.p50)}, ` +
    `request ${ms(bigSplit.request.p50)} (${Math.round(bigSplit.responseBytes / 1024)} KiB), its last byte → rows shown ${ms(bigSplit.afterResponse.p50)}`,
)
const bareSplit = split(web.small)
const kib = (n: number) => `${Math.round(n / 1024)} KiB`
console.log(
  `page HTML: ${PLAYLIST} songs ${kib(bigSplit.htmlBytes)} sent (${kib(bigSplit.htmlDecodedBytes)} parsed), ` +
    `3 songs ${kib(bareSplit.htmlBytes)} sent (${kib(bareSplit.htmlDecodedBytes)} parsed)`,
)
const bareShown = web.small.map((r) => r.shown)
const holds = pct(shownBig, 95) < GOAL_MS
console.log(`goal: a ${PLAYLIST}-song playlist loads within ${GOAL_MS} ms → ${holds ? 'holds' : 'DOES NOT hold'} (p95 ${ms(pct(shownBig, 95))})`)
// On a loaded machine the bare page alone can exceed the goal: what the songs add is the median difference.
console.log(`the ${PLAYLIST} songs add ${ms(pct(shownBig, 50) - pct(bareShown, 50))} to the bare page's ${ms(pct(bareShown, 50))} (medians)`)

mkdirSync(path.join(import.meta.dir, 'results'), { recursive: true })
writeFileSync(
  path.join(import.meta.dir, 'results', 'playlist-scale.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      note: 'shared 2-core machine under load from other engineers: figures are upper bounds',
      library: LIBRARY,
      playlist: PLAYLIST,
      goalMs: GOAL_MS,
      goalHolds: holds,
      http: { health: stats(health), ...Object.fromEntries(Object.entries(http).map(([k, v]) => [k, stats(v)])) },
      page: {
        shown: stats(shownBig),
        playing: stats(playBig),
        bareShown: stats(bareShown),
        barePlaying: stats(web.small.map((r) => r.playing)),
        rowsInDom: web.big[0].rows,
        split: bigSplit,
        bareSplit,
      },
    },
    null,
    2,
  )}\n`,
)
