// The web player's ratings and bookmarks over /api (the same tables as OpenSubsonic's setRating and
// bookmarks), against the built server and a scanned library: a rating set here is the app's
// userRating and the other way round; the Songs list sorted by the member's rating, paged by
// cursor; another member's ratings and bookmarks are neither seen nor changed; bad input is a 4xx
// naming the field.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer
let admin: string
let member: Awaited<ReturnType<typeof createMember>>
let other: Awaited<ReturnType<typeof createMember>>
const lib = (p: string) => path.join(server.mediaRoot, p)
const TITLES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot']
let ids: Record<string, string>
/** Each song's /media/ URL as the Songs list hands it out (signed). */
let urls: Record<string, string>
const q = (url: string) => `url=${encodeURIComponent(url)}`

async function scan() {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 200; i++) {
    if (!(await api(server.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}
const rate = (token: string, id: string, rating: number) => api(server.url, 'PUT', '/library/ratings', { token, body: { id, rating } })

/** Every page of the member's Songs list in `sort`, `limit` at a time, by cursor. */
async function walk(token: string, sort: string, limit: number): Promise<string[]> {
  const titles: string[] = []
  let cursor: string | null = null
  for (let pages = 0; pages < 20; pages++) {
    const res: { status: number; body: any } = await api(server.url, 'GET', `/library/songs?sort=${sort}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    })
    expect(res.status).toBe(200)
    titles.push(...res.body.data.tracks.map((t: { title: string }) => t.title))
    cursor = res.body.data.next
    if (!cursor) break
  }
  return titles
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [i, title] of TITLES.entries()) makeTone(lib(`Ada/Dawn/${i + 1} ${title}.mp3`), { artist: 'Ada', album: 'Dawn', title, seconds: 1 })
  admin = await loginAdmin(server.url)
  member = await createMember(server.url)
  other = await createMember(server.url)
  await scan()
  const songs = (await api(server.url, 'GET', '/library/songs?limit=50', { token: member.token })).body.data.tracks as {
    id: string
    title: string
    url: string
  }[]
  ids = Object.fromEntries(songs.map((s) => [s.title, s.id]))
  urls = Object.fromEntries(songs.map((s) => [s.title, s.url]))
})
afterAll(async () => {
  await server?.stop()
})

describe('ratings', () => {
  test('rated songs come first in the rating sort, best first, then the rest by title, every page in step', async () => {
    expect((await rate(member.token, ids.Echo, 5)).status).toBe(200)
    expect((await rate(member.token, ids.Bravo, 3)).status).toBe(200)
    expect((await rate(member.token, ids.Delta, 3)).status).toBe(200)
    // The other member's ratings do not move this member's list.
    expect((await rate(other.token, ids.Foxtrot, 5)).status).toBe(200)
    const expected = ['Echo', 'Bravo', 'Delta', 'Alpha', 'Charlie', 'Foxtrot']
    for (const limit of [1, 2, 4, 50]) expect(await walk(member.token, 'rating', limit)).toEqual(expected)
    expect(await walk(other.token, 'rating', 2)).toEqual(['Foxtrot', 'Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'])
    const mine = await api(server.url, 'GET', '/library/ratings', { token: member.token })
    expect(mine.body.data.ratings).toEqual({ [ids.Echo]: 5, [ids.Bravo]: 3, [ids.Delta]: 3 })
    // 0 clears.
    expect((await rate(member.token, ids.Delta, 0)).status).toBe(200)
    expect((await api(server.url, 'GET', '/library/ratings', { token: member.token })).body.data.ratings).toEqual({ [ids.Echo]: 5, [ids.Bravo]: 3 })
  })

  test("a rating set on the web is the app's userRating, and the other way round", async () => {
    const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Feishin', currentPassword: member.password } })
    const client = new SubsonicAPI({ url: server.url, auth: { apiKey: created.body.data.key } })
    expect((await client.getSong({ id: ids.Echo })).song.userRating).toBe(5)
    expect((await client.setRating({ id: ids.Alpha, rating: 2 })).status).toBe('ok')
    expect((await api(server.url, 'GET', '/library/ratings', { token: member.token })).body.data.ratings[ids.Alpha]).toBe(2)
  })

  test('bad input is a 400 naming the field; an unknown id a 404; no token a 401', async () => {
    for (const rating of [6, -1, 2.5, '3']) {
      const res = await rate(member.token, ids.Alpha, rating as number)
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body)).toContain('rating')
    }
    expect((await rate(member.token, 'no-such-song', 3)).status).toBe(404)
    expect((await api(server.url, 'PUT', '/library/ratings', { body: { id: ids.Alpha, rating: 3 } })).status).toBe(401)
    expect((await api(server.url, 'GET', '/library/songs?sort=stars', { token: member.token })).status).toBe(400)
  })
})

describe('bookmarks', () => {
  test('save, read back (by the signed or the bare URL), move, delete; another member sees none and cannot delete it', async () => {
    const url = urls.Charlie
    const bare = url.split('?')[0]
    expect(url).toContain('?')
    const save = (token: string, positionMs: number) => api(server.url, 'PUT', '/library/bookmarks', { token, body: { url, positionMs, comment: 'chorus' } })
    const read = async (token: string, u = url) => (await api(server.url, 'GET', `/library/bookmarks?${q(u)}`, { token })).body.data.bookmark
    expect((await save(member.token, 61_000)).status).toBe(200)
    expect(await read(member.token)).toMatchObject({ trackId: ids.Charlie, positionMs: 61_000, comment: 'chorus' })
    expect((await read(member.token, bare)).positionMs).toBe(61_000)
    expect((await save(member.token, 75_500)).status).toBe(200)
    expect((await read(member.token)).positionMs).toBe(75_500)
    expect(await read(other.token)).toBeNull()
    expect((await api(server.url, 'DELETE', `/library/bookmarks?${q(url)}`, { token: other.token })).status).toBe(404)
    expect((await read(member.token)).positionMs).toBe(75_500)
    expect((await api(server.url, 'DELETE', `/library/bookmarks?${q(url)}`, { token: member.token })).status).toBe(200)
    expect(await read(member.token)).toBeNull()
  })

  test("a bookmark made on the web is the app's, by song id", async () => {
    expect((await api(server.url, 'PUT', '/library/bookmarks', { token: member.token, body: { url: urls.Delta, positionMs: 4_000 } })).status).toBe(200)
    const created = await api(server.url, 'POST', '/user/app-keys', { token: member.token, body: { name: 'Tempo', currentPassword: member.password } })
    const client = new SubsonicAPI({ url: server.url, auth: { apiKey: created.body.data.key } })
    expect((await client.getBookmarks()).bookmarks.bookmark?.map((b) => [b.entry.id, b.position])).toEqual([[ids.Delta, 4_000]])
  })

  test('bad input is a 400 naming the field; an unknown song a 404', async () => {
    const cases: [unknown, string][] = [
      [{ url: urls.Alpha, positionMs: -1 }, 'positionMs'],
      [{ url: urls.Alpha, positionMs: 'soon' }, 'positionMs'],
      [{ url: urls.Alpha, positionMs: 10, comment: 'x'.repeat(1001) }, 'comment'],
      [{ positionMs: 10 }, 'url'],
      [{ url: 'https://example.com/a.mp3', positionMs: 10 }, 'url'],
    ]
    for (const [body, field] of cases) {
      const res = await api(server.url, 'PUT', '/library/bookmarks', { token: member.token, body })
      expect(res.status).toBe(400)
      expect(JSON.stringify(res.body)).toContain(field)
    }
    expect((await api(server.url, 'PUT', '/library/bookmarks', { token: member.token, body: { url: '/media/no/such.mp3', positionMs: 10 } })).status).toBe(404)
    expect((await api(server.url, 'GET', `/library/bookmarks?${q('/media/%2e%2e/etc/passwd')}`, { token: member.token })).status).toBe(404)
  })
})
