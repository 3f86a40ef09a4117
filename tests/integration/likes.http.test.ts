// A like is one fact however it arrives: the player's own like call, a
// `like` interaction and a play update with `liked` all show in GET /playlist/likes, and an
// unlike removes it there. Real built server, on either engine.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.stop()
})

type Member = Awaited<ReturnType<typeof createMember>>

const track = { trackUrl: '/media/Jazz/Kind%20of%20Blue/02%20Freddie%20Freeloader.mp3', title: 'Freddie Freeloader', duration: 589, source: 'playlist' }

async function likesOf(m: Member): Promise<Record<string, { liked: boolean; timestamp: number }>> {
  const res = await api(server.url, 'GET', '/playlist/likes', { token: m.token })
  expect(res.status).toBe(200)
  return res.body.data.likes
}

async function startPlay(m: Member, body: Record<string, unknown> = track): Promise<string> {
  const res = await api(server.url, 'POST', '/playlist/plays', { token: m.token, body })
  expect(res.status).toBe(201)
  return res.body.data.playEventId
}

async function count(sql: string, ...params: string[]): Promise<number> {
  const [row] = await sqlOn<{ n: number }>(server, sql, params)
  return Number(row.n)
}

describe('likes from every path land in one place', () => {
  test('a like interaction shows under the title of the track the member is playing, and is still recorded', async () => {
    const m = await createMember(server.url)
    await startPlay(m)
    const before = Date.now()
    const res = await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: track.trackUrl, interactionType: 'like' } })
    expect(res.status).toBe(201)
    const likes = await likesOf(m)
    expect(Object.keys(likes)).toEqual([track.title])
    expect(likes[track.title].liked).toBe(true)
    expect(likes[track.title].timestamp).toBeGreaterThanOrEqual(before)
    expect(await count("SELECT count(*) AS n FROM interactions WHERE user_id = ? AND interaction_type = 'like'", m.user.id)).toBe(1)
  })

  test('a like interaction for a track never played is kept under its track id', async () => {
    const m = await createMember(server.url)
    await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: 'local:Live/01 Intro.mp3', interactionType: 'like' } })
    await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: 'local:Live/02 Set.mp3', interactionType: 'share' } })
    expect(Object.keys(await likesOf(m))).toEqual(['local:Live/01 Intro.mp3'])
  })

  test('a play update with liked: true likes the track; liked: false removes the like', async () => {
    const m = await createMember(server.url)
    const id = await startPlay(m)
    expect((await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { liked: true, listenDuration: 30 } })).status).toBe(200)
    expect((await likesOf(m))[track.title]?.liked).toBe(true)
    // Progress updates that say nothing about the like leave it alone.
    await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { listenDuration: 60 } })
    expect((await likesOf(m))[track.title]?.liked).toBe(true)
    await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { liked: false } })
    expect(await likesOf(m)).toEqual({})
    // The play event keeps what happened during it, for the analytics.
    expect(await count('SELECT CASE WHEN liked THEN 1 ELSE 0 END AS n FROM play_events WHERE id = ?', id)).toBe(0)
  })

  test("the player's like, its play update and its interaction are one like; its unlike removes it", async () => {
    const m = await createMember(server.url)
    const id = await startPlay(m)
    // What the web player sends when the heart is pressed (src/client/features/player/player.tsx).
    await api(server.url, 'PUT', '/playlist/likes', { token: m.token, body: { title: track.title, liked: true, trackUrl: `${track.trackUrl}?exp=1&sig=abc` } })
    await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { liked: true } })
    await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: track.trackUrl, interactionType: 'like' } })
    expect(Object.keys(await likesOf(m))).toEqual([track.title])
    expect(await count('SELECT count(*) AS n FROM likes WHERE user_id = ?', m.user.id)).toBe(1)

    await api(server.url, 'PUT', '/playlist/likes', { token: m.token, body: { title: track.title, liked: false, trackUrl: track.trackUrl } })
    await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { liked: false } })
    expect(await likesOf(m)).toEqual({})
  })

  test("one member's likes never reach another's list, and a play update of someone else's event changes nothing", async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    const id = await startPlay(a)
    expect((await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: b.token, body: { liked: true } })).status).toBe(404)
    await api(server.url, 'POST', '/playlist/interactions', { token: a.token, body: { trackId: track.trackUrl, interactionType: 'like' } })
    expect(await likesOf(b)).toEqual({})
    expect(Object.keys(await likesOf(a))).toEqual([track.title])
  })

  test('a title that is also an object key ("__proto__", "constructor") is listed like any other', async () => {
    const m = await createMember(server.url)
    for (const title of ['__proto__', 'constructor', 'toString']) {
      expect((await api(server.url, 'PUT', '/playlist/likes', { token: m.token, body: { title, liked: true } })).status).toBe(200)
    }
    const res = await api(server.url, 'GET', '/playlist/likes', { token: m.token })
    expect(Object.keys(res.body.data.likes).sort()).toEqual(['__proto__', 'constructor', 'toString'])
    expect(new Map(Object.entries(res.body.data.likes)).get('__proto__')).toMatchObject({ liked: true })
  })
})
