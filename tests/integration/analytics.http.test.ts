// Listening analytics over real HTTP against the built server: play events are recorded the way
// the player records them (POST /api/playlist/plays + PUT updates, several members, devices from
// their User-Agent strings, places from CF-IPCountry/CF-Region/CF-IPCity behind TRUST_PROXY) and
// every figure of the six /api/analytics/* answers is checked exactly.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
const users: Record<'ann' | 'ben' | 'cat', Awaited<ReturnType<typeof createMember>>> = {} as never

const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
const TABLET = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const LA = { 'user-agent': DESKTOP, 'cf-ipcountry': 'US', 'cf-region': 'California', 'cf-ipcity': 'Los Angeles' }
const LONDON = { 'user-agent': PHONE, 'cf-ipcountry': 'GB', 'cf-region': 'England', 'cf-ipcity': 'London' }
const NOWHERE = { 'user-agent': TABLET }

// Two signed URLs of one library file (re-signed every hour) count as one track.
const BLUE_1 = '/media/jazz/blue%20in%20green.mp3?exp=1700000000&sig=AAAA'
const BLUE_2 = '/media/jazz/blue%20in%20green.mp3?exp=1700003600&sig=BBBB'
const SO_WHAT = 'https://nas.example.com/music/So%20What.mp3'
const PARANOID = 'https://nas.example.com/music/Paranoid%20Android.mp3'
const UNTITLED = 'https://nas.example.com/music/track01.mp3'
const S1 = 'session_1714000000000_aaaaaaaaa'
const S2 = 'session_1714000000001_bbbbbbbbb'
const S3 = 'session_1714000000002_ccccccccc'
const PL_A = 'pl-aaaaaaaa-1111'
const PL_B = 'pl-bbbbbbbb-2222'

async function play(token: string, headers: Record<string, string>, body: Record<string, unknown>, update: Record<string, unknown>) {
  const created = await api(server.url, 'POST', '/playlist/plays', { token, headers, body })
  expect(created.status).toBe(201)
  const id = created.body.data.playEventId as string
  const updated = await api(server.url, 'PUT', `/playlist/plays/${id}`, { token, headers, body: update })
  expect(updated.status).toBe(200)
  return id
}

beforeAll(async () => {
  server = await startServer({ ...adminEnv, TRUST_PROXY: 'true' })
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
  users.ann = await createMember(server.url, { username: 'ann' })
  users.ben = await createMember(server.url, { username: 'ben' })
  users.cat = await createMember(server.url, { username: 'cat' })
  const { ann, ben, cat } = users
  // ann, desktop in Los Angeles: a playlist session with a repeat.
  await play(
    ann.token,
    LA,
    { trackUrl: BLUE_1, title: 'Blue in Green', duration: 200, genre: 'Jazz', source: 'playlist', playlistId: PL_A, sessionId: S1 },
    { listenDuration: 200, completed: true, liked: true, bufferCount: 2 },
  )
  await play(
    ann.token,
    LA,
    { trackUrl: SO_WHAT, title: 'So What', duration: 100, genre: 'Jazz', source: 'playlist', playlistId: PL_A, sessionId: S1 },
    { listenDuration: 50, skipped: true, skipTime: 50 },
  )
  await play(
    ann.token,
    LA,
    { trackUrl: BLUE_2, title: 'Blue in Green', duration: 200, genre: 'Jazz', source: 'repeat', sessionId: S1 },
    { listenDuration: 100, repeated: true },
  )
  // ben, phone in London.
  await play(
    ben.token,
    LONDON,
    { trackUrl: PARANOID, title: 'Paranoid Android', duration: 300, genre: 'Rock', source: 'shuffle', sessionId: S2 },
    { listenDuration: 300, completed: true, shared: true, qualityDrops: 1 },
  )
  await play(ben.token, LONDON, { trackUrl: UNTITLED, title: 'track01', duration: 120, source: 'direct' }, { listenDuration: 60 })
  // cat, tablet, no place headers.
  await play(
    cat.token,
    NOWHERE,
    { trackUrl: SO_WHAT, title: 'So What', duration: 100, genre: 'Jazz', source: 'direct', playlistId: PL_B, sessionId: S3 },
    { listenDuration: 100, completed: true },
  )
  // A play ten days ago (inside 14 days, outside 7), and ben a member for a month.
  const old = await play(
    ann.token,
    LA,
    { trackUrl: PARANOID, title: 'Paranoid Android', duration: 300, genre: 'Rock', source: 'direct' },
    { listenDuration: 30 },
  )
  await sqlOn(server, 'UPDATE play_events SET started_at = ? WHERE id = ?', [Date.now() - 10 * 86_400_000, old])
  await sqlOn(server, 'UPDATE users SET created_at = ? WHERE id = ?', [Date.now() - 30 * 86_400_000, ben.user.id])
})
afterAll(async () => {
  await server.stop()
})

const get = (p: string, token = admin) => api(server.url, 'GET', p, { token })

describe('analytics answers', () => {
  test('listening overview: totals, listen ratio, completion, sources and devices', async () => {
    const res = await get('/analytics/listening-overview?days=7')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d.period.days).toBe(7)
    expect(d.overview).toEqual({ totalPlays: 6, uniqueUsers: 3, uniqueTracks: 4, totalListenTime: 810, listenRatio: 79.4, averageSessionLength: 1.7 })
    expect(d.completion).toEqual({ completionRate: 50, skippedTracks: 1 })
    expect(d.sources).toEqual([
      { source: 'direct', count: 2, averageListenDuration: 80 },
      { source: 'playlist', count: 2, averageListenDuration: 125 },
      { source: 'repeat', count: 1, averageListenDuration: 100 },
      { source: 'shuffle', count: 1, averageListenDuration: 300 },
    ])
    expect(d.devices).toEqual([
      { deviceType: 'desktop', count: 3, averageListenDuration: 116.7 },
      { deviceType: 'mobile', count: 2, averageListenDuration: 180 },
      { deviceType: 'tablet', count: 1, averageListenDuration: 100 },
    ])
    expect(d.aggregated.playMetrics).toEqual({ count: 6, totalListenTime: 810, completions: 3, skips: 1 })
  })

  test('the period decides which plays count; the default is 7 days', async () => {
    const day = (await get('/analytics/listening-overview?days=1')).body.data.overview
    const week = (await get('/analytics/listening-overview')).body.data
    const fortnight = (await get('/analytics/listening-overview?days=14')).body.data.overview
    expect(day.totalPlays).toBe(6)
    expect(week.period.days).toBe(7)
    expect(week.overview.totalPlays).toBe(6)
    expect(fortnight).toMatchObject({ totalPlays: 7, uniqueTracks: 4, totalListenTime: 840 })
  })

  test('user behavior: members by plays with listen time, completion %, tracks and likes', async () => {
    const res = await get('/analytics/user-listening-behavior?days=7&limit=20')
    expect(res.status).toBe(200)
    const { ann, ben, cat } = users
    expect(res.body.data.users).toEqual([
      { userId: ann.user.id, username: 'ann', email: ann.email, totalPlays: 3, totalListenTime: 350, completionRate: 33.3, uniqueTracks: 2, likedTracks: 1 },
      { userId: ben.user.id, username: 'ben', email: ben.email, totalPlays: 2, totalListenTime: 360, completionRate: 50, uniqueTracks: 2, likedTracks: 0 },
      { userId: cat.user.id, username: 'cat', email: cat.email, totalPlays: 1, totalListenTime: 100, completionRate: 100, uniqueTracks: 1, likedTracks: 0 },
    ])
    const two = await get('/analytics/user-listening-behavior?days=7&limit=2')
    expect(two.body.data.users.map((u: { username: string }) => u.username)).toEqual(['ann', 'ben'])
  })

  test('patterns: 24 hourly rows (UTC) and genres with their completion', async () => {
    const d = (await get('/analytics/listening-patterns?days=7')).body.data
    expect(d.hourlyPattern.map((h: { hour: number }) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i))
    expect(d.hourlyPattern.reduce((n: number, h: { plays: number }) => n + h.plays, 0)).toBe(6)
    expect(d.genrePattern).toEqual([
      { genre: 'Jazz', plays: 4, averageCompletionRate: 50 },
      { genre: null, plays: 1, averageCompletionRate: 0 },
      { genre: 'Rock', plays: 1, averageCompletionRate: 100 },
    ])
  })

  test('geography from the trusted proxy headers: countries, regions and cities', async () => {
    const d = (await get('/analytics/geographic-listening?days=7')).body.data
    expect(d.countries).toEqual([
      { country: 'US', plays: 3, uniqueUsers: 1 },
      { country: 'GB', plays: 2, uniqueUsers: 1 },
    ])
    expect(d.regions).toEqual([
      { region: 'California', country: 'US', plays: 3, uniqueUsers: 1 },
      { region: 'England', country: 'GB', plays: 2, uniqueUsers: 1 },
    ])
    expect(d.cities).toEqual([
      { city: 'Los Angeles', region: 'California', country: 'US', plays: 3, uniqueUsers: 1 },
      { city: 'London', region: 'England', country: 'GB', plays: 2, uniqueUsers: 1 },
    ])
  })

  test('playlists: plays, users, tracks, completion and listen time per playlist id', async () => {
    const d = (await get('/analytics/playlist-analytics?days=7&limit=15')).body.data
    expect(d.playlists).toEqual([
      {
        playlistId: PL_A,
        name: null,
        owner: null,
        path: null,
        trackCount: null,
        plays: 2,
        uniqueUsers: 1,
        uniqueTracks: 2,
        completionRate: 50,
        totalListenTime: 250,
      },
      {
        playlistId: PL_B,
        name: null,
        owner: null,
        path: null,
        trackCount: null,
        plays: 1,
        uniqueUsers: 1,
        uniqueTracks: 1,
        completionRate: 100,
        totalListenTime: 100,
      },
    ])
  })

  test('engagement: per-user figures, rates, retention (DAU/WAU) and quality', async () => {
    const d = (await get('/analytics/user-engagement?days=7')).body.data
    expect(d.engagement).toEqual({
      totalUsers: 3,
      highEngagementUsers: 0,
      averagePlaysPerUser: 2,
      averageListenTimePerUser: 270,
      likeRate: 16.7,
      shareRate: 16.7,
      repeatRate: 16.7,
      averageActiveDays: 1,
      highEngagementRate: 0,
    })
    // Active today and this week: ann, ben, cat (plays), the admin and the spare member (logins).
    expect(d.retention).toEqual({ retentionRate: 100, newUsersLast7Days: 4, activeUsersLast7Days: 5, returningUsers: 1, newUserRetentionRate: 0 })
    expect(d.quality).toEqual({ bufferRate: 16.7, qualityIssueRate: 16.7, averageBufferCount: 0.33, totalBufferEvents: 2, totalQualityDrops: 1 })
  })
})

describe('analytics input and access', () => {
  const paths = ['listening-overview', 'user-listening-behavior', 'listening-patterns', 'geographic-listening', 'playlist-analytics', 'user-engagement']

  test('days outside 1, 7, 14, 30, 60, 90 is a 400 on every analytics path', async () => {
    for (const p of paths) {
      for (const days of ['5', '0', '91', 'abc', '', '7.5', '-7']) {
        const res = await get(`/analytics/${p}?days=${days}`)
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ success: false, error: 'days must be one of 1, 7, 14, 30, 60, 90' })
      }
      for (const days of [1, 7, 14, 30, 60, 90]) expect((await get(`/analytics/${p}?days=${days}`)).status).toBe(200)
    }
  })

  test('limits are bounded and unknown parameters refused', async () => {
    expect((await get('/analytics/user-listening-behavior?limit=0')).status).toBe(400)
    const big = await get('/analytics/playlist-analytics?limit=101')
    expect(big.status).toBe(400)
    expect(big.body.error).toBe('limit must be between 1 and 100')
    expect((await get('/analytics/listening-overview?days=7&limit=5')).status).toBe(400)
  })

  test('401 without a token, 403 for a member, on every analytics path', async () => {
    for (const p of paths) {
      const anon = await api(server.url, 'GET', `/analytics/${p}?days=7`)
      expect(anon.status).toBe(401)
      expect(anon.body.success).toBe(false)
      const forbidden = await get(`/analytics/${p}?days=7`, member.token)
      expect(forbidden.status).toBe(403)
      expect(forbidden.body).toEqual({ success: false, error: 'Admin access required' })
    }
  })
})
