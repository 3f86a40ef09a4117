// Listening events, likes and promotions over real HTTP against the built server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.stop()
})

// One row of the server's database, either engine (flags read as 0 or 1 on both).
async function readRow(sql: string, ...params: string[]) {
  const [row] = await sqlOn(server, sql, params)
  return row ?? null
}

const play = {
  trackUrl: 'https://nas.example.com/music/Jazz/So%20What.mp3',
  title: 'So What',
  duration: 545.2,
  genre: 'Jazz',
  artist: 'Miles Davis',
  album: 'Kind of Blue',
  year: 1959,
  source: 'playlist',
  playlistId: 'remote',
  previousTrack: 'https://nas.example.com/music/Jazz/Intro.mp3',
  nextTrack: 'https://nas.example.com/music/Jazz/Freddie.mp3',
  sessionId: 'session_1714000000000_abc123xyz',
  sessionPosition: 2,
  networkType: 'wifi',
}

describe('play events', () => {
  test('a member records a play (201) with server-side device type and times, then updates it', async () => {
    const m = await createMember(server.url)
    const before = Date.now()
    const created = await api(server.url, 'POST', '/playlist/plays', {
      token: m.token,
      body: { ...play, deviceType: 'smart-tv' },
      headers: { 'user-agent': PHONE_UA },
    })
    expect(created.status).toBe(201)
    const id = created.body.data.playEventId as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)

    const row = (await readRow('SELECT * FROM play_events WHERE id = ?', id))!
    expect(row).toMatchObject({
      user_id: m.user.id,
      track_url: play.trackUrl,
      title: 'So What',
      duration: 545.2,
      device_type: 'mobile', // from the User-Agent, not the client's claim
      genre: 'Jazz',
      artist: 'Miles Davis',
      album: 'Kind of Blue',
      year: 1959,
      source: 'playlist',
      playlist_id: 'remote',
      previous_track: play.previousTrack,
      next_track: play.nextTrack,
      session_id: play.sessionId,
      session_position: 2,
      network_type: 'wifi',
      completed: 0,
      skipped: 0,
      country: null,
    })
    expect(Number(row.started_at)).toBeGreaterThanOrEqual(before)

    const beforeUpdate = Date.now()
    const updated = await api(server.url, 'PUT', `/playlist/plays/${id}`, {
      token: m.token,
      body: {
        listenDuration: 120.5,
        completed: false,
        skipped: true,
        skipTime: 121,
        liked: true,
        shared: true,
        repeated: false,
        bufferCount: 3,
        qualityDrops: 1,
        endedAt: Date.now() + 3_600_000,
      },
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data.playEventId).toBe(id)
    const after = (await readRow('SELECT * FROM play_events WHERE id = ?', id))!
    expect(after).toMatchObject({ listen_duration: 120.5, skipped: 1, skip_time: 121, liked: 1, shared: 1, buffer_count: 3, quality_drops: 1 })
    const afterUpdate = Date.now()
    // The update is stamped with the server's time of the update, and the answer says which.
    expect(Number(after.updated_at)).toBeGreaterThanOrEqual(beforeUpdate)
    expect(Number(after.updated_at)).toBeLessThanOrEqual(afterUpdate)
    expect(updated.body.data.updatedAt).toBe(new Date(Number(after.updated_at)).toISOString())
    // An end time an hour ahead is stored, clamped to the server's clock at the update.
    expect(after.ended_at).not.toBeNull()
    expect(Number(after.ended_at)).toBe(Number(after.updated_at))
  })

  test('nobody updates another member’s play event (404), and unknown ids are 404 too', async () => {
    const owner = await createMember(server.url)
    const other = await createMember(server.url)
    const { body } = await api(server.url, 'POST', '/playlist/plays', { token: owner.token, body: play })
    const id = body.data.playEventId
    const stolen = await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: other.token, body: { completed: true } })
    expect(stolen).toMatchObject({ status: 404, body: { success: false, error: 'Play event not found' } })
    expect(await readRow('SELECT completed FROM play_events WHERE id = ?', id)).toEqual({ completed: 0 })
    expect((await api(server.url, 'PUT', '/playlist/plays/no-such-id', { token: owner.token, body: { completed: true } })).status).toBe(404)
  })

  test('signed-out calls are 401 "No authentication token found. Please log in again.", the likes list 401 "Authentication required"', async () => {
    for (const [method, p, body, error] of [
      ['POST', '/playlist/plays', play, 'No authentication token found. Please log in again.'],
      ['PUT', '/playlist/plays/x', { completed: true }, 'No authentication token found. Please log in again.'],
      ['POST', '/playlist/interactions', { trackId: 't', interactionType: 'like' }, 'No authentication token found. Please log in again.'],
      ['GET', '/playlist/likes', undefined, 'Authentication required'],
      ['PUT', '/playlist/likes', { title: 'x', liked: true }, 'No authentication token found. Please log in again.'],
    ] as const) {
      const res = await api(server.url, method, p, { body })
      expect({ method, p, status: res.status, body: res.body }).toEqual({ method, p, status: 401, body: { success: false, error } })
    }
    const bad = await api(server.url, 'GET', '/playlist/likes', { token: 'a.b.c' })
    expect(bad).toMatchObject({ status: 401, body: { error: 'Authentication token is invalid or expired' } })
  })

  test('bad input is a 400 naming the field, and nothing is stored', async () => {
    const m = await createMember(server.url)
    const count = async () => Number((await readRow('SELECT count(*) AS n FROM play_events WHERE user_id = ?', m.user.id))!.n)
    const cases: Array<[unknown, string]> = [
      [{ ...play, source: 'jukebox' }, 'Source must be one of: repeat, shuffle, direct, playlist, radio, podcast'],
      [{ ...play, networkType: '5g' }, 'Network type must be one of: 4g, 3g, 2g, ethernet, wifi, unknown'],
      [{ ...play, duration: -4 }, 'Duration must be at least 0'],
      [{ ...play, duration: '12' }, 'Duration must be a number'],
      [{ ...play, title: '' }, 'Title is required'],
      [{ ...play, trackUrl: 'x'.repeat(3000) }, 'Track URL must be at most 2048 characters'],
      [{ ...play, sessionId: 'session_x' }, 'Session id must look like session_{timestamp}_{random}'],
      [{ ...play, sessionPosition: 1.5 }, 'Session position must be a whole number'],
      [{ ...play, year: 99999 }, 'Year must be between 1000 and 2999'],
      [{ ...play, userId: 'someone-else' }, 'Unrecognized key: "userId"'],
    ]
    for (const [body, error] of cases) {
      const res = await api(server.url, 'POST', '/playlist/plays', { token: m.token, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ success: false, error })
    }
    expect(await count()).toBe(0)
    const { body } = await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: play })
    const id = body.data.playEventId
    for (const [update, error] of [
      [{ listenDuration: -1 }, 'Listen duration must be at least 0'],
      [{ bufferCount: 2.5 }, 'Buffer count must be a whole number'],
      [{ completed: 'yes' }, 'Completed must be true or false'],
      [{ endedAt: 'tomorrow' }, 'Ended at must be a valid date'],
      [{ startedAt: 0 }, 'Unrecognized key: "startedAt"'],
    ] as const) {
      const res = await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: update })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(error)
    }
    const raw = await api(server.url, 'POST', '/playlist/plays', { token: m.token, raw: '{"trackUrl": 1e400}' })
    expect(raw.status).toBe(400)
  })
})

describe('hostile clients', () => {
  const base = { trackUrl: 'https://nas.example.com/a.mp3', title: 'A' }

  test('bodies that are not objects, malformed JSON and oversized bodies are 4xx envelopes', async () => {
    const m = await createMember(server.url)
    for (const raw of ['[{"trackUrl":"u","title":"t"}]', 'null', '"text"', '42']) {
      expect(await api(server.url, 'POST', '/playlist/plays', { token: m.token, raw })).toMatchObject({
        status: 400,
        body: { success: false, error: 'Request body must be a JSON object' },
      })
    }
    expect(await api(server.url, 'POST', '/playlist/interactions', { token: m.token, raw: '{"trackId":' })).toMatchObject({
      status: 400,
      body: { error: 'Malformed JSON body' },
    })
    expect(await api(server.url, 'PUT', '/playlist/plays/x', { token: m.token, raw: '[]' })).toMatchObject({ status: 400 })
    const huge = await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: { ...base, title: 'x'.repeat(2_000_000) } })
    expect(huge).toMatchObject({ status: 413, body: { success: false, error: 'Request body too large' } })
    for (const [body, error] of [
      [{ ...base, artist: 'a'.repeat(301) }, 'Artist must be at most 300 characters'],
      [{ ...base, title: { $gt: '' } }, 'Title must be text'],
      [{ ...base, duration: 'NaN' }, 'Duration must be a number'],
      [{ ...base, duration: 1e12 }, 'Duration is too large'],
      [{ ...base, sessionPosition: -1 }, 'Session position must be at least 0'],
      [{ ...base, deviceType: 'toaster' }, 'Device type must be one of: smart-tv, speaker, mobile, tablet, desktop, unknown'],
    ] as const) {
      expect(await api(server.url, 'POST', '/playlist/plays', { token: m.token, body })).toMatchObject({ status: 400, body: { success: false, error } })
    }
    expect(await api(server.url, 'POST', '/playlist/plays', { token: m.token, raw: '{"trackUrl":"u","title":"t","__proto__":{"admin":true}}' })).toMatchObject({
      status: 400,
      body: { error: 'Unrecognized key: "__proto__"' },
    })
    for (const timestamp of [-1, 1e300, 'yesterday']) {
      expect(
        await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: 't', interactionType: 'like', timestamp } }),
      ).toMatchObject({ status: 400, body: { error: 'Timestamp must be a valid date' } })
    }
    expect(Number((await readRow('SELECT count(*) AS n FROM play_events WHERE user_id = ?', m.user.id))!.n)).toBe(0)
  })

  test('play event ids: the path wins over the body, any unknown id is a 404, absurd ones a 400', async () => {
    const m = await createMember(server.url)
    const other = await createMember(server.url)
    const mine = (await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: base })).body.data.playEventId as string
    const theirs = (await api(server.url, 'POST', '/playlist/plays', { token: other.token, body: base })).body.data.playEventId as string
    // A body naming someone else's event cannot redirect the update.
    const res = await api(server.url, 'PUT', `/playlist/plays/${mine}`, { token: m.token, body: { playEventId: theirs, completed: true } })
    expect(res).toMatchObject({ status: 200, body: { data: { playEventId: mine } } })
    expect(await readRow('SELECT completed FROM play_events WHERE id = ?', theirs)).toEqual({ completed: 0 })
    expect(await api(server.url, 'PUT', `/playlist/plays/${'a'.repeat(100)}`, { token: m.token, body: { completed: true } })).toMatchObject({
      status: 404,
      body: { error: 'Play event not found' },
    })
    expect(await api(server.url, 'PUT', `/playlist/plays/${encodeURIComponent("' OR 1=1 --")}`, { token: m.token, body: { completed: true } })).toMatchObject({
      status: 404,
    })
    expect(await api(server.url, 'PUT', `/playlist/plays/${'a'.repeat(300)}`, { token: m.token, body: { completed: true } })).toMatchObject({
      status: 400,
      body: { error: 'Play event id is too long' },
    })
    expect(Number((await readRow('SELECT count(*) AS n FROM play_events WHERE completed AND user_id = ?', other.user.id))!.n)).toBe(0)
  })

  test('cookie sessions need the XSRF header for writes; reads work without it', async () => {
    const m = await createMember(server.url)
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: m.email, password: m.password }),
    })
    const pairs = login.headers.getSetCookie().map((c) => c.split(';')[0])
    const cookie = pairs.join('; ')
    const xsrf = pairs.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length)
    for (const headers of [{ cookie }, { cookie, 'x-xsrf-token': 'forged' }] as Record<string, string>[]) {
      expect(await api(server.url, 'POST', '/playlist/plays', { body: base, headers })).toMatchObject({
        status: 401,
        body: { error: 'No authentication token found. Please log in again.' },
      })
      expect(await api(server.url, 'PUT', '/playlist/likes', { body: { title: 'A', liked: true }, headers })).toMatchObject({ status: 401 })
    }
    expect(Number((await readRow('SELECT count(*) AS n FROM play_events WHERE user_id = ?', m.user.id))!.n)).toBe(0)
    expect((await api(server.url, 'POST', '/playlist/plays', { body: base, headers: { cookie, 'x-xsrf-token': xsrf } })).status).toBe(201)
    expect(await api(server.url, 'GET', '/playlist/likes', { headers: { cookie } })).toMatchObject({ status: 200, body: { data: { likes: {} } } })
  })

  test('the tRPC procedures validate the same way and keep ownership', async () => {
    const m = await createMember(server.url)
    const other = await createMember(server.url)
    const id = (await api(server.url, 'POST', '/playlist/plays', { token: m.token, body: base })).body.data.playEventId as string
    const call = async (proc: string, token: string | null, body: unknown) => {
      const res = await fetch(`${server.url}/api/trpc/${proc}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
      const json = (await res.json()) as { error?: { json: { message: string } }; result?: unknown }
      return { status: res.status, message: json.error?.json.message }
    }
    expect(await call('playlist.plays.create', null, { json: base })).toEqual({ status: 401, message: 'No authentication token found. Please log in again.' })
    // superjson can carry NaN and Infinity: both are refused.
    expect(await call('playlist.plays.create', m.token, { json: { ...base, duration: 'NaN' }, meta: { values: { duration: ['number'] } } })).toEqual({
      status: 400,
      message: 'Duration must be a number',
    })
    expect(
      await call('playlist.plays.update', m.token, { json: { playEventId: id, listenDuration: 'Infinity' }, meta: { values: { listenDuration: ['number'] } } }),
    ).toEqual({ status: 400, message: 'Listen duration must be a number' })
    expect(
      await call('playlist.plays.update', m.token, { json: { playEventId: id, bufferCount: '9'.repeat(30) }, meta: { values: { bufferCount: ['bigint'] } } }),
    ).toEqual({ status: 400, message: 'Buffer count must be a number' })
    expect(await call('playlist.plays.update', other.token, { json: { playEventId: id, completed: true } })).toEqual({
      status: 404,
      message: 'Play event not found',
    })
    expect(await call('playlist.interactions.create', m.token, { json: { trackId: 't', interactionType: 'download' } })).toEqual({
      status: 400,
      message: 'Interaction type must be one of: like, share, repeat',
    })
    expect(await call('playlist.likes.set', m.token, { json: { title: '', liked: true } })).toEqual({ status: 400, message: 'Title is required' })
    const viaGet = await fetch(`${server.url}/api/trpc/playlist.plays.create?input=${encodeURIComponent(JSON.stringify({ json: base }))}`, {
      headers: { authorization: `Bearer ${m.token}` },
    })
    expect(viaGet.status).toBe(405)
    expect(await readRow('SELECT completed FROM play_events WHERE id = ?', id)).toEqual({ completed: 0 })
  })
})

describe('interactions and likes', () => {
  test('interactions are stored per user (201) with a client time that cannot be in the future', async () => {
    const m = await createMember(server.url)
    const at = Date.now() - 60_000
    const res = await api(server.url, 'POST', '/playlist/interactions', {
      token: m.token,
      body: { trackId: 'local:Album/01.mp3', interactionType: 'share', timestamp: at },
    })
    expect(res.status).toBe(201)
    const row = (await readRow('SELECT * FROM interactions WHERE id = ?', res.body.data.interactionId))!
    expect(row).toMatchObject({ user_id: m.user.id, track_id: 'local:Album/01.mp3', interaction_type: 'share', timestamp: at })
    const future = await api(server.url, 'POST', '/playlist/interactions', {
      token: m.token,
      body: { trackId: 't', interactionType: 'repeat', timestamp: new Date(Date.now() + 86_400_000).toISOString() },
    })
    expect(Number((await readRow('SELECT timestamp FROM interactions WHERE id = ?', future.body.data.interactionId))!.timestamp)).toBeLessThanOrEqual(
      Date.now(),
    )
    const bad = await api(server.url, 'POST', '/playlist/interactions', { token: m.token, body: { trackId: 't', interactionType: 'download' } })
    expect(bad).toMatchObject({ status: 400, body: { error: 'Interaction type must be one of: like, share, repeat' } })
  })

  test('likes are keyed by title, private to each member, and can be undone', async () => {
    const a = await createMember(server.url)
    const b = await createMember(server.url)
    expect((await api(server.url, 'GET', '/playlist/likes', { token: a.token })).body).toEqual({ success: true, data: { likes: {} } })
    const beforeLike = Date.now()
    const set = await api(server.url, 'PUT', '/playlist/likes', { token: a.token, body: { title: 'So What', liked: true, trackUrl: play.trackUrl } })
    const afterLike = Date.now()
    expect(set.status).toBe(200)
    await api(server.url, 'PUT', '/playlist/likes', { token: a.token, body: { title: 'Blue in Green', liked: true } })
    await api(server.url, 'PUT', '/playlist/likes', { token: a.token, body: { title: 'Blue in Green', liked: false } })
    const mine = await api(server.url, 'GET', '/playlist/likes', { token: a.token })
    const likes = mine.body.data.likes
    // An unlike takes the title off the list.
    expect(Object.keys(likes)).toEqual(['So What'])
    expect(likes['So What'].liked).toBe(true)
    // The time of the like, as the server saw it (the player merges likes by it).
    expect(likes['So What'].timestamp).toBeGreaterThanOrEqual(beforeLike)
    expect(likes['So What'].timestamp).toBeLessThanOrEqual(afterLike)
    expect((await api(server.url, 'GET', '/playlist/likes', { token: b.token })).body.data.likes).toEqual({})
    const bad = await api(server.url, 'PUT', '/playlist/likes', { token: a.token, body: { title: 'x', liked: 'yes' } })
    expect(bad).toMatchObject({ status: 400, body: { error: 'Liked must be true or false' } })
  })
})

describe('promotions', () => {
  test('four stored promotions are seeded once and listed publicly', async () => {
    const first = await api(server.url, 'GET', '/promotions')
    expect(first.status).toBe(200)
    const promos = first.body.data.promotions as Array<Record<string, string>>
    expect(promos).toHaveLength(4)
    for (const p of promos) expect(Object.keys(p).sort()).toEqual(['backgroundColor', 'description', 'id', 'imageUrl', 'linkUrl', 'textColor', 'title'])
    const again = await api(server.url, 'GET', '/promotions')
    expect(again.body.data.promotions.map((p: { id: string }) => p.id)).toEqual(promos.map((p) => p.id))
    expect(Number((await readRow('SELECT count(*) AS n FROM promotions'))!.n)).toBe(4)
    const image = await fetch(server.url + promos[0].imageUrl)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toContain('image/svg+xml')
  })
})
