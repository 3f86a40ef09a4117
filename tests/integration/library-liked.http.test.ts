// The member's liked songs against the built server: GET /api/library/liked (the web's Liked
// songs page) and OpenSubsonic getStarred2 are the same list, newest like first — a like made on
// a library track names that file, one made by title alone names the library songs of that title,
// an unlike takes a song off both, and another member's likes never show.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { parseXml } from '../helpers/xml'

let server: TestServer

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [file, title] of [
    ['Ada/Harbor/01 Anchor.mp3', 'Anchor'],
    ['Ada/Harbor/02 Beacon.mp3', 'Beacon'],
    ['Bo/Delta/01 Beacon.mp3', 'Beacon'],
    ['Bo/Delta/02 Current.mp3', 'Current'],
  ])
    makeTone(path.join(server.mediaRoot, file), { title, artist: file.split('/')[0], album: file.split('/')[1], seconds: 1 })
  await scanLibraryNow(server.url, await loginAdmin(server.url))
})
afterAll(() => server?.stop())

type Member = Awaited<ReturnType<typeof createMember>>

async function starred(m: Member): Promise<string[]> {
  const url = new URL(`${server.url}/rest/getStarred2.view`)
  for (const [k, v] of Object.entries({ u: m.username, p: m.password, c: 'vibes-test', v: '1.16.1' })) url.searchParams.set(k, v)
  const root = parseXml(await (await fetch(url)).text())
  const list = root.children.find((c) => c.name === 'starred2')!
  return list.children.filter((c) => c.name === 'song').map((s) => s.attributes.path)
}

async function liked(m: Member): Promise<{ url: string; likedAt: string; title: string }[]> {
  const res = await api(server.url, 'GET', '/library/liked', { token: m.token })
  expect(res.status).toBe(200)
  return res.body.data.tracks
}
const pathOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').pathname.replace(/^\/media\//, ''))

test('the web and the apps get one list: newest like first, by file or by title, unlikes gone, nobody else’s', async () => {
  const [m, other] = await Promise.all([createMember(server.url), createMember(server.url)])
  const like = (who: Member, title: string, isLiked: boolean, trackUrl?: string) =>
    api(server.url, 'PUT', '/playlist/likes', { token: who.token, body: { title, liked: isLiked, trackUrl } })
  expect((await like(m, 'Anchor', true, '/media/Ada/Harbor/01%20Anchor.mp3')).status).toBe(200)
  await Bun.sleep(15)
  // By title alone (as a local file's like): both library songs of that title.
  expect((await like(m, 'Beacon', true)).status).toBe(200)
  await Bun.sleep(15)
  expect((await like(m, 'Current', true, '/media/Bo/Delta/02%20Current.mp3')).status).toBe(200)
  expect((await like(other, 'Anchor', true, '/media/Ada/Harbor/01%20Anchor.mp3')).status).toBe(200)

  const web = await liked(m)
  const expected = ['Bo/Delta/02 Current.mp3', 'Ada/Harbor/02 Beacon.mp3', 'Bo/Delta/01 Beacon.mp3', 'Ada/Harbor/01 Anchor.mp3']
  expect(web.map((t) => pathOf(t.url))).toEqual(expected)
  expect(await starred(m)).toEqual(expected)
  // Newest first, each with when it was liked; the URLs play (signed /media/).
  const times = web.map((t) => Date.parse(t.likedAt))
  expect(times).toEqual([...times].sort((a, b) => b - a))
  expect((await fetch(`${server.url}${web[0].url}`)).status).toBe(200)

  expect((await like(m, 'Beacon', false)).status).toBe(200)
  expect((await liked(m)).map((t) => pathOf(t.url))).toEqual(['Bo/Delta/02 Current.mp3', 'Ada/Harbor/01 Anchor.mp3'])
  expect(await starred(m)).toEqual(['Bo/Delta/02 Current.mp3', 'Ada/Harbor/01 Anchor.mp3'])
  expect((await liked(other)).map((t) => t.title)).toEqual(['Anchor'])
})

test('signed out: 401', async () => {
  expect((await api(server.url, 'GET', '/library/liked')).status).toBe(401)
})
