// A play and a like are the same row whichever door they come by: the web player's tRPC call, the
// REST path (POST /api/playlist/plays, PUT /api/playlist/likes) or an app's /rest scrobble and
// star. For one library track each door gives the same track (key, title, artist, album, length,
// genre, year) and only its own facts differ (source, app, device); none stores the signed media
// link a client may hold. Real built server, real library made with ffmpeg, on either engine.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

let server: TestServer
let admin: string
/** The library track as the web player gets it: a signed `/media/` url, its tags and id. */
let track: { id: string; url: string; title: string; artist: string; album: string; duration: number; genre: string; year: number }

const rows = (sql: string, ...params: string[]) => sqlOn(server, sql, params)

async function appKey(member: Awaited<ReturnType<typeof createMember>>) {
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'DSub', currentPassword: member.password } })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

async function rest(method: string, key: string, params: Record<string, string>, agent = 'okhttp/4.12.0') {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ apiKey: key, c: 'DSub', v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
  const res = await fetch(url, { headers: { 'user-agent': agent } })
  return ((await res.json()) as { 'subsonic-response': { status: string } })['subsonic-response'].status
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  makeTone(path.join(server.mediaRoot, 'Ada/Dawn/1 First Light.mp3'), {
    artist: 'Ada',
    album: 'Dawn',
    genre: 'Jazz',
    year: 1999,
    title: 'First Light',
    seconds: 2,
  })
  admin = await loginAdmin(server.url)
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 200 && (await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning; i++) await Bun.sleep(50)
  const member = await createMember(server.url)
  track = (await api(server.url, 'GET', '/library/search?q=First%20Light', { token: member.token })).body.data.tracks[0]
  expect(track.url).toMatch(/^\/media\/Ada\/Dawn\/1%20First%20Light\.mp3\?.*sig=/)
})

afterAll(async () => {
  await server?.stop()
})

const TRACK_COLUMNS = 'track_url, track_key, title, artist, album, duration, genre, year'
const DOOR_COLUMNS = 'source, client, device_type, CASE WHEN completed THEN 1 ELSE 0 END AS completed'

describe('recording a play', () => {
  test('the web tRPC call, the REST path and a /rest scrobble give the same track row, each with its own source, app and device', async () => {
    const member = await createMember(server.url)
    const key = await appKey(member)
    // What the player sends for this track (src/client/features/player/player-store.ts), the
    // url as it holds it: the REST path takes the signed one a simple client would send.
    const fromPlayer = {
      title: track.title,
      artist: track.artist,
      album: track.album,
      duration: track.duration,
      genre: track.genre,
      year: track.year,
      source: 'direct',
    }
    const viaTrpc = await fetch(`${server.url}/api/trpc/playlist.plays.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}`, 'user-agent': DESKTOP_UA },
      body: JSON.stringify({ json: { ...fromPlayer, trackUrl: track.url.split('?')[0] } }),
    })
    expect(viaTrpc.status).toBe(200)
    const viaRest = await api(server.url, 'POST', '/playlist/plays', {
      token: member.token,
      headers: { 'user-agent': DESKTOP_UA },
      body: { ...fromPlayer, trackUrl: track.url },
    })
    expect(viaRest.status).toBe(201)
    expect(await rest('scrobble', key, { id: track.id })).toBe('ok')

    // The app's scrobble is the last (its time is the server's, after the others), the two web plays are alike.
    const recorded = await rows(`SELECT ${TRACK_COLUMNS}, ${DOOR_COLUMNS} FROM play_events WHERE user_id = ? ORDER BY started_at, source`, member.user.id)
    expect(recorded).toHaveLength(3)
    const expected = {
      track_url: '/media/Ada/Dawn/1%20First%20Light.mp3',
      track_key: '/media/Ada/Dawn/1%20First%20Light.mp3',
      title: 'First Light',
      artist: 'Ada',
      album: 'Dawn',
      duration: track.duration,
      genre: 'Jazz',
      year: 1999,
    }
    for (const row of recorded) expect(row).toMatchObject(expected)
    expect(recorded.map((r) => [r.source, r.client, r.device_type, r.completed])).toEqual([
      ['direct', null, 'desktop', 0],
      ['direct', null, 'desktop', 0],
      ['subsonic', 'DSub', 'mobile', 1],
    ])
  })
})

describe('liking a track', () => {
  test("a /rest star and the web player's like make the same like row", async () => {
    const web = await createMember(server.url)
    const app = await createMember(server.url)
    // The player's heart sends the track's url as it holds it, signed (src/client/features/player/player.tsx).
    const liked = await api(server.url, 'PUT', '/playlist/likes', { token: web.token, body: { title: track.title, liked: true, trackUrl: track.url } })
    expect(liked.status).toBe(200)
    expect(await rest('star', await appKey(app), { id: track.id })).toBe('ok')

    const likeOf = (userId: string) => rows('SELECT track_key, track_url, CASE WHEN liked THEN 1 ELSE 0 END AS liked FROM likes WHERE user_id = ?', userId)
    expect(await likeOf(web.user.id)).toEqual([{ track_key: 'First Light', track_url: '/media/Ada/Dawn/1%20First%20Light.mp3', liked: 1 }])
    expect(await likeOf(app.user.id)).toEqual(await likeOf(web.user.id))
  })
})

describe('a play sent late', () => {
  test("the web player's play queued offline keeps the time it started; an implausible time is the server's", async () => {
    const member = await createMember(server.url)
    const hourAgo = Date.now() - 3_600_000
    const send = (startedAt: number) =>
      api(server.url, 'POST', '/playlist/plays', { token: member.token, body: { trackUrl: track.url, title: `at ${startedAt}`, duration: 2, startedAt } })
    expect((await send(hourAgo)).status).toBe(201)
    const before = Date.now()
    expect((await send(Date.now() + 86_400_000)).status).toBe(201)
    expect((await send(Date.now() - 30 * 86_400_000)).status).toBe(201)
    const started = (await rows('SELECT title, started_at FROM play_events WHERE user_id = ? ORDER BY started_at', member.user.id)).map((r) =>
      Number(r.started_at),
    )
    expect(started[0]).toBe(hourAgo)
    for (const at of started.slice(1)) expect(at).toBeGreaterThanOrEqual(before)
  })
})
