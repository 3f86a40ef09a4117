// Members' playlists against the built server, through every door: REST (/api/user/playlists…),
// tRPC, and OpenSubsonic (/rest) with the npm `subsonic-api` client and raw XML. A playlist made
// in one door is the same list in the others; entries keep their order through adds at a
// position, moves and removals; an entry whose file vanished stays, marked unavailable, and plays
// again when the file is back; another member's private playlist is invisible (404 / error 70),
// a public one readable but never changeable (403 / error 50); bad input is a 4xx naming the
// problem; M3U8 export and import round-trip library paths and report what did not match.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { renameSync } from 'node:fs'
import path from 'node:path'
import superjson from 'superjson'
import { SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let server: TestServer
let adminToken: string
type Member = Awaited<ReturnType<typeof createMember>>
let owner: Member
let other: Member
/** Library track ids by title. */
const ids: Record<string, string> = {}
let albumId: string

const FILES = [
  ['Ada/Harbor/01 Anchor.mp3', 'Anchor', 'Harbor'],
  ['Ada/Harbor/02 Beacon.mp3', 'Beacon', 'Harbor'],
  ['Ada/Harbor/03 Current.mp3', 'Current', 'Harbor'],
  ['Bo/Delta/01 Drift.mp3', 'Drift', 'Delta'],
  ['Bo/Delta/02 Eddy.mp3', 'Eddy', 'Delta'],
] as const

beforeAll(async () => {
  server = await startServer(adminEnv)
  for (const [file, title, album] of FILES)
    makeTone(path.join(server.mediaRoot, file), { title, artist: file.split('/')[0], album, seconds: 1, metadata: { track: file.split('/')[2].slice(0, 2) } })
  adminToken = await loginAdmin(server.url)
  await scanLibraryNow(server.url, adminToken)
  ;[owner, other] = await Promise.all([createMember(server.url), createMember(server.url)])
  const songs = await api(server.url, 'GET', '/library/songs?limit=50', { token: owner.token })
  for (const t of songs.body.data.tracks) ids[t.title] = t.id
  albumId = songs.body.data.tracks.find((t: { title: string }) => t.title === 'Drift').albumId
})
afterAll(() => server?.stop())

const call = (m: Member, method: string, p: string, body?: unknown) => api(server.url, method, `/user/playlists${p}`, { token: m.token, body })
const titles = (detail: { entries: { title: string }[] }) => detail.entries.map((e) => e.title)
async function detail(m: Member, id: string) {
  const res = await call(m, 'GET', `/${id}`)
  expect(res.status).toBe(200)
  return res.body.data
}
async function newPlaylist(m: Member, body: Record<string, unknown>) {
  const res = await call(m, 'POST', '', body)
  expect(res.status).toBe(201)
  return res.body.data.id as string
}

describe('REST and tRPC', () => {
  test('create, add (at the end, at a position, a whole album), move, remove, rename, describe: one list in order', async () => {
    const id = await newPlaylist(owner, { name: 'Road trip', trackIds: [ids.Anchor, ids.Current] })
    expect((await call(owner, 'POST', `/${id}/tracks`, { trackIds: [ids.Beacon], position: 1 })).status).toBe(200)
    expect(titles(await detail(owner, id))).toEqual(['Anchor', 'Beacon', 'Current'])
    const added = await call(owner, 'POST', `/${id}/tracks`, { albumId })
    expect(added.body.data).toMatchObject({ songCount: 5, mine: true })
    expect(titles(await detail(owner, id))).toEqual(['Anchor', 'Beacon', 'Current', 'Drift', 'Eddy'])
    expect((await call(owner, 'POST', `/${id}/tracks/move`, { from: 4, to: 0 })).status).toBe(200)
    expect(titles(await detail(owner, id))).toEqual(['Eddy', 'Anchor', 'Beacon', 'Current', 'Drift'])
    expect((await call(owner, 'POST', `/${id}/tracks/move`, { from: 1, to: 3 })).status).toBe(200)
    expect(titles(await detail(owner, id))).toEqual(['Eddy', 'Beacon', 'Current', 'Anchor', 'Drift'])
    expect((await call(owner, 'DELETE', `/${id}/tracks`, { indexes: [0, 2] })).status).toBe(200)
    const after = await detail(owner, id)
    expect(titles(after)).toEqual(['Beacon', 'Anchor', 'Drift'])
    expect(after.entries.map((e: { index: number }) => e.index)).toEqual([0, 1, 2])
    // Several songs at once before an entry keep the order they were sent in.
    expect((await call(owner, 'POST', `/${id}/tracks`, { trackIds: [ids.Eddy, ids.Current, ids.Eddy], position: 1 })).status).toBe(200)
    expect(titles(await detail(owner, id))).toEqual(['Beacon', 'Eddy', 'Current', 'Eddy', 'Anchor', 'Drift'])
    expect((await call(owner, 'DELETE', `/${id}/tracks`, { indexes: [1, 2, 3] })).status).toBe(200)
    // Each available entry is the library's track, with a signed URL the player can play.
    expect(after.entries[0].track).toMatchObject({ id: ids.Beacon, title: 'Beacon', album: 'Harbor' })
    expect((await fetch(`${server.url}${after.entries[0].track.url}`)).status).toBe(200)

    const renamed = await call(owner, 'PATCH', `/${id}`, { name: 'Coast road', comment: 'Windows down' })
    expect(renamed.body.data).toMatchObject({ name: 'Coast road', comment: 'Windows down', public: false })
    const list = await call(owner, 'GET', '')
    expect(list.body.data.map((p: { name: string }) => p.name)).toContain('Coast road')

    // The same list through tRPC.
    const input = encodeURIComponent(JSON.stringify(superjson.serialize({ id })))
    const trpc = await fetch(`${server.url}/api/trpc/playlists.byId?input=${input}`, { headers: { authorization: `Bearer ${owner.token}` } })
    expect(trpc.status).toBe(200)
    expect(((await trpc.json()) as any).result.data.json.entries.map((e: { title: string }) => e.title)).toEqual(['Beacon', 'Anchor', 'Drift'])

    expect((await call(owner, 'DELETE', `/${id}`)).status).toBe(200)
    expect((await call(owner, 'GET', `/${id}`)).status).toBe(404)
  })

  test("another member's private playlist is invisible (404) and unchangeable; a public one is readable, never changeable (403)", async () => {
    const id = await newPlaylist(owner, { name: 'Owner secret mix', trackIds: [ids.Anchor] })
    expect((await call(other, 'GET', '')).body.data.map((p: { id: string }) => p.id)).not.toContain(id)
    for (const [method, p, body] of [
      ['GET', `/${id}`, undefined],
      ['PATCH', `/${id}`, { name: 'Taken' }],
      ['DELETE', `/${id}`, undefined],
      ['POST', `/${id}/tracks`, { trackIds: [ids.Eddy] }],
      ['DELETE', `/${id}/tracks`, { indexes: [0] }],
      ['POST', `/${id}/tracks/move`, { from: 0, to: 0 }],
      ['GET', `/${id}/m3u8`, undefined],
    ] as const) {
      const res = await call(other, method, p, body)
      expect([method, p, res.status, res.body.error]).toEqual([method, p, 404, 'Playlist not found'])
    }

    expect((await call(owner, 'PATCH', `/${id}`, { public: true })).status).toBe(200)
    const seen = (await call(other, 'GET', '')).body.data.find((p: { id: string }) => p.id === id)
    expect(seen).toMatchObject({ name: 'Owner secret mix', public: true, mine: false, owner: owner.username })
    expect(titles(await detail(other, id))).toEqual(['Anchor'])
    for (const [method, p, body] of [
      ['PATCH', `/${id}`, { name: 'Taken' }],
      ['DELETE', `/${id}`, undefined],
      ['POST', `/${id}/tracks`, { trackIds: [ids.Eddy] }],
      ['DELETE', `/${id}/tracks`, { indexes: [0] }],
    ] as const) {
      const res = await call(other, method, p, body)
      expect([method, p, res.status, res.body.error]).toEqual([method, p, 403, 'Only the owner may change this playlist'])
    }
    const unchanged = await detail(owner, id)
    expect([unchanged.name, titles(unchanged)]).toEqual(['Owner secret mix', ['Anchor']])
  })

  test('bad input is a 4xx naming the problem', async () => {
    const id = await newPlaylist(owner, { name: 'Limits', trackIds: [ids.Anchor] })
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '', { name: '   ' }, 400, 'Playlist name is required'],
      ['POST', '', { name: 'x'.repeat(101) }, 400, 'Playlist name must be at most 100 characters'],
      ['POST', '', { name: 'Ok', trackIds: ['no-such-track'] }, 404, 'Track not found: no-such-track'],
      ['POST', '', { name: 'Ok', trackIds: Array(10_001).fill(ids.Anchor) }, 400, 'trackIds may hold at most 10000 tracks'],
      ['PATCH', `/${id}`, {}, 400, 'Nothing to change: send name, comment or public'],
      ['POST', `/${id}/tracks`, { trackIds: [ids.Beacon], albumId }, 400, 'Send one of trackIds, albumId or trackUrls'],
      ['POST', `/${id}/tracks`, { albumId: 'no-such-album' }, 404, 'Album not found: no-such-album'],
      ['POST', `/${id}/tracks`, { trackUrls: ['https://elsewhere.example/a.mp3'] }, 400, 'Not a library track: https://elsewhere.example/a.mp3'],
      ['DELETE', `/${id}/tracks`, { indexes: [5] }, 400, 'No entry at position 5: the playlist has 1'],
      ['POST', `/${id}/tracks/move`, { from: 0, to: 3 }, 400, 'to must be below 1, the number of entries'],
      ['POST', `/${id}/tracks/move`, { from: -1, to: 0 }, 400, 'from must be at least 0'],
      ['GET', '/no-such-playlist', undefined, 404, 'Playlist not found'],
    ]
    for (const [method, p, body, status, error] of cases) {
      const res = await call(owner, method, p, body)
      expect([method, p, res.status, res.body.error]).toEqual([method, p, status, error])
    }
    expect(titles(await detail(owner, id))).toEqual(['Anchor'])
  })

  test('a queue saved as a playlist (player URLs, signed); an entry whose file vanished stays, unavailable, and plays again when it is back', async () => {
    const anchor = (
      await api(
        server.url,
        'GET',
        `/library/albums/${(await detail(owner, await newPlaylist(owner, { name: 'probe', trackIds: [ids.Anchor] }))).entries[0].track.albumId}`,
        { token: owner.token },
      )
    ).body.data.tracks
    const urls = anchor.map((t: { url: string }) => t.url)
    expect(urls[0]).toContain('sig=')
    const id = await newPlaylist(owner, { name: 'Saved queue', trackUrls: urls })
    expect(titles(await detail(owner, id))).toEqual(['Anchor', 'Beacon', 'Current'])

    const from = path.join(server.mediaRoot, 'Ada/Harbor/02 Beacon.mp3')
    const aside = path.join(server.mediaRoot, 'Beacon.away')
    renameSync(from, aside)
    await scanLibraryNow(server.url, adminToken)
    const gone = await detail(owner, id)
    expect(gone.entries.map((e: { title: string; track?: unknown }) => [e.title, e.track !== undefined])).toEqual([
      ['Anchor', true],
      ['Beacon', false],
      ['Current', true],
    ])
    renameSync(aside, from)
    await scanLibraryNow(server.url, adminToken, { full: true })
    expect((await detail(owner, id)).entries.every((e: { track?: unknown }) => e.track !== undefined)).toBe(true)
  })

  test('M3U8: export lists paths inside the library; import matches relative, absolute, file:// and /media/ lines and reports the rest', async () => {
    const id = await newPlaylist(owner, { name: 'Export me', trackIds: [ids.Drift, ids.Anchor] })
    const exported = await call(owner, 'GET', `/${id}/m3u8`)
    expect(exported.status).toBe(200)
    expect(exported.body.data.m3u8).toBe(
      '#EXTM3U\n#PLAYLIST:Export me\n#EXTINF:1,Bo - Drift\nBo/Delta/01 Drift.mp3\n#EXTINF:1,Ada - Anchor\nAda/Harbor/01 Anchor.mp3\n',
    )

    const m3u8 = [
      '#EXTM3U',
      '#EXTINF:1,Eddy',
      'Bo/Delta/02 Eddy.mp3',
      `${server.mediaRoot}/Ada/Harbor/03 Current.mp3`,
      '/media/Ada/Harbor/01%20Anchor.mp3',
      `file://${server.mediaRoot}/Bo/Delta/01%20Drift.mp3`,
      'C:\\Music\\Elsewhere\\song.mp3',
      '../../etc/passwd',
      'Bo/Delta/99 Missing.mp3',
    ].join('\r\n')
    const imported = await call(owner, 'POST', '/import', { name: 'From a file', m3u8 })
    expect(imported.status).toBe(201)
    expect(imported.body.data.unmatched).toEqual(['C:\\Music\\Elsewhere\\song.mp3', '../../etc/passwd', 'Bo/Delta/99 Missing.mp3'])
    expect(titles(await detail(owner, imported.body.data.playlist.id))).toEqual(['Eddy', 'Current', 'Anchor', 'Drift'])
  })
})

describe('OpenSubsonic (/rest)', () => {
  let key: string
  let otherKey: string
  let client: SubsonicAPI
  let otherClient: SubsonicAPI

  async function appKey(m: Member) {
    const created = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'Symfonium', currentPassword: m.password } })
    expect(created.status).toBe(201)
    return created.body.data.key as string
  }
  async function rest(method: string, params: Record<string, string | string[]>, apiKey = key) {
    const url = new URL(`${server.url}/rest/${method}`)
    for (const [k, v] of Object.entries({ apiKey, c: 'vibes-test', v: '1.16.1', ...params })) for (const one of [v].flat()) url.searchParams.append(k, one)
    const text = await (await fetch(url)).text()
    return params.f === 'json' ? JSON.parse(text)['subsonic-response'] : parseXml(text)
  }

  beforeAll(async () => {
    key = await appKey(owner)
    otherKey = await appKey(other)
    client = new SubsonicAPI({ url: server.url, auth: { apiKey: key } })
    otherClient = new SubsonicAPI({ url: server.url, auth: { apiKey: otherKey } })
  })

  test('createPlaylist, updatePlaylist (name, comment, public, add, remove), createPlaylist with playlistId, deletePlaylist: the web sees each change', async () => {
    const created = await client.createPlaylist({ name: 'From the app', songId: [ids.Anchor, ids.Beacon, ids.Current] })
    expect(created.status).toBe('ok')
    const id = created.playlist.id
    expect(created.playlist).toMatchObject({ name: 'From the app', owner: owner.username, public: false, songCount: 3 })
    expect(created.playlist.entry?.map((e) => e.title)).toEqual(['Anchor', 'Beacon', 'Current'])
    expect(titles(await detail(owner, id))).toEqual(['Anchor', 'Beacon', 'Current'])

    const updated = await client.updatePlaylist({
      playlistId: id,
      name: 'Renamed in app',
      comment: 'Late night',
      public: true,
      songIdToAdd: [ids.Eddy],
      songIndexToRemove: [0, 2],
    })
    expect(updated.status).toBe('ok')
    const web = await detail(owner, id)
    expect([web.name, web.comment, web.public, titles(web)]).toEqual(['Renamed in app', 'Late night', true, ['Beacon', 'Eddy']])

    const replaced = await client.createPlaylist({ playlistId: id, songId: [ids.Drift] })
    expect(replaced.playlist.entry?.map((e) => e.title)).toEqual(['Drift'])

    // XML: the playlist's attributes and its songs as <entry> elements.
    const xml = await rest('getPlaylist.view', { id })
    const playlist = childOf(xml, 'playlist')
    expect(playlist.attributes).toMatchObject({
      id,
      name: 'Renamed in app',
      comment: 'Late night',
      owner: owner.username,
      public: 'true',
      songCount: '1',
      readonly: 'false',
    })
    expect(childrenOf(playlist, 'entry').map((e) => e.attributes.title)).toEqual(['Drift'])

    expect((await client.deletePlaylist({ id })).status).toBe('ok')
    expect((await call(owner, 'GET', `/${id}`)).status).toBe(404)
  })

  test('getPlaylists lists the member’s playlists and their folders (read-only, ids apart); JSON and XML agree', async () => {
    const id = await newPlaylist(owner, { name: 'Listed', trackIds: [ids.Anchor] })
    const folder = await api(server.url, 'POST', '/user/folders', { token: owner.token, body: { label: 'Ada folder', path: '/Ada' } })
    expect(folder.status).toBe(201)
    const { playlists } = await client.getPlaylists()
    const byName = new Map(playlists.playlist?.map((p) => [p.name, p]))
    expect(byName.get('Listed')).toMatchObject({ id, songCount: 1, readonly: false })
    expect(byName.get('Ada folder')).toMatchObject({ id: folder.body.data.id, songCount: 3, readonly: true })
    const listed = playlists.playlist ?? []
    expect(new Set(listed.map((p) => p.id)).size).toBe(listed.length)
    const json = await rest('getPlaylists.view', { f: 'json' })
    const xml = await rest('getPlaylists.view', {})
    expect(json.playlists.playlist.map((p: { id: string }) => p.id)).toEqual(childrenOf(childOf(xml, 'playlists'), 'playlist').map((p) => p.attributes.id))
    // A folder stays read-only: changing it is error 50, and it is unchanged.
    const refused = await rest('updatePlaylist.view', { playlistId: folder.body.data.id, name: 'Nope', f: 'json' })
    expect(refused).toMatchObject({ status: 'failed', error: { code: 50 } })
    expect((await client.getPlaylist({ id: folder.body.data.id })).playlist.entry?.length).toBe(3)
  })

  test("another member's private playlist is error 70 everywhere; a public one is readable, changing it is error 50; bad input names the problem", async () => {
    const id = await newPlaylist(owner, { name: 'Owner secret mix', trackIds: [ids.Anchor] })
    for (const [method, params] of [
      ['getPlaylist.view', { id }],
      ['updatePlaylist.view', { playlistId: id, name: 'Taken' }],
      ['deletePlaylist.view', { id }],
      ['createPlaylist.view', { playlistId: id, songId: ids.Eddy }],
    ] as const) {
      const answer = await rest(method, { ...params, f: 'json' }, otherKey)
      expect([method, answer.status, answer.error]).toEqual([method, 'failed', { code: 70, message: 'Playlist not found' }])
    }
    expect(((await otherClient.getPlaylists()).playlists.playlist ?? []).map((p) => p.id)).not.toContain(id)

    await client.updatePlaylist({ playlistId: id, public: true })
    expect((await otherClient.getPlaylist({ id })).playlist).toMatchObject({ name: 'Owner secret mix', readonly: true })
    const refused = await rest('updatePlaylist.view', { playlistId: id, songIdToAdd: ids.Eddy, f: 'json' }, otherKey)
    expect(refused.error).toEqual({ code: 50, message: 'Only the owner may change this playlist' })
    expect(titles(await detail(owner, id))).toEqual(['Anchor'])

    const bad: [string, Record<string, string>, number, string][] = [
      ['createPlaylist.view', {}, 10, 'Required parameter is missing: name'],
      ['createPlaylist.view', { name: 'x'.repeat(101) }, 0, 'Playlist name must be at most 100 characters'],
      ['createPlaylist.view', { name: 'Ok', songId: 'no-such-song' }, 70, 'Track not found: no-such-song'],
      ['updatePlaylist.view', { playlistId: id, songIndexToRemove: '7' }, 0, "Parameter songIndexToRemove 7 is past the playlist's 1 songs"],
      ['updatePlaylist.view', { playlistId: id, public: 'maybe' }, 0, 'Parameter public must be true or false'],
      // All or nothing: the rename is not kept when a song to add is unknown.
      ['updatePlaylist.view', { playlistId: id, name: 'Half done', songIndexToRemove: '0', songIdToAdd: 'no-such-song' }, 70, 'Track not found: no-such-song'],
      ['deletePlaylist.view', {}, 10, 'Required parameter is missing: id'],
    ]
    for (const [method, params, code, message] of bad) {
      const answer = await rest(method, { ...params, f: 'json' })
      expect([method, answer.error]).toEqual([method, { code, message }])
    }
    const after = await detail(owner, id)
    expect([after.name, titles(after)]).toEqual(['Owner secret mix', ['Anchor']])
  })
})
