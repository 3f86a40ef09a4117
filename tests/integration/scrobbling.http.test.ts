// Scrobbling over the real built server, with loopback stand-ins for ListenBrainz and Last.fm that
// check every field and signature (tests/helpers/scrobble-services.ts): a member connects both
// (ListenBrainz by token, Last.fm through its auth page), and plays from the web player's API and
// from an app's /rest scrobble arrive as "now playing" and as listens by each service's rules. A
// service down for a while (503, then refusing connections, across a server restart) gets every
// listen exactly once when it is back; disconnecting stops the sending; the database file holds no
// token or session key in plain text.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { databaseAtRest, sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { LastfmStandIn, ListenBrainzStandIn } from '../helpers/scrobble-services'
import { startServer, type TestServer } from '../helpers/server'

const lb = new ListenBrainzStandIn()
const lastfm = new LastfmStandIn()
let server: TestServer
let env: Record<string, string>
let admin: string
/** The folders of the server that was killed, kept for the one that replaced it. */
let restarted: { dataDir: string; mediaRoot: string } | null = null
type Track = { id: string; url: string; title: string; artist: string; album: string; duration: number }
let long: Track
let short: Track

// Non-ASCII in the tags: the Last.fm signature is an md5 of the UTF-8 text.
const LONG = { title: 'Première Lumière', artist: 'Ada & Les Ondes', album: 'Dawn — Vol. 1', seconds: 40 }
const SHORT = { title: 'Brief Spark', artist: 'Ada & Les Ondes', album: 'Dawn — Vol. 1', seconds: 20 }

async function until<T>(what: string, probe: () => T | false | Promise<T | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await Bun.sleep(50)
  }
}

async function boot(reuse?: { dataDir: string; mediaRoot: string }) {
  server = await startServer(env, reuse)
  admin = await loginAdmin(server.url)
  // The scan at start-up: the library's songs are found once it is done.
  await until('the start-up scan', async () => !(await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning)
}

type Member = Awaited<ReturnType<typeof createMember>>

async function connectListenBrainz(member: Member) {
  const token = crypto.randomUUID()
  lb.tokens.set(token, `lb-${member.username}`)
  const res = await api(server.url, 'POST', '/user/scrobbling/listenbrainz', { token: member.token, body: { token } })
  expect(res.body).toMatchObject({ data: { service: 'listenbrainz' } })
  expect(res.body.data).toEqual({ service: 'listenbrainz', account: `lb-${member.username}` })
  return token
}

async function connectLastfm(member: Member) {
  const start = await api(server.url, 'POST', '/user/scrobbling/lastfm/start', { token: member.token })
  expect(start.status).toBe(200)
  lastfm.nextAccount = `fm-${member.username}`
  // The member's browser goes to the auth page, allows access and is sent back to /profile.
  const page = await fetch(start.body.data.url, { redirect: 'manual' })
  expect(page.status).toBe(302)
  const back = new URL(page.headers.get('location') as string)
  expect(back.pathname).toBe('/profile')
  const input = { token: back.searchParams.get('token'), state: back.searchParams.get('lastfm') }
  const done = await api(server.url, 'POST', '/user/scrobbling/lastfm', { token: member.token, body: input })
  expect(done.status).toBe(200)
  expect(done.body.data).toEqual({ service: 'lastfm', account: `fm-${member.username}` })
}

async function status(member: Member) {
  const res = await api(server.url, 'GET', '/user/scrobbling', { token: member.token })
  expect(res.status).toBe(200)
  return res.body.data as {
    lastfmAvailable: boolean
    connections: { service: string; account: string }[]
    submissions: { service: string; kind: string; title: string; status: string; attempts: number; lastError: string | null }[]
  }
}

/** A web play as the player records it: started, then its time listened reported. */
async function webPlay(member: Member, track: Track, listened: number) {
  const created = await api(server.url, 'POST', '/playlist/plays', {
    token: member.token,
    body: { trackUrl: track.url, title: track.title, artist: track.artist, album: track.album, duration: track.duration, source: 'direct' },
  })
  expect(created.status).toBe(201)
  const id = created.body.data.playEventId as string
  const updated = await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: member.token, body: { listenDuration: listened } })
  expect(updated.status).toBe(200)
  return id
}

async function appKey(member: Member) {
  const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'DSub', currentPassword: member.password } })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

async function restScrobble(key: string, track: Track, timeMs: number) {
  const url = new URL(`${server.url}/rest/scrobble`)
  for (const [k, v] of Object.entries({ apiKey: key, c: 'DSub', v: '1.16.1', f: 'json', id: track.id, time: String(timeMs), submission: 'true' }))
    url.searchParams.set(k, v)
  const body = (await (await fetch(url)).json()) as { 'subsonic-response': { status: string } }
  expect(body['subsonic-response']).toMatchObject({ status: 'ok' })
}

const listensOf = (user: string) => lb.listens.filter((l) => l.user === user)
const scrobblesOf = (account: string) => lastfm.scrobbles.filter((s) => s.account === account)

beforeAll(async () => {
  lb.start()
  lastfm.start()
  env = {
    ...adminEnv,
    LISTENBRAINZ_API_URL: lb.url,
    LASTFM_API_KEY: lastfm.apiKey,
    LASTFM_API_SECRET: lastfm.secret,
    LASTFM_API_URL: lastfm.url,
    LASTFM_AUTH_URL: `${lastfm.url}/api/auth/`,
    SCROBBLE_RETRY_SECONDS: '0.2',
  }
  await boot()
  makeTone(path.join(server.mediaRoot, 'Ada/Dawn/1 Premiere.mp3'), LONG)
  makeTone(path.join(server.mediaRoot, 'Ada/Dawn/2 Brief.mp3'), SHORT)
  await scanLibraryNow(server.url, admin)
  const member = await createMember(server.url)
  const find = async (q: string) =>
    (await api(server.url, 'GET', `/library/search?q=${encodeURIComponent(q)}`, { token: member.token })).body.data.tracks[0] as Track
  long = await find('Première')
  short = await find('Brief Spark')
  expect(Math.round(long.duration)).toBe(40)
  expect(Math.round(short.duration)).toBe(20)
})

afterEach(() => {
  // A test that failed midway leaves the services up for the next one.
  lb.mode = 'up'
  lastfm.mode = 'up'
  // Every request Vibes made had every field right and (Last.fm) a matching signature.
  expect(lb.problems).toEqual([])
  expect(lastfm.problems).toEqual([])
})

afterAll(async () => {
  await server?.stop()
  // A server started on a kept DATA_DIR leaves it; this file made it.
  if (restarted) for (const dir of Object.values(restarted)) rmSync(dir, { recursive: true, force: true })
  await lb.stop()
  await lastfm.stop()
})

describe('connecting', () => {
  test('a ListenBrainz token is checked with ListenBrainz; a refused one is a 400 naming it, and the answer never holds the token', async () => {
    const member = await createMember(server.url)
    const refused = await api(server.url, 'POST', '/user/scrobbling/listenbrainz', { token: member.token, body: { token: crypto.randomUUID() } })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('ListenBrainz did not accept this token')
    const token = await connectListenBrainz(member)
    const now = await status(member)
    expect(now.lastfmAvailable).toBe(true)
    expect(now.connections).toEqual([expect.objectContaining({ service: 'listenbrainz', account: `lb-${member.username}` })])
    expect(JSON.stringify(now)).not.toContain(token)
  })

  test("Last.fm through its auth page; a state that is not this member's is refused and nothing is connected", async () => {
    const member = await createMember(server.url)
    const other = await createMember(server.url)
    const start = await api(server.url, 'POST', '/user/scrobbling/lastfm/start', { token: member.token })
    const authPage = new URL(start.body.data.url)
    expect(`${authPage.origin}${authPage.pathname}`).toBe(`${lastfm.url}/api/auth/`)
    expect(authPage.searchParams.get('api_key')).toBe(lastfm.apiKey)
    const back = new URL((await fetch(authPage, { redirect: 'manual' })).headers.get('location') as string)
    const stolen = await api(server.url, 'POST', '/user/scrobbling/lastfm', {
      token: other.token,
      body: { token: back.searchParams.get('token'), state: back.searchParams.get('lastfm') },
    })
    expect(stolen.status).toBe(400)
    expect(JSON.stringify(stolen.body)).toContain('This Last.fm sign-in link has expired or was not started here')
    expect((await status(other)).connections).toEqual([])
    await connectLastfm(member)
    expect((await status(member)).connections.map((c) => c.service)).toEqual(['lastfm'])
  })
})

describe('what is sent', () => {
  test('a web play: "now playing" at once, then one listen each once half of it was heard, with the track and start time', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const before = Math.floor(Date.now() / 1000)
    const id = await webPlay(member, long, 21)
    // Later reports of the same play do not send it again.
    expect((await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: member.token, body: { listenDuration: 40, completed: true } })).status).toBe(200)
    const lbUser = `lb-${member.username}`
    const fmUser = `fm-${member.username}`
    await until('the listen at both', () => listensOf(lbUser).length === 1 && scrobblesOf(fmUser).length === 1)
    await until('now playing at both', () => lb.nowPlaying.some((l) => l.user === lbUser) && lastfm.nowPlaying.some((s) => s.account === fmUser))
    const track = { artist: LONG.artist, track: LONG.title, album: LONG.album }
    expect(lb.nowPlaying.filter((l) => l.user === lbUser)).toEqual([
      { user: lbUser, ...track, durationMs: Math.round(long.duration * 1000), listenedAt: null, listenType: 'playing_now' },
    ])
    const [listen] = listensOf(lbUser)
    expect(listen).toMatchObject({ ...track, durationMs: Math.round(long.duration * 1000), listenType: 'single' })
    expect(listen.listenedAt).toBeGreaterThanOrEqual(before)
    expect(listen.listenedAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000))
    expect(lastfm.nowPlaying.filter((s) => s.account === fmUser)).toEqual([
      expect.objectContaining({ method: 'track.updateNowPlaying', ...track, duration: Math.round(long.duration) }),
    ])
    expect(scrobblesOf(fmUser)).toEqual([
      expect.objectContaining({ method: 'track.scrobble', ...track, duration: Math.round(long.duration), timestamp: listen.listenedAt }),
    ])
    const sent = (await status(member)).submissions
    expect(
      sent
        .filter((s) => s.kind === 'listen')
        .map((s) => [s.service, s.title, s.status])
        .sort(),
    ).toEqual([
      ['lastfm', LONG.title, 'sent'],
      ['listenbrainz', LONG.title, 'sent'],
    ])
  })

  test("an app's /rest scrobble arrives as a listen at its own time", async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const at = Date.now() - 3600_000
    await restScrobble(await appKey(member), long, at)
    await until('the listen at both', () => listensOf(`lb-${member.username}`).length === 1 && scrobblesOf(`fm-${member.username}`).length === 1)
    const seconds = Math.floor(at / 1000)
    expect(listensOf(`lb-${member.username}`)).toEqual([
      expect.objectContaining({ artist: LONG.artist, track: LONG.title, album: LONG.album, listenedAt: seconds, listenType: 'single' }),
    ])
    expect(scrobblesOf(`fm-${member.username}`)).toEqual([expect.objectContaining({ artist: LONG.artist, track: LONG.title, timestamp: seconds })])
    // A play reported once it was over is no "now playing".
    expect(lb.nowPlaying.filter((l) => l.user === `lb-${member.username}`)).toEqual([])
  })

  test('an app\'s "now playing" (reportPlayback starting, scrobble with submission=false) goes to both as "now playing" only', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const key = await appKey(member)
    const call = async (method: string, params: Record<string, string>) => {
      const url = new URL(`${server.url}/rest/${method}`)
      for (const [k, v] of Object.entries({ apiKey: key, v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
      expect(((await (await fetch(url)).json()) as { 'subsonic-response': object })['subsonic-response']).toMatchObject({ status: 'ok' })
    }
    const lbUser = `lb-${member.username}`
    const fmUser = `fm-${member.username}`
    const arrived = (n: number) => () =>
      lb.nowPlaying.filter((l) => l.user === lbUser).length >= n && lastfm.nowPlaying.filter((s) => s.account === fmUser).length >= n
    await call('reportPlayback', { c: 'Feishin', mediaId: long.id, mediaType: 'song', state: 'starting', positionMs: '0' })
    // Waited for: of two "now playing" waiting together, only the latest is worth sending.
    await until('the first at both', arrived(1))
    await call('scrobble', { c: 'DSub', id: short.id, submission: 'false' })
    // The same song again from the same app is still the one "now playing".
    await call('scrobble', { c: 'DSub', id: short.id, submission: 'false' })
    await until('both at both', arrived(2))
    await until('every submission settled', async () => (await status(member)).submissions.every((s) => s.status !== 'queued'))
    expect(lb.nowPlaying.filter((l) => l.user === lbUser).map((l) => [l.track, l.album, l.listenType])).toEqual([
      [LONG.title, LONG.album, 'playing_now'],
      [SHORT.title, SHORT.album, 'playing_now'],
    ])
    expect(lastfm.nowPlaying.filter((s) => s.account === fmUser).map((s) => [s.track, s.duration])).toEqual([
      [LONG.title, Math.round(long.duration)],
      [SHORT.title, Math.round(short.duration)],
    ])
    expect(listensOf(lbUser)).toEqual([])
    expect(scrobblesOf(fmUser)).toEqual([])
  })

  test('short plays are not scrobbled: under half heard goes nowhere; a 20 s track heard through goes to ListenBrainz, not to Last.fm (30 s at least)', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    await webPlay(member, long, 19)
    await webPlay(member, short, 20)
    // A listen that counts everywhere, queued after the others: once it is in, they were weighed.
    await webPlay(member, long, 40)
    const lbUser = `lb-${member.username}`
    const fmUser = `fm-${member.username}`
    await until('the last listen at both', () => listensOf(lbUser).length >= 2 && scrobblesOf(fmUser).length >= 1)
    await until('every submission settled', async () => (await status(member)).submissions.every((s) => s.status !== 'queued'))
    expect(listensOf(lbUser).map((l) => l.track)).toEqual([SHORT.title, LONG.title])
    expect(scrobblesOf(fmUser).map((s) => s.track)).toEqual([LONG.title])
    const listens = (await status(member)).submissions.filter((s) => s.kind === 'listen')
    expect(listens.map((s) => `${s.service} ${s.title}`).sort()).toEqual(
      [`lastfm ${LONG.title}`, `listenbrainz ${LONG.title}`, `listenbrainz ${SHORT.title}`].sort(),
    )
  })
})

describe('when a service is down', () => {
  test('answering 503 for a while: retried with backoff, shown on /profile, and every listen arrives exactly once when it is back', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const key = await appKey(member)
    lb.mode = 'down'
    lastfm.mode = 'down'
    const refusedBefore = { lb: lb.refused, lastfm: lastfm.refused }
    const base = Date.now() - 600_000
    for (let i = 0; i < 3; i++) await restScrobble(key, long, base + i * 60_000)
    // Tried and refused more than once each: the sender retries.
    await until('retries against the 503s', () => lb.refused >= refusedBefore.lb + 2 && lastfm.refused >= refusedBefore.lastfm + 2)
    const waiting = await until('each listen tried', async () => {
      const rows = (await status(member)).submissions
      return rows.length === 6 && rows.every((s) => s.attempts >= 1) && rows
    })
    expect(waiting.every((s) => s.status === 'queued')).toBe(true)
    for (const s of waiting) expect(s.lastError).toContain(s.service === 'listenbrainz' ? 'ListenBrainz answered 503' : 'Last.fm error 16')
    lb.mode = 'up'
    lastfm.mode = 'up'
    const lbUser = `lb-${member.username}`
    const fmUser = `fm-${member.username}`
    // The first try after the outage waits out its backoff, which doubles with each refusal: on a loaded machine more pile up.
    await until('every submission sent', async () => (await status(member)).submissions.every((s) => s.status === 'sent'), 45_000)
    // Exactly once each, in the order they were played.
    const times = [0, 1, 2].map((i) => Math.floor((base + i * 60_000) / 1000))
    expect(listensOf(lbUser).map((l) => l.listenedAt)).toEqual(times)
    expect(scrobblesOf(fmUser).map((s) => s.timestamp)).toEqual(times)
  }, 60_000)

  test('a listen played earlier but due later holds back the ones played after it: they arrive in the order played', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    const key = await appKey(member)
    lb.mode = 'down'
    const base = Date.now() - 1_200_000
    for (let i = 0; i < 3; i++) await restScrobble(key, long, base + i * 60_000)
    await until('each listen refused', async () => {
      const rows = (await status(member)).submissions
      return rows.length === 3 && rows.every((s) => s.attempts >= 1)
    })
    // The first listen backs off 3 s longer than the others (as after more refusals), so the others are due first.
    const [{ id: userId }] = await sqlOn<{ id: string }>(server, 'SELECT id FROM users WHERE username = ?', [member.username])
    await sqlOn(
      server,
      'UPDATE scrobble_queue SET next_attempt_at = ? WHERE user_id = ? AND played_at = (SELECT min(played_at) FROM scrobble_queue WHERE user_id = ?)',
      [Date.now() + 3000, userId, userId],
    )
    lb.mode = 'up'
    await until('every listen sent', async () => (await status(member)).submissions.every((s) => s.status === 'sent'), 20_000)
    const times = [0, 1, 2].map((i) => Math.floor((base + i * 60_000) / 1000))
    expect(listensOf(`lb-${member.username}`).map((l) => l.listenedAt)).toEqual(times)
  }, 45_000)

  test('refusing connections, across a crash of Vibes: the queue is kept on disk and sent exactly once when the services are back', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const key = await appKey(member)
    await lb.stop()
    await lastfm.stop()
    const base = Date.now() - 900_000
    for (let i = 0; i < 3; i++) await restScrobble(key, long, base + i * 60_000)
    await until('a refused connection noted for both', async () => {
      const rows = (await status(member)).submissions
      return ['listenbrainz', 'lastfm'].every((service) =>
        rows.some((s) => s.service === service && s.status === 'queued' && s.lastError?.includes('could not be reached')),
      )
    })
    // Killed outright, as a crash would: the queue is in the database, not in the process.
    const { dataDir, mediaRoot } = server
    await server.kill9()
    restarted = { dataDir, mediaRoot }
    lb.start()
    lastfm.start()
    await boot({ dataDir, mediaRoot })
    const lbUser = `lb-${member.username}`
    const fmUser = `fm-${member.username}`
    // A row a stopped sender held is let go within 30 s.
    await until('every submission sent', async () => (await status(member)).submissions.every((s) => s.status === 'sent'), 45_000)
    const times = [0, 1, 2].map((i) => Math.floor((base + i * 60_000) / 1000))
    expect(listensOf(lbUser).map((l) => l.listenedAt)).toEqual(times)
    expect(scrobblesOf(fmUser).map((s) => s.timestamp)).toEqual(times)
    // A crash in the middle of a send leaves its rows claimed for 30 s: longer than a test's usual limit.
  }, 60_000)
})

describe('disconnecting', () => {
  test('stops the sending, what was still queued included; the other service goes on', async () => {
    const member = await createMember(server.url)
    await connectListenBrainz(member)
    await connectLastfm(member)
    const key = await appKey(member)
    lb.mode = 'down'
    await restScrobble(key, long, Date.now() - 120_000)
    await until('the queued listen refused once', async () => (await status(member)).submissions.some((s) => s.service === 'listenbrainz' && s.attempts >= 1))
    const gone = await api(server.url, 'DELETE', '/user/scrobbling/listenbrainz', { token: member.token })
    expect(gone.status).toBe(200)
    lb.mode = 'up'
    await restScrobble(key, long, Date.now() - 60_000)
    const fmUser = `fm-${member.username}`
    await until('both listens at Last.fm', () => scrobblesOf(fmUser).length === 2)
    await until('nothing left queued', async () => (await status(member)).submissions.every((s) => s.status !== 'queued'))
    expect(listensOf(`lb-${member.username}`)).toEqual([])
    const now = await status(member)
    expect(now.connections.map((c) => c.service)).toEqual(['lastfm'])
    expect(now.submissions.filter((s) => s.service === 'listenbrainz').map((s) => s.status)).toEqual(['cancelled'])
    expect((await api(server.url, 'DELETE', '/user/scrobbling/spotify', { token: member.token })).status).toBe(400)
  })
})

describe('credentials at rest', () => {
  test('the database holds neither the ListenBrainz token nor the Last.fm session key in plain text', async () => {
    const member = await createMember(server.url)
    const token = await connectListenBrainz(member)
    await connectLastfm(member)
    const sessionKey = [...lastfm.sessions].find(([, account]) => account === `fm-${member.username}`)?.[0] as string
    expect(sessionKey).toBeTruthy()
    const bytes = await databaseAtRest(server)
    // The connection is there (the account names are stored as such)...
    expect(bytes).toContain(`lb-${member.username}`)
    // ...but not what opens it.
    expect(bytes).not.toContain(token)
    expect(bytes).not.toContain(sessionKey)
  })
})
