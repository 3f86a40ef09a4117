// The upstream chart feed behind two nodes on one PostgreSQL database: the copy in chart_cache is
// shared, and when it has expired one node asks the upstream for all of them, whether the
// upstream answers or fails; the others serve the copy meanwhile. Real upstream (a Bun.serve feed
// on 127.0.0.1, slow on purpose so that both nodes find the copy expired at once).
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import type { TestServer } from '../helpers/server'

const FEED_UPDATED = '2026-11-20T00:00:00Z'
let upstream: ReturnType<typeof Bun.serve>
let asked = 0
let failing = false
let title = 'First Anthem'
let nodes: TwoNodes
let a: TestServer
let b: TestServer

beforeAll(async () => {
  upstream = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch() {
      asked++
      await Bun.sleep(400)
      if (failing) return new Response('upstream down', { status: 503 })
      return Response.json({ feed: { updated: FEED_UPDATED, results: [{ name: title, artistName: 'Someone' }] } })
    },
  })
  nodes = await startTwoNodes({ CHARTS_SOURCE_URL: `http://127.0.0.1:${upstream.port}/feeds/{region}/songs.json` })
  ;({ a, b } = nodes)
}, 60_000)
afterAll(async () => {
  await nodes?.stop()
  upstream?.stop(true)
})

const expire = () => sqlOn(a, "UPDATE chart_cache SET fetched_at = ? WHERE region = 'us'", [Date.now() - 2 * 3_600_000])
/** Five visitors on each node at once: the titles they were shown. */
async function visitBoth() {
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => api((i % 2 ? b : a).url, 'GET', '/charts/us')))
  for (const answer of answers) expect(answer.status).toBe(200)
  return new Set(answers.map((answer) => answer.body.data.tracks[0].title as string))
}

describe('the upstream chart feed behind two nodes', () => {
  test('an expired copy is refreshed by one node for both, and a failing upstream is asked once for both', async () => {
    expect((await api(a.url, 'GET', '/charts/us')).body.data.tracks[0].title).toBe('First Anthem')
    expect(asked).toBe(1)
    // B finds A's copy.
    expect((await api(b.url, 'GET', '/charts/us')).body.data.tracks[0].title).toBe('First Anthem')
    expect(asked).toBe(1)

    title = 'Second Anthem'
    await expire()
    const shown = await visitBoth()
    expect(asked).toBe(2)
    expect([...shown].every((t) => t === 'First Anthem' || t === 'Second Anthem')).toBe(true)
    for (let i = 0; i < 50 && (await api(b.url, 'GET', '/charts/us')).body.data.tracks[0].title !== 'Second Anthem'; i++) await Bun.sleep(50)
    expect(await visitBoth()).toEqual(new Set(['Second Anthem']))
    expect(asked).toBe(2)

    failing = true
    await expire()
    expect(await visitBoth()).toEqual(new Set(['Second Anthem']))
    expect(await visitBoth()).toEqual(new Set(['Second Anthem']))
    expect(asked).toBe(3)
  })
})
