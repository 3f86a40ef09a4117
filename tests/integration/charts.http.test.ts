// GET /api/charts/:region against the built server, with a real upstream: a small Bun.serve feed
// server on 127.0.0.1 that the test steers per region (ok, failing, oversized, not JSON).
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { api } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

type Mode = 'ok' | 'fail' | 'huge' | 'html'
const modes: Record<string, Mode> = {}
const hits: Record<string, number> = {}

const FEED_UPDATED = '2026-05-01T08:30:00.000Z'
function feedFor(region: string) {
  return {
    feed: {
      title: `Top Songs (${region})`,
      updated: new Date(FEED_UPDATED).toUTCString(),
      results: [
        { name: `${region.toUpperCase()} Anthem`, artistName: 'The Upstreams', artworkUrl100: `https://img.example/${region}/1.jpg`, contentAdvisoryRating: 'Explicit', kind: 'songs' },
        { name: 'Second Place', artistName: 'Runner Up', artworkUrl100: `https://img.example/${region}/2.jpg`, kind: 'songs' },
        { name: 'Third', artistName: 'Bronze', artworkUrl100: `https://img.example/${region}/3.jpg`, contentAdvisoryRating: 'Clean' },
      ],
    },
  }
}

let upstream: ReturnType<typeof Bun.serve>
let server: TestServer
let db: Database

beforeAll(async () => {
  upstream = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const m = /^\/feeds\/([a-z]{2})\/songs\.json$/.exec(new URL(req.url).pathname)
      if (!m) return new Response('not found', { status: 404 })
      const region = m[1]
      hits[region] = (hits[region] ?? 0) + 1
      const mode = modes[region] ?? 'ok'
      if (mode === 'fail') return new Response('upstream down', { status: 503 })
      if (mode === 'html') return new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } })
      if (mode === 'huge') return Response.json({ feed: { updated: FEED_UPDATED, results: Array.from({ length: 40_000 }, (_, i) => ({ name: `Song ${i}`, artistName: 'x'.repeat(60) })) } })
      return Response.json(feedFor(region))
    },
  })
  server = await startServer({ CHARTS_SOURCE_URL: `http://127.0.0.1:${upstream.port}/feeds/{region}/songs.json` })
  db = new Database(path.join(server.dataDir, 'vibes.db'))
  db.exec('PRAGMA busy_timeout = 5000')
})
afterAll(async () => {
  db?.close()
  await server?.stop()
  upstream?.stop(true)
})

const cacheRows = () => (db.query('SELECT count(*) AS n FROM chart_cache').get() as { n: number }).n

describe('charts from the upstream feed', () => {
  test('shapes the feed: rank, title, artist, art, explicit and the feed date', async () => {
    const res = await api(server.url, 'GET', '/charts/us')
    expect(res.status).toBe(200)
    expect(res.body.success).toBe(true)
    expect(res.body.data.updated).toBe(FEED_UPDATED)
    expect(res.body.data.tracks).toEqual([
      { rank: 1, title: 'US Anthem', artist: 'The Upstreams', art: 'https://img.example/us/1.jpg', explicit: true },
      { rank: 2, title: 'Second Place', artist: 'Runner Up', art: 'https://img.example/us/2.jpg', explicit: false },
      { rank: 3, title: 'Third', artist: 'Bronze', art: 'https://img.example/us/3.jpg', explicit: false },
    ])
  })

  test('is cached for an hour: repeated and concurrent calls do not reach the upstream again', async () => {
    const before = hits.ca ?? 0
    const answers = await Promise.all(Array.from({ length: 10 }, () => api(server.url, 'GET', '/charts/ca')))
    expect(answers.every((a) => a.status === 200 && a.body.data.tracks[0].title === 'CA Anthem')).toBe(true)
    await api(server.url, 'GET', '/charts/ca')
    expect(hits.ca - before).toBe(1)
    const row = db.query("SELECT payload, fetched_at FROM chart_cache WHERE region = 'ca'").get() as { payload: string; fetched_at: number }
    expect(JSON.parse(row.payload).tracks).toHaveLength(3)
  })

  test('an expired copy is refreshed from the upstream', async () => {
    await api(server.url, 'GET', '/charts/au')
    db.run("UPDATE chart_cache SET fetched_at = ? WHERE region = 'au'", [Date.now() - 61 * 60_000])
    const before = hits.au
    const res = await api(server.url, 'GET', '/charts/au')
    expect(res.status).toBe(200)
    expect(hits.au).toBe(before + 1)
    const row = db.query("SELECT fetched_at FROM chart_cache WHERE region = 'au'").get() as { fetched_at: number }
    expect(Date.now() - row.fetched_at).toBeLessThan(60_000)
  })

  test('when the upstream fails, the last good copy is served', async () => {
    const first = await api(server.url, 'GET', '/charts/gb')
    expect(first.body.data.tracks[0].title).toBe('GB Anthem')
    modes.gb = 'fail'
    db.run("UPDATE chart_cache SET fetched_at = ? WHERE region = 'gb'", [Date.now() - 5 * 3_600_000])
    const before = hits.gb
    const res = await api(server.url, 'GET', '/charts/gb')
    expect(hits.gb).toBe(before + 1)
    expect(res.status).toBe(200)
    expect(res.body.data.tracks).toEqual(first.body.data.tracks)
    expect(res.body.data.updated).toBe(FEED_UPDATED)
  })
})

describe('charts from this server’s own plays', () => {
  test('with no good copy yet, a failing, oversized or non-JSON upstream falls back to the last 30 days of plays in that country', async () => {
    const day = 86_400_000
    const now = Date.now()
    const insert = db.prepare(
      'INSERT INTO play_events (id, track_url, title, artist, country, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    const play = (title: string, artist: string | null, country: string | null, ago: number) => insert.run(crypto.randomUUID(), `/media/${title}.mp3?sig=${Math.random()}`, title, artist, country, now - ago, now - ago)
    for (let i = 0; i < 3; i++) play('Blue in Green', 'Miles Davis', 'DE', i * day)
    play('So What', 'Miles Davis', 'DE', 2 * day)
    play('Naima', 'John Coltrane', 'DE', 3 * day)
    play('Naima', 'John Coltrane', 'DE', 4 * day)
    play('Untagged', null, 'DE', 1000)
    play('Old Favourite', 'Nobody', 'DE', 31 * day) // outside the window
    for (let i = 0; i < 5; i++) play('French Hit', 'Someone', 'FR', day) // another country
    play('No Country', 'Someone', null, day)

    modes.de = 'fail'
    modes.fr = 'huge'
    modes.es = 'html'
    const de = await api(server.url, 'GET', '/charts/de')
    expect(de.status).toBe(200)
    expect(de.body.data.tracks.map((t: { title: string }) => t.title)).toEqual(['Blue in Green', 'Naima', 'Untagged', 'So What'])
    expect(de.body.data.tracks[0]).toEqual({ rank: 1, title: 'Blue in Green', artist: 'Miles Davis', art: null, explicit: false })
    expect(de.body.data.tracks[2].artist).toBe('')
    expect(Math.abs(Date.parse(de.body.data.updated) - now)).toBeLessThan(60_000)

    const fr = await api(server.url, 'GET', '/charts/fr')
    expect(fr.status).toBe(200)
    expect(fr.body.data.tracks.map((t: { title: string }) => t.title)).toEqual(['French Hit'])

    const es = await api(server.url, 'GET', '/charts/es')
    expect(es.status).toBe(200)
    expect(es.body.data.tracks).toEqual([])
    expect(db.query("SELECT region FROM chart_cache WHERE region IN ('de','fr','es')").all()).toEqual([])
  })
})

describe('regions', () => {
  test('a well-formed code outside the 11 regions is a 404 with the spec message', async () => {
    for (const [code, shown] of [['zz', 'zz'], ['XX', 'xx']]) {
      const res = await api(server.url, 'GET', `/charts/${code}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ success: false, error: `Charts for storefront "${shown}" not found` })
    }
  })

  test('upper-case codes are accepted', async () => {
    const res = await api(server.url, 'GET', '/charts/US')
    expect(res.status).toBe(200)
    expect(res.body.data.tracks[0].title).toBe('US Anthem')
  })

  test('a malformed region (path tricks, 500 characters, digits) is a 400; nothing is fetched or stored', async () => {
    const cached = cacheRows()
    const upstreamCalls = Object.values(hits).reduce((a, b) => a + b, 0)
    for (const region of ['..%2Fx', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(500), 'u1', 'usa', '%00']) {
      const res = await api(server.url, 'GET', `/charts/${region}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'Region must be a two-letter storefront code' })
    }
    expect((await api(server.url, 'GET', '/charts/%E0%A4%A')).status).toBe(400)
    expect(cacheRows()).toBe(cached)
    expect(Object.values(hits).reduce((a, b) => a + b, 0)).toBe(upstreamCalls)
  })
})
