// The scheduled podcast refresh with two nodes on one PostgreSQL database (docs/decisions/090):
// when a period begins, one node of the two reads each feed, so the feed's server sees one request
// per period, not one per node. Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, type TestServer } from '../helpers/server'

// The feed binds 127.0.0.2, the one host REMOTE_ALLOW_HOSTS lets through.
const HOST = '127.0.0.2'
const FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Once a Minute</title><description>A feed the nodes refresh.</description>
<item><title>Episode 1</title><guid isPermaLink="false">once-1</guid><pubDate>Wed, 18 Nov 2026 08:00:00 GMT</pubDate>
<enclosure url="http://${HOST}/ep1.mp3" length="1000" type="audio/mpeg"/></item>
</channel></rss>`

let feedRequests = 0
const feed = Bun.serve({
  hostname: HOST,
  port: 0,
  fetch(req) {
    if (new URL(req.url).pathname !== '/feed.xml') return new Response('not found', { status: 404 })
    feedRequests++
    return new Response(FEED, { headers: { 'content-type': 'application/rss+xml' } })
  },
})
const nodes: TestServer[] = []
const media = mkdtempSync(path.join(tmpdir(), 'vibes-shared-media-'))

async function until<T>(what: string, probe: () => T | false | Promise<T | false>, timeoutMs = 150_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await Bun.sleep(100)
  }
}

beforeAll(async () => {
  const env = { DATABASE_URL: await freshPostgresUrl(), AUTH_SECRET: TEST_AUTH_SECRET, REMOTE_ALLOW_HOSTS: HOST, PODCAST_REFRESH_MINUTES: '1', ...adminEnv }
  const node = () => startServer(env, { dataDir: mkdtempSync(path.join(tmpdir(), 'vibes-node-')), mediaRoot: media })
  nodes.push(...(await Promise.all([node(), node()])))
}, 60_000)
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()))
  await feed.stop(true)
  for (const dir of [...nodes.map((n) => n.dataDir), media]) rmSync(dir, { recursive: true, force: true })
})

describe('the podcast refresh on two nodes', () => {
  test('each period, one of the two nodes reads the feed: one request, not two', async () => {
    const [a, b] = nodes
    const member = await createMember(a.url)
    const subscribed = await api(a.url, 'POST', '/podcasts', { token: member.token, body: { url: `http://${HOST}:${feed.port}/feed.xml` } })
    expect(subscribed.status).toBe(201)
    const asked = feedRequests
    // The next period begins at the next whole minute; both nodes' timers fire then.
    const slot = await until('a node to claim the refresh', async () => {
      const [run] = await sqlOn<{ slot: number }>(b, "SELECT slot FROM job_runs WHERE name = 'podcast-refresh'")
      return run?.slot ?? false
    })
    await until('the feed to be read again', () => feedRequests > asked)
    // The node that lost the claim gave up at once; a second read would have come by now.
    await Bun.sleep(3_000)
    expect(feedRequests - asked).toBe(1)
    const [run] = await sqlOn<{ n: number }>(b, "SELECT count(*) AS n FROM job_runs WHERE name = 'podcast-refresh' AND slot = ?", [slot])
    expect(run.n).toBe(1)
    const channels = await api(b.url, 'GET', '/podcasts', { token: member.token })
    expect(channels.body.data[0]).toMatchObject({ title: 'Once a Minute', lastError: null })
  }, 200_000)
})
