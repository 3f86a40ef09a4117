// An app's playback as it goes, and the queue by index, against the real built server, a library
// the scanner indexed and the real database (SQLite or PostgreSQL): reportPlayback (the playbackReport extension)
// records its play through the one play writer and updates it as the web player's are, a scrobble
// with submission=false and reportPlayback show in getNowPlaying as web plays do, the queue by
// index (indexBasedQueue) is the queue the web player resumes, and jukeboxControl says why it does
// not apply. Each through the npm client (JSON) and raw XML; bad input is an error envelope, HTTP 200.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

type Member = Awaited<ReturnType<typeof createMember>>
let server: TestServer
let ids: Record<'short' | 'long' | 'other', string>

// Plays in the order they began; of two begun in the same millisecond, the one still open is the later.
const playsOf = (m: Member) =>
  sqlOn(
    server,
    `SELECT title, source, client, listen_duration, CASE WHEN completed THEN 1 ELSE 0 END AS completed, CASE WHEN skipped THEN 1 ELSE 0 END AS skipped,
       skip_time, ended_at FROM play_events WHERE user_id = ? ORDER BY started_at, ended_at IS NULL, ended_at`,
    [m.user.id],
  )

/** A member with an app key, their npm client (it names itself subsonic-api) and a raw /rest caller named `name` (XML unless f=json). */
async function app(name = 'Symfonium') {
  const member = await createMember(server.url)
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name, currentPassword: member.password } })
  const key = created.body.data.key as string
  const client = new SubsonicAPI({ url: server.url, auth: { apiKey: key } })
  const rest = async (method: string, params: Record<string, string | string[]>) => {
    const url = new URL(`${server.url}/rest/${method}`)
    for (const [k, v] of Object.entries({ apiKey: key, c: name, v: '1.16.1', ...params })) for (const one of [v].flat()) url.searchParams.append(k, one)
    const res = await fetch(url)
    const text = await res.text()
    return {
      status: res.status,
      xml: params.f === 'json' ? undefined : parseXml(text),
      json: params.f === 'json' ? JSON.parse(text)['subsonic-response'] : undefined,
    }
  }
  return { member, client, rest }
}
const nowPlayingTitles = async (client: SubsonicAPI) => ((await client.getNowPlaying()).nowPlaying.entry ?? []).map((e) => e.title)

beforeAll(async () => {
  server = await startServer(adminEnv)
  const lib = (p: string) => path.join(server.mediaRoot, p)
  makeTone(lib('Ada/Dawn/1 Short.mp3'), { artist: 'Ada', album: 'Dawn', title: 'Short', seconds: 1, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Long.mp3'), { artist: 'Ada', album: 'Dawn', title: 'Long', seconds: 30, metadata: { track: '2' } })
  makeTone(lib('Ada/Dawn/3 Other.mp3'), { artist: 'Ada', album: 'Dawn', title: 'Other', seconds: 1, metadata: { track: '3' } })
  const admin = await loginAdmin(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 200 && (await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning; i++) await Bun.sleep(50)
  const { client } = await app()
  const songs = (await client.search3({ query: '', artistCount: 0, albumCount: 0, songCount: 10 })).searchResult3.song ?? []
  const id = (title: string) => songs.find((s) => s.title === title)!.id
  ids = { short: id('Short'), long: id('Long'), other: id('Other') }
})
afterAll(async () => {
  await server?.stop()
})

test('getOpenSubsonicExtensions advertises playbackReport and indexBasedQueue (version 1)', async () => {
  const { client } = await app()
  const { openSubsonicExtensions } = await client.getOpenSubsonicExtensions()
  expect(openSubsonicExtensions).toContainEqual({ name: 'playbackReport', versions: [1] })
  expect(openSubsonicExtensions).toContainEqual({ name: 'indexBasedQueue', versions: [1] })
})

describe('reportPlayback (playbackReport)', () => {
  test('starting records the play as an app scrobble; playing then stopped after the song was heard completes it; now playing shows it until the stop', async () => {
    const { member, client } = await app()
    const report = (state: 'starting' | 'playing' | 'paused' | 'stopped', positionMs: number) =>
      client.reportPlayback({ mediaId: ids.short, mediaType: 'song', positionMs, state })
    expect((await report('starting', 0)).status).toBe('ok')
    expect(await playsOf(member)).toEqual([
      { title: 'Short', source: 'subsonic', client: 'subsonic-api', listen_duration: 0, completed: 0, skipped: 0, skip_time: null, ended_at: null },
    ])
    expect((await client.getNowPlaying()).nowPlaying.entry).toEqual([
      expect.objectContaining({ id: ids.short, username: member.username, playerName: 'subsonic-api' }),
    ])
    expect((await report('playing', 0)).status).toBe('ok')
    // The one-second song plays out on the server's clock before the app says it stopped.
    await Bun.sleep(1000)
    expect((await report('stopped', 1000)).status).toBe('ok')
    const [play] = await playsOf(member)
    expect(play).toMatchObject({ completed: 1, skipped: 0 })
    expect(play.listen_duration as number).toBeGreaterThanOrEqual(0.8)
    expect(play.ended_at).not.toBeNull()
    expect(await nowPlayingTitles(client)).toEqual([])
  })

  test('stopped early is a skip at its position; a new song without a stop ends the one before; paused keeps it in now playing', async () => {
    const { member, client, rest } = await app('Feishin')
    const report = async (mediaId: string, state: string, positionMs: number, extra: Record<string, string> = {}) =>
      (await rest('reportPlayback', { mediaId, mediaType: 'song', positionMs: String(positionMs), state, ...extra, f: 'json' })).json.status
    expect((await rest('reportPlayback.view', { mediaId: ids.long, mediaType: 'song', positionMs: '0', state: 'starting' })).xml!.attributes.status).toBe('ok')
    expect(await report(ids.long, 'paused', 2500)).toBe('ok')
    expect(await nowPlayingTitles(client)).toEqual(['Long'])
    expect(await report(ids.long, 'stopped', 2500)).toBe('ok')
    expect(await report(ids.other, 'playing', 0, { playbackRate: '1.5' })).toBe('ok')
    expect(await report(ids.long, 'starting', 0)).toBe('ok')
    expect((await playsOf(member)).map((p) => [p.title, p.completed, p.skipped, p.skip_time, p.ended_at === null])).toEqual([
      ['Long', 0, 1, 2.5, false],
      ['Other', 0, 1, 0, false],
      ['Long', 0, 0, null, true],
    ])
    expect(await nowPlayingTitles(client)).toEqual(['Long'])
  })

  test('a song loaded paused records no play until it plays; the stop of a song never reported records nothing', async () => {
    const { member, client } = await app()
    await client.reportPlayback({ mediaId: ids.long, mediaType: 'song', positionMs: 5000, state: 'paused' })
    expect(await nowPlayingTitles(client)).toEqual(['Long'])
    expect(await playsOf(member)).toEqual([])
    await client.reportPlayback({ mediaId: ids.long, mediaType: 'song', positionMs: 5000, state: 'playing' })
    expect((await playsOf(member)).map((p) => p.title)).toEqual(['Long'])
    await client.reportPlayback({ mediaId: ids.long, mediaType: 'song', positionMs: 6000, state: 'stopped' })
    await client.reportPlayback({ mediaId: ids.other, mediaType: 'song', positionMs: 500, state: 'stopped' })
    expect((await playsOf(member)).map((p) => p.title)).toEqual(['Long'])
    expect(await nowPlayingTitles(client)).toEqual([])
  })

  test('ignoreScrobble shows in now playing and records no play', async () => {
    const { member, client } = await app()
    await client.reportPlayback({ mediaId: ids.other, mediaType: 'song', positionMs: 0, state: 'playing', ignoreScrobble: true })
    expect(await nowPlayingTitles(client)).toEqual(['Other'])
    expect(await playsOf(member)).toEqual([])
  })

  test('bad input is an error envelope naming the problem, HTTP 200, in XML and JSON; nothing is recorded', async () => {
    const { member, rest } = await app()
    const good = { mediaId: ids.short, mediaType: 'song', positionMs: '0', state: 'playing' }
    const cases: [Record<string, string>, number, string][] = [
      [{ ...good, mediaId: '' }, 10, 'Required parameter is missing: mediaId'],
      [{ ...good, positionMs: '' }, 10, 'Required parameter is missing: positionMs'],
      [{ ...good, state: 'flying' }, 0, 'Parameter state must be one of starting, playing, paused, stopped'],
      [{ ...good, mediaType: 'video' }, 0, 'Parameter mediaType must be one of song, podcast'],
      [{ ...good, positionMs: '-5' }, 0, 'Parameter positionMs must be between 0 and 604800000'],
      [{ ...good, playbackRate: 'fast' }, 0, 'Parameter playbackRate must be a number such as 1 or 1.5'],
      [{ ...good, ignoreScrobble: 'maybe' }, 0, 'Parameter ignoreScrobble must be true or false'],
      [{ ...good, mediaType: 'podcast' }, 70, 'Podcast not found'],
      [{ ...good, mediaId: 'nope' }, 70, 'Song not found'],
    ]
    for (const [params, code, message] of cases) {
      const xml = await rest('reportPlayback.view', params)
      expect(xml.status).toBe(200)
      expect(childOf(xml.xml!, 'error').attributes).toEqual({ code: String(code), message })
      const json = await rest('reportPlayback', { ...params, f: 'json' })
      expect(json.status).toBe(200)
      expect(json.json).toMatchObject({ status: 'failed', error: { code, message } })
    }
    expect(await playsOf(member)).toEqual([])
  })
})

describe('getNowPlaying', () => {
  test('a scrobble with submission=false shows there and records no play; another member does not see it', async () => {
    const one = await app('DSub')
    const other = await app()
    expect((await one.rest('scrobble', { id: ids.other, submission: 'false', f: 'json' })).json.status).toBe('ok')
    expect((await one.client.getNowPlaying()).nowPlaying.entry).toEqual([
      expect.objectContaining({ id: ids.other, username: one.member.username, playerName: 'DSub' }),
    ])
    expect(await playsOf(one.member)).toEqual([])
    expect(await nowPlayingTitles(other.client)).toEqual([])
    const { xml } = await one.rest('getNowPlaying.view', {})
    expect(childrenOf(childOf(xml!, 'nowPlaying'), 'entry').map((e) => e.attributes.title)).toEqual(['Other'])
  })

  test('a web play shows there too, and a later web play replaces an app’s report', async () => {
    const { member, client } = await app()
    await client.reportPlayback({ mediaId: ids.other, mediaType: 'song', positionMs: 0, state: 'playing', ignoreScrobble: true })
    await Bun.sleep(5)
    const track = (await api(server.url, 'GET', '/library/search?q=Short', { token: member.token })).body.data.tracks[0]
    const played = await api(server.url, 'POST', '/playlist/plays', {
      token: member.token,
      body: { trackUrl: track.url, title: track.title, artist: track.artist, album: track.album, duration: track.duration, source: 'direct' },
    })
    expect(played.status).toBe(201)
    expect((await client.getNowPlaying()).nowPlaying.entry).toEqual([expect.objectContaining({ id: ids.short, username: member.username })])
  })
})

describe('getPlayQueueByIndex / savePlayQueueByIndex (indexBasedQueue)', () => {
  test('a queue with a song twice keeps which one is current; the web player resumes it, and getPlayQueue agrees', async () => {
    const { member, client, rest } = await app()
    // Never saved: an empty queue, changed never (1970), by no one.
    expect(await client.customJSON<object>('getPlayQueueByIndex', {})).toMatchObject({
      playQueueByIndex: { username: member.username, changed: '1970-01-01T00:00:00.000Z', changedBy: '' },
    })
    const saved = await rest('savePlayQueueByIndex', { id: [ids.short, ids.other, ids.short], currentIndex: '2', position: '1500', f: 'json' })
    expect(saved.json.status).toBe('ok')
    const { json } = await rest('getPlayQueueByIndex', { f: 'json' })
    expect(json.playQueueByIndex).toMatchObject({ currentIndex: 2, position: 1500, username: member.username, changedBy: 'Symfonium' })
    expect(json.playQueueByIndex.entry.map((e: { id: string }) => e.id)).toEqual([ids.short, ids.other, ids.short])
    const web = (await api(server.url, 'GET', '/playlist/queue', { token: member.token })).body.data
    expect(web).toMatchObject({ index: 2, positionSec: 1.5 })
    expect(web.tracks.map((t: { title: string }) => t.title)).toEqual(['Short', 'Other', 'Short'])
    expect((await client.getPlayQueue()).playQueue).toMatchObject({ current: ids.short, position: 1500 })

    // The web player saves a queue with a remote stream before the current track: the app's index skips it.
    await api(server.url, 'PUT', '/playlist/queue', {
      token: member.token,
      body: { tracks: [{ url: 'https://example.com/a.mp3' }, web.tracks[1]], index: 1, positionSec: 3 },
    })
    const { xml } = await rest('getPlayQueueByIndex.view', {})
    const queue = childOf(xml!, 'playQueueByIndex')
    expect(queue.attributes).toMatchObject({ currentIndex: '0', position: '3000' })
    expect(childrenOf(queue, 'entry').map((e) => e.attributes.title)).toEqual(['Other'])

    // No id clears the queue.
    expect((await rest('savePlayQueueByIndex.view', {})).xml!.attributes.status).toBe('ok')
    const cleared = (await rest('getPlayQueueByIndex', { f: 'json' })).json.playQueueByIndex
    expect(cleared).toMatchObject({ username: member.username, changedBy: 'Symfonium' })
    expect(cleared.entry ?? []).toEqual([])
    expect(cleared).not.toHaveProperty('currentIndex')
  })

  test('a current index out of range, missing, or given with no ids is error 10; an unknown id is 70; HTTP 200 in XML and JSON', async () => {
    const { rest } = await app()
    const cases: [Record<string, string | string[]>, number, string][] = [
      [{ id: [ids.short, ids.other], currentIndex: '2' }, 10, 'Parameter currentIndex must be between 0 and 1 (the queue has 2 tracks)'],
      [{ id: [ids.short], currentIndex: '-1' }, 10, 'Parameter currentIndex must be between 0 and 0 (the queue has 1 tracks)'],
      [{ id: [ids.short] }, 10, 'Required parameter is missing: currentIndex'],
      [{ currentIndex: '0' }, 10, 'Parameter currentIndex must not be given without an id'],
      [{ id: [ids.short], currentIndex: 'first' }, 0, 'Parameter currentIndex must be a whole number'],
      [{ id: [ids.short, 'nope'], currentIndex: '0' }, 70, 'Song not found'],
    ]
    for (const [params, code, message] of cases) {
      const xml = await rest('savePlayQueueByIndex.view', params)
      expect(xml.status).toBe(200)
      expect(childOf(xml.xml!, 'error').attributes).toEqual({ code: String(code), message })
      const json = await rest('savePlayQueueByIndex', { ...params, f: 'json' })
      expect(json.json).toMatchObject({ status: 'failed', error: { code, message } })
    }
  })
})

test('jukeboxControl says it does not apply (no audio output on the server): error 0, HTTP 200, in XML and JSON', async () => {
  const { client, rest } = await app()
  const message = 'jukeboxControl does not apply: the Vibes server has no audio output, music plays on your device'
  const xml = await rest('jukeboxControl.view', { action: 'status' })
  expect(xml.status).toBe(200)
  expect(childOf(xml.xml!, 'error').attributes).toEqual({ code: '0', message })
  await expect(client.jukeboxControl({ action: 'status' })).resolves.toMatchObject({ status: 'failed', error: { code: 0, message } })
})
