// Listing a 10,000-file library folder through GET /api/user/folders/:id/playlist, which reads
// the library index (goal: under 300 ms). The folder is scanned first through the admin API.
// While the first listing runs, /api/health is asked every 50 ms: the slowest answer shows how
// long the listing ever holds the event loop (it must not be seconds).
//   bun bench/library-listing.ts
import { linkSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../tests/helpers/api'
import { scanLibraryNow } from '../tests/helpers/library-scan'
import { makeTone } from '../tests/helpers/media'
import { startServer } from '../tests/helpers/server'

const FILES = 10_000
const app = await startServer(adminEnv)
const dir = path.join(app.mediaRoot, 'big')
mkdirSync(dir, { recursive: true })
const source = path.join(app.mediaRoot, 'source.mp3')
makeTone(source, { title: 'Tone', artist: 'Bench', album: 'Ten Thousand', seconds: 1 })
// Hard links: 10,000 library paths (each its own index row) without 10,000 copies on disk.
for (let i = 0; i < FILES; i++) {
  const sub = path.join(dir, `disc ${Math.floor(i / 1000) + 1}`)
  if (i % 1000 === 0) mkdirSync(sub)
  linkSync(source, path.join(sub, `${i + 1} track.mp3`))
}
const m = await createMember(app.url)
const scanStarted = performance.now()
await scanLibraryNow(app.url, await loginAdmin(app.url))
console.log(`scan of ${FILES} files: ${(performance.now() - scanStarted).toFixed(0)} ms`)
const folder = (await api(app.url, 'POST', '/user/folders', { token: m.token, body: { label: 'Big', path: '/big' } })).body.data

async function timed() {
  const started = performance.now()
  const res = await api(app.url, 'GET', `/user/folders/${folder.id}/playlist`, { token: m.token })
  const ms = performance.now() - started
  if (res.status !== 200 || res.body.data.length !== FILES) throw new Error(`bad answer: ${res.status} ${res.body.data?.length}`)
  return ms
}
/** Pings /api/health until `done` resolves; returns the slowest answer in ms. */
async function slowestPing(done: Promise<unknown>): Promise<number> {
  let finished = false
  void done.finally(() => (finished = true))
  let slowest = 0
  while (!finished) {
    const started = performance.now()
    await fetch(`${app.url}/api/health`).then((r) => r.arrayBuffer())
    slowest = Math.max(slowest, performance.now() - started)
    await Bun.sleep(50)
  }
  return slowest
}
const first = timed()
const slowest = await slowestPing(first)
console.log(`first call: ${(await first).toFixed(0)} ms; slowest /api/health answer meanwhile: ${slowest.toFixed(0)} ms`)
const again = [await timed(), await timed(), await timed()]
console.log(
  `second call: ${again[0].toFixed(0)} ms; next two: ${again
    .slice(1)
    .map((x) => x.toFixed(0))
    .join(' ms, ')} ms (goal < 300 ms)`,
)
await app.stop()
