// Hit Analytics names the library pages it lists, over real HTTP against the built server with a
// scanned library: an album or artist page shows the album's or artist's name, and the pages of
// ids the library does not hold are counted together under the route's pattern.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string

const hit = (page: string, ua: string) => api(server.url, 'GET', `/hits/page-hits?page=${page}`, { headers: { 'user-agent': ua } })

beforeAll(async () => {
  server = await startServer(adminEnv)
  makeTone(path.join(server.mediaRoot, 'Bjork', 'Homogenic', '01 Hunter.mp3'), { title: 'Hunter', artist: 'Björk', album: 'Homogenic' })
  admin = await loginAdmin(server.url)
  await scanLibraryNow(server.url, admin)
})
afterAll(async () => {
  await server?.stop()
})

test('album and artist pages are listed by name; unknown ids count together under the route pattern', async () => {
  const album = (await api(server.url, 'GET', '/library/albums', { token: admin })).body.data.albums[0] as { id: string }
  const artist = (await api(server.url, 'GET', '/library/artists', { token: admin })).body.data.artists[0] as { id: string }
  expect(album.id).toMatch(/^[0-9a-f]+$/)

  await hit(`library/albums/${album.id}`, 'UA-1')
  await hit(`library/albums/${album.id}`, 'UA-2')
  await hit(`library/artists/${artist.id}`, 'UA-1')
  await hit('library/albums/0000000000000000', 'UA-1')
  await hit('library/albums/ffffffffffffffff', 'UA-2')
  await hit('library/albums/ffffffffffffffff', 'UA-2')
  await hit('charts', 'UA-1')

  const res = await api(server.url, 'GET', '/admin/analytics/hits?days=7', { token: admin })
  expect(res.status).toBe(200)
  const today = new Date().toISOString().slice(0, 10)
  expect(res.body.data.dailyStats).toEqual([
    { date: today, page: 'library/albums/:id', name: null, totalHits: 3, uniqueVisitors: 2 },
    { date: today, page: `library/albums/${album.id}`, name: 'Album · Homogenic', totalHits: 2, uniqueVisitors: 2 },
    { date: today, page: 'charts', name: null, totalHits: 1, uniqueVisitors: 1 },
    { date: today, page: `library/artists/${artist.id}`, name: 'Artist · Björk', totalHits: 1, uniqueVisitors: 1 },
  ])
  expect(res.body.data.summary.totalRecords).toBe(4)
})
