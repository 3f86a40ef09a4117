// GET /api/charts/:region against the built server, with a real upstream: a small Bun.serve feed
// server on 127.0.0.1 that the test steers per region (ok, failing, oversized, not JSON, hostile
// items, held back). A second server runs without a feed, as most installs do, to rank real plays.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fetchFeed } from '~/server/services/charts-feed'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

type Mode = 'ok' | 'fail' | 'huge' | 'html' | 'hostile' | 'hold' | 'v2' | 'trickle' | 'redirect-inside'
const modes: Record<string, Mode> = {}
const hits: Record<string, number> = {}
let release: () => void = () => {}
let held: Promise<void> = Promise.resolve()

const FEED_UPDATED = '2026-05-01T08:30:00.000Z'
function feedFor(region: string) {
  return {
    feed: {
      title: `Top Songs (${region})`,
      updated: new Date(FEED_UPDATED).toUTCString(),
      results: [
        {
          name: `${region.toUpperCase()} Anthem`,
          artistName: 'The Upstreams',
          artworkUrl100: `https://img.example/${region}/1.jpg`,
          contentAdvisoryRating: 'Explicit',
          kind: 'songs',
        },
        { name: 'Second Place', artistName: 'Runner Up', artworkUrl100: `https://img.example/${region}/2.jpg`, kind: 'songs' },
        { name: 'Third', artistName: 'Bronze', artworkUrl100: `https://img.example/${region}/3.jpg`, contentAdvisoryRating: 'Clean' },
      ],
    },
  }
}

/** Everything a careless or hostile feed can send in its results. */
function hostileFeed(origin: string) {
  return {
    feed: {
      updated: FEED_UPDATED,
      results: [
        { name: 'Script Art', artistName: 'A', artworkUrl100: 'javascript:alert(document.cookie)' },
        { name: 'Data Art', artistName: 'B', artworkUrl100: 'data:image/svg+xml,<svg onload=alert(1)>' },
        { name: 'Spaced Script', artistName: 'C', artworkUrl100: '  JaVaScRiPt:alert(1)' },
        { name: 'Plain Http Elsewhere', artistName: 'D', artworkUrl100: 'http://tracker.example/pixel.gif' },
        { name: 'Credentials', artistName: 'E', artworkUrl100: 'https://user:pass@img.example/a.jpg' },
        { name: 'Relative', artistName: 'F', artworkUrl100: '/art/1.jpg' },
        { name: 'Feed Host Http', artistName: 'G', artworkUrl100: `${origin}/art/7.svg` },
        { name: 'Https Fine', artistName: 'H', artworkUrl100: 'https://img.example/ok.jpg' },
        { name: 'Wrong Types', artistName: 42, artworkUrl100: { url: 'x' }, contentAdvisoryRating: ['Explicit'] },
        { name: '<img src=x onerror=alert(1)>', artistName: '<script>alert(1)</script>' },
        { name: 'שיר בעברית 🎵', artistName: '\u202Eevil\u0000 name\n' },
        { name: 'L'.repeat(10_000), artistName: 'Long' },
        { name: 12345 },
        { artistName: 'No Name' },
        null,
        { name: '   ' },
      ],
    },
  }
}

let upstream: ReturnType<typeof Bun.serve>
// Another loopback address, standing in for a service on the server's own network that the feed
// must not be able to reach by redirecting: it answers a perfectly good feed, if asked.
let inside: ReturnType<typeof Bun.serve>
let insideHits = 0
let server: TestServer
let plain: TestServer

beforeAll(async () => {
  inside = Bun.serve({
    hostname: '127.0.0.2',
    port: 0,
    fetch() {
      insideHits++
      return Response.json({ feed: { updated: FEED_UPDATED, results: [{ name: 'Internal Secret', artistName: 'Intranet' }] } })
    },
  })
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
      if (mode === 'redirect-inside') return Response.redirect(`http://127.0.0.2:${inside.port}/feeds/${region}/songs.json`, 302)
      if (mode === 'html') return new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } })
      if (mode === 'huge')
        return Response.json({
          feed: { updated: FEED_UPDATED, results: Array.from({ length: 40_000 }, (_, i) => ({ name: `Song ${i}`, artistName: 'x'.repeat(60) })) },
        })
      if (mode === 'hostile') return Response.json(hostileFeed(`http://127.0.0.1:${upstream.port}`))
      if (mode === 'v2') return Response.json({ feed: { updated: FEED_UPDATED, results: [{ name: 'Fresh After The Wait', artistName: 'Patience' }] } })
      if (mode === 'hold')
        return held.then(() => Response.json({ feed: { updated: FEED_UPDATED, results: [{ name: 'Fresh After The Wait', artistName: 'Patience' }] } }))
      if (mode === 'trickle') {
        // Headers at once, then a byte now and then: only a timeout on the whole exchange ends it.
        let timer: ReturnType<typeof setInterval>
        const body = new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('{"feed":{"results":['))
            timer = setInterval(() => c.enqueue(new TextEncoder().encode(' ')), 50)
          },
          cancel() {
            clearInterval(timer)
          },
        })
        return new Response(body, { headers: { 'content-type': 'application/json' } })
      }
      return Response.json(feedFor(region))
    },
  })
  ;[server, plain] = await Promise.all([
    startServer({ CHARTS_SOURCE_URL: `http://127.0.0.1:${upstream.port}/feeds/{region}/songs.json` }),
    startServer({ TRUST_PROXY: 'true' }),
  ])
})
afterAll(async () => {
  release()
  await Promise.all([server?.stop(), plain?.stop()])
  upstream?.stop(true)
  inside?.stop(true)
})

/** The first server's database, SQLite or PostgreSQL. */
const db = <T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]) => sqlOn<T>(server, sql, params)
const cacheRows = async () => (await db<{ n: number }>('SELECT count(*) AS n FROM chart_cache'))[0].n

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
    const [row] = await db<{ payload: string; fetched_at: number }>("SELECT payload, fetched_at FROM chart_cache WHERE region = 'ca'")
    expect(JSON.parse(row.payload).tracks).toHaveLength(3)
  })

  test('an expired copy is refreshed from the upstream', async () => {
    await api(server.url, 'GET', '/charts/au')
    await db("UPDATE chart_cache SET fetched_at = ? WHERE region = 'au'", Date.now() - 61 * 60_000)
    const before = hits.au
    const res = await api(server.url, 'GET', '/charts/au')
    expect(res.status).toBe(200)
    expect(hits.au).toBe(before + 1)
    const [row] = await db<{ fetched_at: number }>("SELECT fetched_at FROM chart_cache WHERE region = 'au'")
    expect(Date.now() - row.fetched_at).toBeLessThan(60_000)
  })

  test('when the upstream fails, the last good copy is served', async () => {
    const first = await api(server.url, 'GET', '/charts/gb')
    expect(first.body.data.tracks[0].title).toBe('GB Anthem')
    modes.gb = 'fail'
    await db("UPDATE chart_cache SET fetched_at = ? WHERE region = 'gb'", Date.now() - 5 * 3_600_000)
    const before = hits.gb
    const res = await api(server.url, 'GET', '/charts/gb')
    expect(hits.gb).toBe(before + 1)
    expect(res.status).toBe(200)
    expect(res.body.data.tracks).toEqual(first.body.data.tracks)
    expect(res.body.data.updated).toBe(FEED_UPDATED)
  })
})

describe('a hostile or broken feed', () => {
  test('artwork is only ever https or the feed host’s own http; wrong types, markup and junk items are tamed', async () => {
    modes.it = 'hostile'
    const res = await api(server.url, 'GET', '/charts/it')
    expect(res.status).toBe(200)
    const tracks = res.body.data.tracks as Array<{ rank: number; title: string; artist: string; art: string | null; explicit: boolean }>
    const art = Object.fromEntries(tracks.map((t) => [t.title.slice(0, 30), t.art]))
    expect(art).toMatchObject({
      'Script Art': null,
      'Data Art': null,
      'Spaced Script': null,
      'Plain Http Elsewhere': null,
      Credentials: null,
      Relative: null,
      'Feed Host Http': `http://127.0.0.1:${upstream.port}/art/7.svg`,
      'Https Fine': 'https://img.example/ok.jpg',
      'Wrong Types': null,
    })
    for (const t of tracks) expect(t.art === null || /^https:\/\/|^http:\/\/127\.0\.0\.1:/.test(t.art)).toBe(true)
    expect(tracks.find((t) => t.title === 'Wrong Types')).toEqual({ rank: 9, title: 'Wrong Types', artist: '', art: null, explicit: false })
    // Markup is kept as text (React renders it as text); control characters become spaces.
    expect(tracks[9]).toMatchObject({ title: '<img src=x onerror=alert(1)>', artist: '<script>alert(1)</script>' })
    expect(tracks[10]).toMatchObject({ title: 'שיר בעברית 🎵', artist: '\u202Eevil name' })
    expect(tracks[11].title).toHaveLength(300)
    expect(tracks).toHaveLength(12)
    expect(tracks.map((t) => t.rank)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
  })

  test('a tampered cache row cannot put an unsafe image URL or a broken shape on the page', async () => {
    await db(
      "UPDATE chart_cache SET payload = ? WHERE region = 'us'",
      JSON.stringify({
        updated: FEED_UPDATED,
        tracks: [{ rank: 1, title: 'Old Row', artist: 'Old', art: 'javascript:alert(1)', explicit: true }, { title: 5 }, null],
      }),
    )
    const res = await api(server.url, 'GET', '/charts/us')
    expect(res.body.data.tracks).toEqual([{ rank: 1, title: 'Old Row', artist: 'Old', art: null, explicit: true }])
    await db("UPDATE chart_cache SET payload = '{not json' WHERE region = 'us'")
    const broken = await api(server.url, 'GET', '/charts/us')
    expect(broken.status).toBe(200)
    expect(broken.body.data.tracks[0].title).toBe('US Anthem')
  })

  test('a slow upstream with an expired copy: the copy is served while the upstream is still busy, the refresh lands later', async () => {
    modes.cy = 'ok'
    const first = await api(server.url, 'GET', '/charts/cy')
    expect(first.body.data.tracks[0].title).toBe('CY Anthem')
    await db("UPDATE chart_cache SET fetched_at = ? WHERE region = 'cy'", Date.now() - 2 * 3_600_000)
    held = new Promise((resolve) => (release = resolve))
    modes.cy = 'hold'
    const before = hits.cy
    const res = await api(server.url, 'GET', '/charts/cy')
    expect(hits.cy).toBe(before + 1) // the upstream was asked and has not answered yet
    expect(res.status).toBe(200)
    expect(res.body.data.tracks[0].title).toBe('CY Anthem')
    release()
    const stored = async () => (await db<{ payload: string }>("SELECT payload FROM chart_cache WHERE region = 'cy'"))[0].payload
    for (let i = 0; i < 100 && !(await stored()).includes('Fresh After The Wait'); i++) await Bun.sleep(20)
    expect(JSON.parse(await stored()).tracks[0].title).toBe('Fresh After The Wait')
    expect((await api(server.url, 'GET', '/charts/cy')).body.data.tracks[0].title).toBe('Fresh After The Wait')
  })

  test('the timeout covers a body that trickles in forever; an oversized body is refused', async () => {
    modes.gr = 'trickle'
    const template = `http://127.0.0.1:${upstream.port}/feeds/{region}/songs.json`
    await expect(fetchFeed(template, 'gr', new Date(), { timeoutMs: 300 })).rejects.toThrow('The remote server did not answer within 0.3 seconds')
    modes.gr = 'huge'
    await expect(fetchFeed(template, 'gr', new Date(), { maxBytes: 64 * 1024 })).rejects.toThrow('The remote chart feed is larger than 0.1 MB')
  })

  test('a redirect to an address the policy forbids is refused (the feed host itself is allowed: the operator named it)', async () => {
    const template = `http://127.0.0.1:${upstream.port}/feeds/{region}/songs.json`
    modes.gr = 'redirect-inside'
    await expect(fetchFeed(template, 'gr')).rejects.toThrow('Remote URL refused: 127.0.0.2 is a loopback address')
    expect(insideHits).toBe(0)
  })

  test('a feed redirecting into the server’s network: the chart falls back as on any upstream failure', async () => {
    modes.jp = 'redirect-inside'
    const before = hits.jp ?? 0
    const res = await api(server.url, 'GET', '/charts/jp')
    expect(hits.jp).toBe(before + 1)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ source: 'local', tracks: [] })
    expect(JSON.stringify(res.body)).not.toContain('Internal Secret')
    expect(insideHits).toBe(0)
    expect(await db("SELECT region FROM chart_cache WHERE region = 'jp'")).toEqual([])
  })
})

describe('charts from this server’s own plays', () => {
  test('with no good copy yet, a failing, oversized or non-JSON upstream falls back to the last 30 days of plays in that country', async () => {
    const day = 86_400_000
    const now = Date.now()
    const play = (title: string, artist: string | null, country: string | null, ago: number) =>
      db(
        'INSERT INTO play_events (id, track_url, title, artist, country, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        crypto.randomUUID(),
        `/media/${title}.mp3?sig=${Math.random()}`,
        title,
        artist,
        country,
        now - ago,
        now - ago,
      )
    for (let i = 0; i < 3; i++) await play('Blue in Green', 'Miles Davis', 'DE', i * day)
    await play('So What', 'Miles Davis', 'DE', 2 * day)
    await play('Naima', 'John Coltrane', 'DE', 3 * day)
    await play('Naima', 'John Coltrane', 'DE', 4 * day)
    await play('Untagged', null, 'DE', 1000)
    await play('Old Favourite', 'Nobody', 'DE', 31 * day) // outside the window
    for (let i = 0; i < 5; i++) await play('French Hit', 'Someone', 'FR', day) // another country
    await play('No Country', 'Someone', null, day)

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
    expect(await db("SELECT region FROM chart_cache WHERE region IN ('de','fr','es')")).toEqual([])
  })
})

describe('regions', () => {
  test('a well-formed code outside the 11 regions is a 404 naming the storefront', async () => {
    for (const [code, shown] of [
      ['zz', 'zz'],
      ['XX', 'xx'],
    ]) {
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
    const cached = await cacheRows()
    const upstreamCalls = Object.values(hits).reduce((a, b) => a + b, 0)
    for (const region of ['..%2Fx', '..%2F..%2Fetc%2Fpasswd', '%2E%2e%2Fx', 'x'.repeat(500), 'u1', 'usa', 'u%20s', '%F0%9F%8E%B5']) {
      const res = await api(server.url, 'GET', `/charts/${region}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error: 'Region must be a two-letter storefront code' })
    }
    // A NUL character is refused in any text input before the field's own rule (src/server/http/nul-text.ts).
    expect(await api(server.url, 'GET', '/charts/%00')).toMatchObject({
      status: 400,
      body: { success: false, error: 'region: Text may not contain a NUL character' },
    })
    expect((await api(server.url, 'GET', '/charts/%E0%A4%A')).status).toBe(400)
    // An encoded dot-dot segment is a dot-dot segment to URL parsing: it leaves /charts altogether.
    expect(await api(server.url, 'GET', '/charts/%2e%2e')).toMatchObject({ status: 404, body: { success: false, error: 'Not found: /api/' } })
    expect(await cacheRows()).toBe(cached)
    expect(Object.values(hits).reduce((a, b) => a + b, 0)).toBe(upstreamCalls)
  })
})

describe('without a feed: this server’s plays, by the country the proxy reports', () => {
  test('plays recorded through POST /api/playlist/plays with CF-IPCountry: GB rank the gb chart, and only the gb chart', async () => {
    const member = await createMember(plain.url)
    const play = (title: string, artist: string, country: string) =>
      api(plain.url, 'POST', '/playlist/plays', {
        token: member.token,
        headers: { 'cf-ipcountry': country, 'x-forwarded-for': '203.0.113.7' },
        body: { trackUrl: `https://music.example/${encodeURIComponent(title)}.mp3`, title, artist, duration: 180 },
      })
    const plays: Array<[string, string, string, number]> = [
      ['Wonderwall', 'Oasis', 'GB', 3],
      ['Parklife', 'Blur', 'GB', 5],
      ['Common People', 'Pulp', 'GB', 1],
      ['Hotel California', 'Eagles', 'US', 7],
    ]
    for (const [title, artist, country, n] of plays) {
      for (let i = 0; i < n; i++) expect((await play(title, artist, country)).status).toBe(201)
    }
    const gb = await api(plain.url, 'GET', '/charts/gb')
    expect(gb.status).toBe(200)
    expect(gb.body.data.source).toBe('local')
    expect(gb.body.data.tracks).toEqual([
      { rank: 1, title: 'Parklife', artist: 'Blur', art: null, explicit: false },
      { rank: 2, title: 'Wonderwall', artist: 'Oasis', art: null, explicit: false },
      { rank: 3, title: 'Common People', artist: 'Pulp', art: null, explicit: false },
    ])
    const us = await api(plain.url, 'GET', '/charts/us')
    expect(us.body.data.tracks.map((t: { title: string }) => t.title)).toEqual(['Hotel California'])
    expect((await api(plain.url, 'GET', '/charts/fr')).body.data.tracks).toEqual([])
  })

  test('a client cannot pick its country without a trusted proxy: the header is ignored when TRUST_PROXY is off', async () => {
    const member = await createMember(server.url)
    const res = await api(server.url, 'POST', '/playlist/plays', {
      token: member.token,
      headers: { 'cf-ipcountry': 'JP' },
      body: { trackUrl: 'https://music.example/spoof.mp3', title: 'Spoofed Country', artist: 'Nobody', duration: 60 },
    })
    expect(res.status).toBe(201)
    const [row] = await db<{ country: string | null }>("SELECT country FROM play_events WHERE title = 'Spoofed Country'")
    expect(row.country).toBeNull()
  })
})

describe('a LAN install without a feed: this server’s worldwide chart', () => {
  test('9 plays from the LAN (no country) are not in any region but rank the worldwide chart, with every region’s plays', async () => {
    const member = await createMember(plain.url)
    const lanPlay = (title: string) =>
      api(plain.url, 'POST', '/playlist/plays', {
        token: member.token,
        body: { trackUrl: `https://lan.example/${encodeURIComponent(title)}.mp3`, title, artist: 'The Lan', duration: 120 },
      })
    for (const [title, n] of [
      ['Living Room Song', 6],
      ['Kitchen Tune', 3],
    ] as const) {
      for (let i = 0; i < n; i++) expect((await lanPlay(title)).status).toBe(201)
    }
    const regionCharts = await Promise.all(['us', 'gb', 'de'].map((r) => api(plain.url, 'GET', `/charts/${r}`)))
    for (const chart of regionCharts) expect(chart.body.data.tracks.map((t: { title: string }) => t.title)).not.toContain('Living Room Song')

    const world = await api(plain.url, 'GET', '/charts/ww')
    expect(world.status).toBe(200)
    expect(world.body.data).toMatchObject({ region: 'ww', source: 'local' })
    // Ranked by plays over every place: the US and GB plays of the test above (7, 5, 3, 1) and the LAN's (6, 3).
    const titles = world.body.data.tracks.map((t: { title: string }) => t.title)
    expect(titles.slice(0, 3)).toEqual(['Hotel California', 'Living Room Song', 'Parklife'])
    expect(titles).toContain('Kitchen Tune')
    expect(world.body.data.tracks[1]).toEqual({ rank: 2, title: 'Living Room Song', artist: 'The Lan', art: null, explicit: false })
  })

  test('with a feed configured, the worldwide chart is still this server’s own (the feed has no worldwide storefront)', async () => {
    const before = Object.values(hits).reduce((a, b) => a + b, 0)
    const world = await api(server.url, 'GET', '/charts/WW')
    expect(world.status).toBe(200)
    expect(world.body.data).toMatchObject({ region: 'ww', source: 'local' })
    expect(Object.values(hits).reduce((a, b) => a + b, 0)).toBe(before)
  })
})
