// Podcasts (decision 078) against the real built server and real feeds served by nginx on
// loopback (tests/fixtures/podcasts, RSS with the iTunes tags and Atom; episodes are real MP3s
// made with ffmpeg): a member subscribes by URL, reads the episodes as plain text, plays them
// through the server with byte ranges (a redirecting enclosure too), keeps their place across
// sessions, refreshes with conditional requests, downloads one; channels are shared per URL;
// admins can keep new feeds to themselves. Hostile feeds (malformed, billion laughs, too large,
// too slow, a refused host) are a 400 naming the problem and store nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ffmpeg } from '../helpers/media'
import { type PodcastFeeds, startPodcastFeeds } from '../helpers/podcast-feeds'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

// The feeds bind 127.0.0.2, the one host REMOTE_ALLOW_HOSTS lets through; 127.0.0.1 stays refused.
const HOST = '127.0.0.2'
let app: TestServer
let feeds: PodcastFeeds
let member: Awaited<ReturnType<typeof createMember>>
let adminToken: string

beforeAll(async () => {
  feeds = await startPodcastFeeds(HOST, {
    'fake-art.xml': (base) => artFeed('Fake Art', `${base}/fake-art.jpg`),
    'refused-art.xml': () => artFeed('Art Inside', 'http://127.0.0.1:9/art.jpg'),
  })
  app = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: HOST, PODCAST_REFRESH_MINUTES: '0', PODCAST_DOWNLOAD_QUOTA_MB: '1' })
  member = await createMember(app.url)
  adminToken = await loginAdmin(app.url)
}, 60_000)

afterAll(async () => {
  await feeds?.stop()
  await app?.stop()
})

/** A one-episode feed whose artwork is at `image`. */
const artFeed = (title: string, image: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>${title}</title>
<itunes:image href="${image}"/><description>Artwork test.</description>
<item><title>One</title><guid>${title}-1</guid><enclosure url="http://127.0.0.1:9/one.mp3" length="1" type="audio/mpeg"/></item>
</channel></rss>`

const hex = (bytes: ArrayBufferView) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
const hexOf = async (res: Response) => hex(new Uint8Array(await res.arrayBuffer()))
const subscribe = (url: string, token = member.token) => api(app.url, 'POST', '/podcasts', { token, body: { url } })
const episodesOf = (channelId: string, query = '', token = member.token) => api(app.url, 'GET', `/podcasts/${channelId}/episodes${query}`, { token })
const artwork = (channelId: string, query = '?size=300', token: string | null = member.token) =>
  fetch(`${app.url}/api/podcasts/${channelId}/artwork${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })

/** Width×height of a picture, read by ffprobe. */
function dimensionsOf(bytes: Uint8Array): string {
  const file = path.join(app.dataDir, `probe-${Date.now()}.jpg`)
  writeFileSync(file, bytes)
  const r = Bun.spawnSync(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=s=x:p=0', file])
  return r.stdout.toString().trim()
}

const audio = (id: string, headers: Record<string, string> = {}, token = member.token) =>
  fetch(`${app.url}/api/podcasts/episodes/${id}/audio`, { headers: { authorization: `Bearer ${token}`, ...headers } })

describe('subscribing and reading a feed', () => {
  test('an RSS feed with the iTunes tags becomes a channel with its episodes, newest first, as plain text', async () => {
    const res = await subscribe(feeds.url('show.xml'))
    expect(res.status).toBe(201)
    const channel = res.body.data
    expect(channel).toMatchObject({ title: 'Loopback Radio Hour', author: 'Loopback Media', episodeCount: 3, artworkUrl: `${feeds.server.url}/art.jpg` })
    expect(channel.description).toBe('A weekly show about tones & silence.')
    const list = await episodesOf(channel.id)
    expect(list.status).toBe(200)
    expect(list.body.data.total).toBe(3)
    const [ep3, ep2, ep1] = list.body.data.episodes
    expect([ep3.title, ep2.title, ep1.title]).toEqual(['Episode 3: The Redirect', 'Episode 2: Hostile Notes', 'Episode 1: Pilot'])
    expect(ep1).toMatchObject({ durationSec: 20, description: 'The first episode.', positionMs: 0, played: false, downloaded: false })
    expect(ep1.publishedAt).toBe(Date.UTC(2026, 10, 4, 8))
    // HTML and script in show notes reach no one: plain text, the words kept, the code gone.
    expect(ep2.description).toBe('Show notes with a link\nSecond line')
    const mine = await api(app.url, 'GET', '/podcasts', { token: member.token })
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([channel.id])
  })

  test('an Atom feed with enclosure links is read too', async () => {
    const res = await subscribe(feeds.url('atom.xml'))
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ title: 'Atom Audio Notes', author: 'Field Recorder', episodeCount: 1 })
    const [episode] = (await episodesOf(res.body.data.id)).body.data.episodes
    expect(episode).toMatchObject({ title: 'Recording one', description: 'A quiet morning.', publishedAt: Date.parse('2026-11-20T18:30:02Z') })
  })

  test('the same feed URL is one channel for every member; each member has their own list', async () => {
    const other = await createMember(app.url)
    const a = await subscribe(feeds.url('show.xml'))
    const b = await subscribe(feeds.url('show.xml'), other.token)
    expect(b.status).toBe(201)
    expect(b.body.data.id).toBe(a.body.data.id)
    const theirs = await api(app.url, 'GET', '/podcasts', { token: other.token })
    expect(theirs.body.data.map((c: { title: string }) => c.title)).toEqual(['Loopback Radio Hour'])
  })

  test('a 2,000-episode feed is stored whole and paged; search finds episodes by title', async () => {
    const res = await subscribe(feeds.url('many.xml'))
    expect(res.status).toBe(201)
    expect(res.body.data.episodeCount).toBe(2000)
    const first = await episodesOf(res.body.data.id, '?limit=50')
    expect(first.body.data.total).toBe(2000)
    expect(first.body.data.episodes).toHaveLength(50)
    expect(first.body.data.episodes[0].title).toBe('Episode 2000: notes & tones')
    const found = await episodesOf(res.body.data.id, `?search=${encodeURIComponent('episode 1999:')}`)
    expect(found.body.data.episodes.map((e: { title: string }) => e.title)).toEqual(['Episode 1999: notes & tones'])
  })
})

describe('playing episodes through the server', () => {
  let episodes: Array<{ id: string; title: string }>
  beforeAll(async () => {
    const channel = (await subscribe(feeds.url('show.xml'))).body.data
    episodes = (await episodesOf(channel.id)).body.data.episodes
  })

  test('an episode streams from its source through the server, byte ranges passed on', async () => {
    const file = readFileSync(path.join(feeds.root, 'audio/ep1.mp3'))
    const pilot = episodes.find((e) => e.title === 'Episode 1: Pilot')!
    const whole = await audio(pilot.id)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('audio/mpeg')
    expect(await hexOf(whole)).toBe(hex(file))
    const part = await audio(pilot.id, { range: 'bytes=100-199' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${file.length}`)
    expect(await hexOf(part)).toBe(hex(file.subarray(100, 200)))
  })

  test('an enclosure that redirects is followed (each hop checked)', async () => {
    const redirected = episodes.find((e) => e.title === 'Episode 3: The Redirect')!
    const res = await audio(redirected.id, { range: 'bytes=0-9' })
    expect(res.status).toBe(206)
    expect(await hexOf(res)).toBe(hex(readFileSync(path.join(feeds.root, 'audio/ep1.mp3')).subarray(0, 10)))
  })

  test('no one else plays a member’s episodes: without a session 401, a stranger 404', async () => {
    const stranger = await createMember(app.url)
    expect((await fetch(`${app.url}/api/podcasts/episodes/${episodes[0].id}/audio`)).status).toBe(401)
    const res = await audio(episodes[0].id, {}, stranger.token)
    expect(res.status).toBe(404)
    expect((await res.json()).error).toBe('Episode not found')
  })

  test('progress is kept per member and episode and read back in every session', async () => {
    const pilot = episodes.find((e) => e.title === 'Episode 1: Pilot')!
    const saved = await api(app.url, 'PUT', `/podcasts/episodes/${pilot.id}/progress`, { token: member.token, body: { positionMs: 12_345 } })
    expect(saved.status).toBe(200)
    expect(saved.body.data).toEqual({ positionMs: 12_345, played: false })
    const again = await api(app.url, 'POST', '/auth/login', { body: { email: member.email, password: member.password } })
    const elsewhere = again.body.data.token
    const read = await api(app.url, 'GET', `/podcasts/episodes/${pilot.id}`, { token: elsewhere })
    expect(read.body.data).toMatchObject({ positionMs: 12_345, played: false })
    await api(app.url, 'PUT', `/podcasts/episodes/${pilot.id}/progress`, { token: elsewhere, body: { positionMs: 20_000, played: true } })
    const list = await episodesOf(
      (await api(app.url, 'GET', '/podcasts', { token: member.token })).body.data.find((c: { title: string }) => c.title === 'Loopback Radio Hour').id,
    )
    expect(list.body.data.episodes.find((e: { id: string }) => e.id === pilot.id)).toMatchObject({ positionMs: 20_000, played: true })
    const bad = await api(app.url, 'PUT', `/podcasts/episodes/${pilot.id}/progress`, { token: member.token, body: { positionMs: -5 } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('Position must be at least 0')
  })

  test('an episode on a refused host is a 400 naming the address, at play time', async () => {
    const res = await subscribe(feeds.url('refused-host.xml'))
    expect(res.status).toBe(201)
    const [episode] = (await episodesOf(res.body.data.id)).body.data.episodes
    const play = await audio(episode.id)
    expect(play.status).toBe(400)
    expect((await play.json()).error).toMatch(/127\.0\.0\.1 is a loopback address/)
  })

  test('a downloaded episode is served from DATA_DIR/podcasts, with ranges, and can be removed', async () => {
    const notes = episodes.find((e) => e.title === 'Episode 2: Hostile Notes')!
    const file = readFileSync(path.join(feeds.root, 'audio/ep2.mp3'))
    const done = await api(app.url, 'POST', `/podcasts/episodes/${notes.id}/download`, { token: member.token })
    expect(done.status).toBe(200)
    expect(done.body.data).toEqual({ downloaded: true, size: file.length })
    expect(readdirSync(path.join(app.dataDir, 'podcasts'))).toEqual([`${notes.id}.audio`])
    // nginx no longer has it: what plays is the download.
    const part = await audio(notes.id, { range: 'bytes=10-19' })
    expect(part.status).toBe(206)
    expect(await hexOf(part)).toBe(hex(file.subarray(10, 20)))
    const removed = await api(app.url, 'DELETE', `/podcasts/episodes/${notes.id}/download`, { token: member.token })
    expect(removed.body.data).toEqual({ downloaded: false })
    expect(existsSync(path.join(app.dataDir, 'podcasts', `${notes.id}.audio`))).toBe(false)
  })
})

describe('artwork through the server', () => {
  test('the feed’s image comes back as a JPEG scaled to the asked size (rounded up), kept in the cover cache', async () => {
    const channel = (await subscribe(feeds.url('show.xml'))).body.data
    const res = await artwork(channel.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(hex(bytes.subarray(0, 3))).toBe('ffd8ff')
    // 800×600 fits in 512×512 (300 rounds up to 512), never up.
    expect(dimensionsOf(bytes)).toBe('512x384')
    const small = await artwork(channel.id, '?size=64')
    expect(dimensionsOf(new Uint8Array(await small.arrayBuffer()))).toBe('64x48')
    const etag = res.headers.get('etag')
    expect((await artwork(channel.id)).headers.get('etag')).toBe(etag)
    expect(readdirSync(path.join(app.dataDir, 'cover-cache')).filter((f) => f.endsWith('.jpg')).length).toBeGreaterThanOrEqual(2)
  })

  test('a size that is no whole number from 1 to 10000 is a 400', async () => {
    const channel = (await subscribe(feeds.url('show.xml'))).body.data
    for (const query of ['?size=0', '?size=abc', '?size=10001']) {
      const res = await artwork(channel.id, query)
      expect(res.status).toBe(400)
      expect((await res.json()).error).toBe('size must be a whole number from 1 to 10000')
    }
  })

  test('only the channel’s members see it: without a session 401, a stranger 404', async () => {
    const channel = (await subscribe(feeds.url('show.xml'))).body.data
    expect((await artwork(channel.id, '?size=64', null)).status).toBe(401)
    const stranger = await createMember(app.url)
    const res = await artwork(channel.id, '?size=64', stranger.token)
    expect(res.status).toBe(404)
    expect((await res.json()).error).toBe('Podcast not found')
  })

  test('an HTML page named like a picture is no artwork: a 404 saying so, never its bytes', async () => {
    const channel = (await subscribe(feeds.url('fake-art.xml'))).body.data
    expect(channel.artworkUrl).toBe(`${feeds.server.url}/fake-art.jpg`)
    const res = await artwork(channel.id)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect((await res.json()).error).toBe('No artwork for this podcast: the address does not give a picture')
  })

  test('artwork on a refused host is not fetched: a 404 naming the address', async () => {
    const channel = (await subscribe(feeds.url('refused-art.xml'))).body.data
    const res = await artwork(channel.id)
    expect(res.status).toBe(404)
    expect((await res.json()).error).toMatch(/^No artwork for this podcast: .*127\.0\.0\.1 is a loopback address/)
  })
})

describe('the download quota (1 MB here)', () => {
  test('past the quota, a download someone finished goes first; the newest download stays', async () => {
    // Two real MP3s of about 600 KB each: together past the quota.
    for (const name of ['big-a', 'big-b'])
      ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=500:duration=25', '-b:a', '192k', path.join(feeds.root, `audio/${name}.mp3`))
    const item = (n: string, day: number) =>
      `<item><title>Big ${n}</title><guid>big-${n}</guid><pubDate>Mon, 0${day} Nov 2026 08:00:00 GMT</pubDate><enclosure url="${feeds.server.url}/audio/big-${n}.mp3" type="audio/mpeg"/></item>`
    writeFileSync(path.join(feeds.root, 'quota.xml'), `<rss version="2.0"><channel><title>Big Files</title>${item('b', 3)}${item('a', 2)}</channel></rss>`)
    const channel = (await subscribe(feeds.url('quota.xml'))).body.data
    const [b, a] = (await episodesOf(channel.id)).body.data.episodes
    expect((await api(app.url, 'POST', `/podcasts/episodes/${a.id}/download`, { token: member.token })).status).toBe(200)
    await api(app.url, 'PUT', `/podcasts/episodes/${a.id}/progress`, { token: member.token, body: { positionMs: 25_000, played: true } })
    expect((await api(app.url, 'POST', `/podcasts/episodes/${b.id}/download`, { token: member.token })).status).toBe(200)
    const files = readdirSync(path.join(app.dataDir, 'podcasts'))
    expect(files).toContain(`${b.id}.audio`)
    expect(files).not.toContain(`${a.id}.audio`)
    const after = (await episodesOf(channel.id)).body.data.episodes
    expect(after.map((e: { title: string; downloaded: boolean }) => [e.title, e.downloaded])).toEqual([
      ['Big b', true],
      ['Big a', false],
    ])
    // The evicted episode still plays, from its source.
    expect((await audio(a.id, { range: 'bytes=0-9' })).status).toBe(206)
  })
})

describe('refreshing', () => {
  test('an unchanged feed answers 304 to the validators we kept: nothing rewritten', async () => {
    const channel = (await subscribe(feeds.url('show.xml'))).body.data
    const res = await api(app.url, 'POST', `/podcasts/${channel.id}/refresh`, { token: member.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([{ channelId: channel.id, changed: false, error: null }])
  })
})

describe('new episodes', () => {
  test('a changed feed is read again; its newer episodes are new until the member opens the channel', async () => {
    const file = path.join(feeds.root, 'grows.xml')
    const show = readFileSync(path.join(feeds.root, 'show.xml'), 'utf8')
    writeFileSync(file, show)
    const channel = (await subscribe(feeds.url('grows.xml'))).body.data
    expect(channel.newCount).toBe(0)
    // A feed's dates have whole seconds: the new episode is published a second after subscribing.
    await Bun.sleep(1100)
    const fresh = `<item><title>Episode 4: Fresh</title><guid>loopback-ep-4</guid><pubDate>${new Date().toUTCString()}</pubDate><enclosure url="${feeds.server.url}/audio/ep2.mp3" type="audio/mpeg"/></item>`
    writeFileSync(file, show.replace('<item>', `${fresh}\n<item>`))
    const refreshed = await api(app.url, 'POST', `/podcasts/${channel.id}/refresh`, { token: member.token })
    expect(refreshed.body.data).toEqual([{ channelId: channel.id, changed: true, error: null }])
    const listed = (await api(app.url, 'GET', '/podcasts', { token: member.token })).body.data.find((c: { id: string }) => c.id === channel.id)
    expect(listed).toMatchObject({ episodeCount: 4, newCount: 1 })
    expect((await episodesOf(channel.id)).body.data.episodes[0].title).toBe('Episode 4: Fresh')
    await api(app.url, 'POST', `/podcasts/${channel.id}/visit`, { token: member.token })
    expect((await api(app.url, 'GET', `/podcasts/${channel.id}`, { token: member.token })).body.data.newCount).toBe(0)
  })
})

describe('hostile and broken feeds: a 400 naming the problem, nothing stored', () => {
  const cases: Array<[string, string | RegExp]> = [
    ['malformed.xml', /The feed is not well-formed XML/],
    ['billion-laughs.xml', 'The feed declares its own XML entities (<!ENTITY>), which are refused: podcast feeds never need them'],
    ['huge.xml', 'The remote feed is larger than 10 MB'],
    ['slow.xml', 'The remote server did not answer within 10 seconds'],
    ['audio/ep1.mp3', /not well-formed XML|does not serve a podcast feed/],
  ]
  for (const [file, message] of cases)
    test(file, async () => {
      const before = (await api(app.url, 'GET', '/podcasts', { token: member.token })).body.data
      const res = await subscribe(feeds.url(file))
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
      expect((await api(app.url, 'GET', '/podcasts', { token: member.token })).body.data).toEqual(before)
    }, 30_000)

  test('a feed on a loopback host is refused by the address policy', async () => {
    const res = await subscribe(`http://127.0.0.1:${app.port}/api/health`)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/127\.0\.0\.1 is a loopback address/)
    const bad = await subscribe('ftp://example.com/feed.xml')
    expect(bad.status).toBe(400)
  })
})

describe('who may add feeds', () => {
  test('with "admins only", a member may follow a known feed but not add a new one; admins may', async () => {
    const set = await api(app.url, 'PUT', '/podcasts/settings', { token: adminToken, body: { feedsBy: 'admins' } })
    expect(set.body.data).toEqual({ feedsBy: 'admins' })
    const notAdmin = await api(app.url, 'PUT', '/podcasts/settings', { token: member.token, body: { feedsBy: 'everyone' } })
    expect(notAdmin.status).toBe(403)
    const other = await createMember(app.url)
    const refused = await subscribe(feeds.url('atom.xml?new'), other.token)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe('Only admins may add new podcast feeds on this server')
    expect((await subscribe(feeds.url('show.xml'), other.token)).status).toBe(201)
    expect((await subscribe(feeds.url('atom.xml?new'), adminToken)).status).toBe(201)
    await api(app.url, 'PUT', '/podcasts/settings', { token: adminToken, body: { feedsBy: 'everyone' } })
  })

  test('unsubscribing the last member removes the channel', async () => {
    const other = await createMember(app.url)
    const channel = (await subscribe(feeds.url('show.xml?solo'), other.token)).body.data
    expect((await api(app.url, 'DELETE', `/podcasts/${channel.id}`, { token: other.token })).status).toBe(200)
    expect((await api(app.url, 'GET', `/podcasts/${channel.id}`, { token: adminToken })).status).toBe(404)
  })
})

describe('OpenSubsonic', () => {
  let app2: Awaited<ReturnType<typeof createMember>>
  const rest = async (method: string, params: Record<string, string> = {}, who = app2) => {
    const query = new URLSearchParams({ u: who.username, p: who.password, v: '1.16.1', c: 'podcast-test', f: 'json', ...params })
    const res = await fetch(`${app.url}/rest/${method}?${query}`)
    return { res, body: res.headers.get('content-type')?.includes('json') ? (await res.json())['subsonic-response'] : null }
  }
  beforeAll(async () => {
    app2 = await createMember(app.url)
  })

  test('createPodcastChannel subscribes; getPodcasts lists the channel with its episodes in the spec’s shape', async () => {
    expect((await rest('createPodcastChannel', { url: feeds.url('show.xml') })).body.status).toBe('ok')
    const { body } = await rest('getPodcasts')
    expect(body.status).toBe('ok')
    const [channel] = body.podcasts.channel
    expect(channel).toMatchObject({ url: feeds.url('show.xml'), title: 'Loopback Radio Hour', status: 'completed' })
    expect(channel.episode).toHaveLength(3)
    expect(channel.episode[2]).toMatchObject({
      channelId: channel.id,
      streamId: channel.episode[2].id,
      isDir: false,
      title: 'Episode 1: Pilot',
      status: 'completed',
      type: 'podcast',
      duration: 20,
      contentType: 'audio/mpeg',
      suffix: 'mp3',
      publishDate: '2026-11-04T08:00:00.000Z',
    })
    const bare = await rest('getPodcasts', { includeEpisodes: 'false' })
    expect(bare.body.podcasts.channel[0].episode).toBeUndefined()
  })

  test('getCoverArt gives a channel’s artwork (its coverArt id, on the channel and its episodes); others get 70', async () => {
    const [channel] = (await rest('getPodcasts')).body.podcasts.channel
    expect(channel.coverArt).toBe(channel.id)
    expect(channel.episode[0].coverArt).toBe(channel.id)
    const { res } = await rest('getCoverArt', { id: channel.coverArt, size: '100' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(dimensionsOf(new Uint8Array(await res.arrayBuffer()))).toBe('128x96')
    const stranger = await createMember(app.url)
    const theirs = await rest('getCoverArt', { id: channel.coverArt }, stranger)
    expect(theirs.body.error).toEqual({ code: 70, message: 'Podcast not found' })
  })

  test('getNewestPodcasts, getPodcastEpisode (advertised), stream with Range, scrobble with source podcast', async () => {
    const newest = await rest('getNewestPodcasts', { count: '2' })
    expect(newest.body.newestPodcasts.episode.map((e: { title: string }) => e.title)).toEqual(['Episode 3: The Redirect', 'Episode 2: Hostile Notes'])
    const extensions = await rest('getOpenSubsonicExtensions')
    expect(extensions.body.openSubsonicExtensions).toContainEqual({ name: 'getPodcastEpisode', versions: [1] })
    const pilot = (await rest('getPodcasts')).body.podcasts.channel[0].episode.find((e: { title: string }) => e.title === 'Episode 1: Pilot')
    const one = await rest('getPodcastEpisode', { id: pilot.id })
    expect(one.body.podcastEpisode).toMatchObject({ id: pilot.id, title: 'Episode 1: Pilot', description: 'The first episode.' })
    const query = new URLSearchParams({ u: app2.username, p: app2.password, v: '1.16.1', c: 'podcast-test', id: pilot.streamId })
    const stream = await fetch(`${app.url}/rest/stream?${query}`, { headers: { range: 'bytes=0-15' } })
    expect(stream.status).toBe(206)
    expect(await hexOf(stream)).toBe(hex(readFileSync(path.join(feeds.root, 'audio/ep1.mp3')).subarray(0, 16)))
    expect((await rest('scrobble', { id: pilot.id })).body.status).toBe('ok')
    const rows = await sqlOn(app, "SELECT source, title FROM play_events WHERE title = 'Episode 1: Pilot' AND source = 'podcast'")
    expect(rows).toEqual([{ source: 'podcast', title: 'Episode 1: Pilot' }])
  })

  test('an episode’s bookmark is the member’s progress, shared with the web', async () => {
    const pilot = (await rest('getPodcasts')).body.podcasts.channel[0].episode.find((e: { title: string }) => e.title === 'Episode 1: Pilot')
    expect((await rest('createBookmark', { id: pilot.id, position: '7000' })).body.status).toBe('ok')
    const login = await api(app.url, 'POST', '/auth/login', { body: { email: app2.email, password: app2.password } })
    const web = await api(app.url, 'GET', `/podcasts/episodes/${pilot.id}`, { token: login.body.data.token })
    expect(web.body.data.positionMs).toBe(7000)
    const marks = await rest('getBookmarks')
    expect(marks.body.bookmarks.bookmark).toContainEqual(
      expect.objectContaining({ position: 7000, entry: expect.objectContaining({ id: pilot.id, bookmarkPosition: 7000 }) }),
    )
    // The playbackReport extension moves the same place.
    expect((await rest('reportPlayback', { mediaId: pilot.id, mediaType: 'podcast', positionMs: '9000', state: 'paused' })).body.status).toBe('ok')
    expect((await api(app.url, 'GET', `/podcasts/episodes/${pilot.id}`, { token: login.body.data.token })).body.data.positionMs).toBe(9000)
    expect((await rest('deleteBookmark', { id: pilot.id })).body.status).toBe('ok')
    expect((await api(app.url, 'GET', `/podcasts/episodes/${pilot.id}`, { token: login.body.data.token })).body.data.positionMs).toBe(0)
  })

  test('refresh, download, delete the download, unsubscribe; unknown ids and refused feeds are errors', async () => {
    expect((await rest('refreshPodcasts')).body.status).toBe('ok')
    const [channel] = (await rest('getPodcasts')).body.podcasts.channel
    const episode = channel.episode[1]
    expect((await rest('downloadPodcastEpisode', { id: episode.id })).body.status).toBe('ok')
    expect(readdirSync(path.join(app.dataDir, 'podcasts'))).toContain(`${episode.id}.audio`)
    expect((await rest('deletePodcastEpisode', { id: episode.id })).body.status).toBe('ok')
    expect(readdirSync(path.join(app.dataDir, 'podcasts'))).not.toContain(`${episode.id}.audio`)
    const missing = await rest('getPodcastEpisode', { id: 'pe-0123456789abcdef' })
    expect(missing.body.error).toEqual({ code: 70, message: 'Episode not found' })
    const refused = await rest('createPodcastChannel', { url: `http://127.0.0.1:${app.port}/feed.xml` })
    expect(refused.body.error.code).toBe(0)
    expect(refused.body.error.message).toMatch(/loopback address/)
    expect((await rest('deletePodcastChannel', { id: channel.id })).body.status).toBe('ok')
    expect((await rest('getPodcasts')).body.podcasts.channel).toEqual([])
  })
})
