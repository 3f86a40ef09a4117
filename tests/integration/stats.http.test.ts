// The admin dashboard counts and System Statistics over real HTTP against the built server:
// page hits recorded through the footer's call, messages through the contact form, plays through
// the player's call; then every /api/admin/* statistics answer, its caching flags, recent errors
// and clearing hit data (which also clears the footer's running totals).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let ann: Awaited<ReturnType<typeof createMember>>
let ben: Awaited<ReturnType<typeof createMember>>

const UA_1 = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0'
const UA_2 = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1.15'

const get = (p: string, token = admin) => api(server.url, 'GET', p, { token })
const hit = (page: string, ua: string) => api(server.url, 'GET', `/hits/page-hits?page=${page}`, { headers: { 'user-agent': ua } })

async function play(token: string, trackUrl: string, title: string) {
  const res = await api(server.url, 'POST', '/playlist/plays', { token, body: { trackUrl, title, artist: 'Band', duration: 100 } })
  expect(res.status).toBe(201)
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  admin = await loginAdmin(server.url)
  ann = await createMember(server.url)
  ben = await createMember(server.url)
  for (const [page, ua] of [
    ['home', UA_1],
    ['home', UA_1],
    ['home', UA_2],
    ['charts', UA_1],
  ]) {
    expect((await hit(page, ua)).status).toBe(200)
  }
  for (const n of [1, 2, 3]) {
    const sent = await api(server.url, 'POST', '/contact', {
      body: { fullName: `Sender ${n}`, email: `sender${n}@example.com`, message: `Hello number ${n}, I love the app and have a question about folders.` },
    })
    expect(sent.status).toBe(201)
  }
  await sqlOn(server, "UPDATE contact_messages SET important = TRUE, read = TRUE WHERE name = 'Sender 1'")
  mkdirSync(path.join(server.mediaRoot, 'music/jazz'), { recursive: true }) // a folder must exist to be saved
  expect((await api(server.url, 'POST', '/user/folders', { token: ann.token, body: { label: 'Jazz', path: '/music/jazz' } })).status).toBe(201)
})
afterAll(async () => {
  await server.stop()
})

describe('dashboard and system statistics', () => {
  test('dashboard: messages total / important / unread and users total / admins', async () => {
    const res = await get('/admin/dashboard')
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ users: { total: 3, admins: 1 }, messages: { total: 3, important: 1, unread: 2 } })
  })

  test('admin stats: page views of 30 days with unique visitors and the average per day, music counts', async () => {
    // "Total songs" is the library: three files on disk, whatever has been played (two tracks,
    // one of them not in the library at all).
    for (const n of [1, 2, 3]) makeTone(path.join(server.mediaRoot, 'library', `0${n} Song.mp3`), { title: `Song ${n}`, seconds: 1 })
    await scanLibraryNow(server.url, admin)
    await play(ann.token, '/media/a.mp3?exp=1&sig=x', 'A')
    await play(ann.token, '/media/a.mp3?exp=2&sig=y', 'A')
    await play(ben.token, 'https://nas.example.com/b.mp3', 'B')
    const res = await get('/admin/stats?forceFresh=true')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d.music).toEqual({ totalSongs: 3, totalPlaylists: 1 })
    expect(d.pageViews).toEqual({ total: 4, uniqueVisitors: 2, averagePerDay: 0.1, days: 30, allTime: 4 })
    expect(Date.parse(d.lastUpdated)).toBeGreaterThan(Date.now() - 60_000)
    expect((await get('/admin/stats?forceFresh=maybe')).status).toBe(400)
  })

  test('DAU and WAU count members who played or logged in', async () => {
    const d = (await get('/admin/stats/dau')).body.data
    expect(d.dau).toBe(3)
    expect(d.wau).toBe(3)
    expect(Date.parse(d.updated)).toBeGreaterThan(Date.now() - 60_000)
  })

  test('top tracks by plays; the answer is kept until clearCache asks for a fresh one', async () => {
    const first = await get('/admin/stats/top-tracks?days=7&limit=10&clearCache=true')
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual([
      { trackUrl: '/media/a.mp3', title: 'A', artist: 'Band', count: 2 },
      { trackUrl: 'https://nas.example.com/b.mp3', title: 'B', artist: 'Band', count: 1 },
    ])
    await play(ben.token, 'https://nas.example.com/b.mp3', 'B')
    await play(ben.token, 'https://nas.example.com/b.mp3', 'B')
    expect((await get('/admin/stats/top-tracks?days=7&limit=10')).body.data).toEqual(first.body.data)
    const fresh = await get('/admin/stats/top-tracks?days=7&limit=1&clearCache=true')
    expect(fresh.body.data).toEqual([{ trackUrl: 'https://nas.example.com/b.mp3', title: 'B', artist: 'Band', count: 3 }])
    expect((await get('/admin/stats/top-tracks?days=3')).status).toBe(400)
    expect((await get('/admin/stats/top-tracks?limit=500')).status).toBe(400)
  })

  test('user activity summary: 7 days, newest first, new users and logins per day', async () => {
    const rows = (await get('/admin/stats/user-activity-summary?fresh=true')).body.data
    expect(rows).toHaveLength(7)
    expect(rows[0]).toEqual({ dateLabel: 'Today', date: new Date().toISOString().slice(0, 10), newUsers: 3, logins: 3 })
    expect(rows[1].dateLabel).toBe('Yesterday')
    expect(rows.slice(1).every((r: { newUsers: number; logins: number }) => r.newUsers === 0 && r.logins === 0)).toBe(true)
  })

  test('top pages with names, views and visitors; daily activity fills every day', async () => {
    const pages = (await get('/admin/stats/top-pages?days=30&limit=5')).body.data
    expect(pages.pages).toEqual([
      { page: 'home', pageName: 'Home', views: 3, visitors: 2 },
      { page: 'charts', pageName: 'Charts', views: 1, visitors: 1 },
    ])
    expect(pages.total).toBe(4)
    expect(pages.period.days).toBe(30)
    expect((await get('/admin/stats/top-pages?limit=1')).body.data.pages).toHaveLength(1)

    const daily = (await get('/admin/metrics/daily-activity?days=30')).body.data
    expect(daily.dailyData).toHaveLength(30)
    expect(daily.dailyData.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), views: 4, visitors: 2 })
    expect(daily.dailyData.slice(0, -1).every((d: { views: number }) => d.views === 0)).toBe(true)
    expect((await get('/admin/metrics/daily-activity?days=0')).status).toBe(400)
  })

  test('hit analytics: summary, period and per-day-per-page rows, optionally one page', async () => {
    const all = (await get('/admin/analytics/hits?days=7')).body.data
    expect(all.summary).toEqual({ totalHits: 4, uniquePages: 2, uniqueVisitors: 2, totalRecords: 2 })
    expect(all.period.days).toBe(7)
    const today = new Date().toISOString().slice(0, 10)
    expect(all.dailyStats).toEqual([
      { date: today, page: 'home', name: null, totalHits: 3, uniqueVisitors: 2 },
      { date: today, page: 'charts', name: null, totalHits: 1, uniqueVisitors: 1 },
    ])
    expect((await get('/admin/analytics/hits')).body.data.period.days).toBe(30)
    const home = (await get('/admin/analytics/hits?days=7&page=home')).body.data
    expect(home.summary).toEqual({ totalHits: 3, uniquePages: 1, uniqueVisitors: 2, totalRecords: 1 })
  })

  test('recent errors of the last hours, newest first, bounded', async () => {
    const add = 'INSERT INTO server_errors (method, path, status, message, created_at) VALUES (?, ?, ?, ?, ?)'
    await sqlOn(server, add, ['GET', '/api/old', 500, 'old failure', Date.now() - 2 * 3_600_000])
    await sqlOn(server, add, ['POST', '/api/new', 500, 'new failure', Date.now() - 60_000])
    const recent = (await get('/admin/errors')).body.data
    expect(recent.hours).toBe(1)
    expect(recent.errors.map((e: { message: string }) => e.message)).toEqual(['new failure'])
    expect(recent.errors[0]).toMatchObject({ method: 'POST', path: '/api/new', status: 500 })
    const three = (await get('/admin/errors?hours=3&limit=10')).body.data
    expect(three.errors.map((e: { message: string }) => e.message)).toEqual(['new failure', 'old failure'])
    expect((await get('/admin/errors?hours=3&limit=1')).body.data.errors).toHaveLength(1)
    expect((await get('/admin/errors?hours=0')).status).toBe(400)
  })

  test('clearing hit data deletes every hit and the footer totals', async () => {
    const anon = await api(server.url, 'DELETE', '/admin/clear/hit-data')
    expect(anon.status).toBe(401)
    const cleared = await api(server.url, 'DELETE', '/admin/clear/hit-data', { token: admin })
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ success: true, data: { recordsDeleted: 4 } })
    // The footer counts from zero again: its running totals went with the hits.
    expect((await hit('home', UA_1)).body.data).toEqual({ hitCount: 1, uniqueHitCount: 1, totalHitCount: 1 })
    expect((await get('/admin/stats')).body.data.pageViews).toMatchObject({ total: 1, allTime: 1 })
    expect((await get('/admin/analytics/hits?days=7')).body.data.summary.totalHits).toBe(1)
  })

  test('401 without a token and 403 for a member on every statistics path', async () => {
    const paths = [
      '/admin/dashboard',
      '/admin/stats',
      '/admin/stats/dau',
      '/admin/stats/top-tracks',
      '/admin/stats/user-activity-summary',
      '/admin/stats/top-pages',
      '/admin/metrics/daily-activity',
      '/admin/analytics/hits',
      '/admin/errors',
    ]
    for (const p of paths) {
      expect((await api(server.url, 'GET', p)).status).toBe(401)
      const res = await get(p, ann.token)
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('Admin access required')
    }
    expect((await api(server.url, 'DELETE', '/admin/clear/hit-data', { token: ann.token })).status).toBe(403)
  })
})
