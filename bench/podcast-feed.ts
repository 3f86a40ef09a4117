// What podcasts cost (decision 078): a 2,000-episode feed fetched from nginx on loopback, parsed
// and stored; its first page of episodes listed; and 100 unchanged feeds refreshed with
// conditional requests (nginx answers 304 to the ETag / Last-Modified we kept): CPU time of this
// process, and wall time. Goals: < 1 s, < 200 ms, < 1 s of CPU.
// Run: bun bench/podcast-feed.ts   (needs nginx and ffmpeg, as the tests do)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDb } from '~/db/client'
import { manyEpisodeFeed, startPodcastFeeds } from '../tests/helpers/podcast-feeds'

const HOST = '127.0.0.2'
const FEEDS = 100
const dir = mkdtempSync(path.join(tmpdir(), 'vibes-bench-podcasts-'))
// The services read config on import: a throw-away DATA_DIR, and the feeds' host allowed.
process.env.DATA_DIR = path.join(dir, 'data')
process.env.REMOTE_ALLOW_HOSTS = HOST
const { parseFeed } = await import('~/server/podcasts/feed')
const podcasts = await import('~/server/services/podcasts')

const extra: Record<string, (base: string) => string> = {}
for (let i = 0; i < FEEDS; i++) extra[`small-${i}.xml`] = (base) => manyEpisodeFeed(base, 50, `Small feed ${i}`)
const feeds = await startPodcastFeeds(HOST, extra)
const db = openDb(path.join(dir, 'vibes.db'), path.resolve('src/db/migrations'))
db.$client.query("INSERT INTO users (id, username, email, password_hash, is_admin, created_at) VALUES ('u1', 'bench', 'b@example.com', 'x', 1, 0)").run()
const member = { id: 'u1', isAdmin: true }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const ms = (n: number) => `${n.toFixed(1)} ms`
/** Wall and CPU time (this process, user + system) of one run: on a shared box the CPU time is the steadier figure. */
async function timed(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage()
  const t = performance.now()
  await fn()
  const wall = performance.now() - t
  const cpu = process.cpuUsage(cpu0)
  return { wall, cpu: (cpu.user + cpu.system) / 1000 }
}
const report = (runs: { wall: number; cpu: number }[]) =>
  `wall median ${ms(median(runs.map((r) => r.wall)))}, CPU median ${ms(median(runs.map((r) => r.cpu)))} (${runs.length} runs)`

// Parse alone (the XML string in memory), five times.
const xml = readFileSync(path.join(feeds.root, 'many.xml'), 'utf8')
const parses: { wall: number; cpu: number }[] = []
for (let i = 0; i < 5; i++) parses.push(await timed(() => parseFeed(xml, feeds.url('many.xml'))))

// Fetch + parse + store: subscribing to the feed (a fresh URL each time: a new channel).
const subscribes: { wall: number; cpu: number }[] = []
let channelId = ''
for (let i = 0; i < 5; i++)
  subscribes.push(
    await timed(async () => {
      channelId = (await podcasts.subscribe(db, member, `${feeds.url('many.xml')}?copy=${i}`)).id
    }),
  )

// The page's first request: the first 200 episodes, newest first, with the member's progress.
const firstPages: { wall: number; cpu: number }[] = []
for (let i = 0; i < 20; i++)
  firstPages.push(
    await timed(async () => {
      const page = await podcasts.listEpisodes(db, member, { channelId, limit: 200 })
      if (page.episodes.length !== 200 || page.total !== 2000) throw new Error('unexpected page')
    }),
  )
const searches: { wall: number; cpu: number }[] = []
for (let i = 0; i < 10; i++) searches.push(await timed(() => podcasts.listEpisodes(db, member, { channelId, search: 'episode 1234:', limit: 200 })))

// 100 feeds followed, then refreshed unchanged: every answer a 304.
const ids: string[] = []
for (let i = 0; i < FEEDS; i++) ids.push((await podcasts.subscribe(db, member, feeds.url(`small-${i}.xml`))).id)
const cpu0 = process.cpuUsage()
const wall0 = performance.now()
const results = await podcasts.refreshMany(db, ids)
const wall = performance.now() - wall0
const cpu = process.cpuUsage(cpu0)
const unchanged = results.filter((r) => !r.changed && !r.error).length

console.log(`load average at the end: ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`)
console.log(`parse 2,000 episodes (${(xml.length / 1024).toFixed(0)} KB of XML in memory): ${report(parses)}`)
console.log(`subscribe = fetch + parse + store 2,000 episodes: ${report(subscribes)}`)
console.log(`first 200 episodes of 2,000 listed: ${report(firstPages)}`)
console.log(`search within 2,000 episodes: ${report(searches)}`)
console.log(`refresh ${FEEDS} unchanged feeds: ${unchanged}/${FEEDS} answered 304; CPU ${ms((cpu.user + cpu.system) / 1000)}, wall ${ms(wall)}`)

db.$client.close()
await feeds.stop()
rmSync(dir, { recursive: true, force: true })
