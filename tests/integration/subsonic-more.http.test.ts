// The OpenSubsonic methods added beside the first 25 (decision 055), against the real built
// server and a library the scanner indexed: unknown and unimplemented methods (HTTP 200, a failed
// answer), the folder-based twins (getAlbumList, getStarred, search2), songs by genre, top and
// similar songs from this server's plays, artist and album info, now playing, users and roles,
// scan status and startScan, getAvatar (pictures themselves: avatars-info.http.test.ts), tokenInfo; and one root folder id. Each through the npm
// client (JSON) and raw XML, with the fields the OpenSubsonic JSON schemas require checked here.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { SubsonicAPI } from 'subsonic-api'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml, type XmlElement } from '../helpers/xml'

let server: TestServer
let adminToken: string
let member: Awaited<ReturnType<typeof createMember>>
let memberKey: string
let adminKey: string
let client: SubsonicAPI
let adminClient: SubsonicAPI
const lib = (p: string) => path.join(server.mediaRoot, p)

async function scan() {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
  await scanDone()
}
async function scanDone() {
  for (let i = 0; i < 200; i++) {
    if (!(await api(server.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}

async function appKey(token: string, password: string) {
  const created = await api(server.url, 'POST', '/user/app-keys', { token, body: { name: 'Feishin', currentPassword: password } })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

/** A raw /rest call in XML (the default) or JSON: status, parsed XML root or JSON answer. */
async function rest(method: string, params: Record<string, string | string[]>, key = memberKey) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ apiKey: key, c: 'vibes-test', v: '1.16.1', ...params })) for (const one of [v].flat()) url.searchParams.append(k, one)
  const res = await fetch(url)
  const text = await res.text()
  const xml = res.headers.get('content-type')?.includes('xml') ? parseXml(text) : undefined
  const json = params.f === 'json' ? JSON.parse(text)['subsonic-response'] : undefined
  return { status: res.status, xml, json }
}
const xmlOk = (xml: XmlElement | undefined) => {
  expect(xml?.attributes.status).toBe('ok')
  return xml!
}

/** The fields an OpenSubsonic schema marks required, present and of their type. */
function hasRequired(node: object, fields: Record<string, 'string' | 'boolean' | 'number'>) {
  for (const [field, type] of Object.entries(fields)) expect(typeof (node as Record<string, unknown>)[field]).toBe(type)
}
const CHILD = { id: 'string', isDir: 'boolean', title: 'string' } as const
const ROLES = [
  'scrobblingEnabled',
  'adminRole',
  'settingsRole',
  'downloadRole',
  'uploadRole',
  'playlistRole',
  'coverArtRole',
  'commentRole',
  'podcastRole',
  'streamRole',
  'jukeboxRole',
  'shareRole',
  'videoConversionRole',
]

async function songNamed(title: string) {
  const found = (await client.search3({ query: title, artistCount: 0, albumCount: 0 })).searchResult3.song?.find((s) => s.title === title)
  if (!found) throw new Error(`no song ${title}`)
  return found
}
async function scrobble(title: string, times: number) {
  const { id } = await songNamed(title)
  for (let i = 0; i < times; i++) expect((await client.scrobble({ id, submission: true })).status).toBe('ok')
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  const dawn = { artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999 }
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { ...dawn, title: 'First Light', seconds: 1, cover: true, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Love.mp3'), { ...dawn, title: 'Love', seconds: 1, metadata: { track: '2' } })
  makeTone(lib('Ada/Dawn/3 Dusk.mp3'), { ...dawn, title: 'Dusk', seconds: 1, metadata: { track: '3' } })
  makeTone(lib('Cleo/Blue/1 Sea.mp3'), { artist: 'Cleo', album: 'Blue', genre: 'Jazz', year: 2001, title: 'Sea', seconds: 1 })
  makeTone(lib('Björk/Homogenic/01 Hunter.mp3'), { artist: 'Björk', album: 'Homogenic', genre: 'Electronic', year: 1997, title: 'Hunter', seconds: 1 })
  adminToken = await loginAdmin(server.url)
  member = await createMember(server.url)
  await scan()
  memberKey = await appKey(member.token, member.password)
  adminKey = await appKey(adminToken, ADMIN.password)
  client = new SubsonicAPI({ url: server.url, auth: { apiKey: memberKey } })
  adminClient = new SubsonicAPI({ url: server.url, auth: { apiKey: adminKey } })
})
afterAll(async () => {
  await server?.stop()
})

describe('methods Vibes does not answer', () => {
  test('a method Vibes has not got over /rest (getVideos) is error 0 "Not implemented" with HTTP 200, in XML and JSON', async () => {
    const xml = await rest('getVideos.view', {})
    expect(xml.status).toBe(200)
    expect(xml.xml!.attributes.status).toBe('failed')
    expect(childOf(xml.xml!, 'error').attributes).toEqual({ code: '0', message: 'Not implemented: getVideos' })
    const json = await rest('getVideos', { f: 'json' })
    expect(json.status).toBe(200)
    expect(json.json).toMatchObject({ status: 'failed', error: { code: 0, message: 'Not implemented: getVideos' } })
  })

  test('an unknown method is error 70 with HTTP 200, never a bare 404, in XML and JSON', async () => {
    const xml = await rest('getNothingAtAll.view', {})
    expect(xml.status).toBe(200)
    expect(childOf(xml.xml!, 'error').attributes.code).toBe('70')
    const json = await rest('getNothingAtAll', { f: 'json' })
    expect(json.status).toBe(200)
    expect(json.json).toMatchObject({ status: 'failed', error: { code: 70 } })
  })
})

describe('one root folder', () => {
  test('getMusicFolders, getMusicDirectory and songs at the top agree on id 1; a top-level folder has no parent, so the root is not shown twice', async () => {
    expect((await client.getMusicFolders()).musicFolders.musicFolder).toEqual([{ id: 1, name: 'Music' }])
    const { directory: root } = await client.getMusicDirectory({ id: '1' })
    expect(root.id).toBe('1')
    expect(root.parent).toBeUndefined()
    expect(root.child?.map((c) => c.title)).toEqual(['Ada', 'Björk', 'Cleo'])
    for (const c of root.child ?? []) expect(c.parent).toBeUndefined()
    const { directory: ada } = await client.getMusicDirectory({ id: root.child![0].id })
    expect(ada.parent).toBeUndefined()
    const { directory: dawn } = await client.getMusicDirectory({ id: ada.child![0].id })
    expect(dawn.parent).toBe(ada.id)
    const xml = xmlOk((await rest('getMusicDirectory.view', { id: '1' })).xml)
    expect(childOf(xml, 'directory').attributes.id).toBe('1')
    // The old root id is gone: no second root.
    expect(childOf((await rest('getMusicDirectory.view', { id: 'd' })).xml!, 'error').attributes.code).toBe('70')
  })
})

describe('folder-based lists', () => {
  test('getAlbumList: albums as Child directories (isDir, title, parent = artist) that getMusicDirectory opens; XML alike', async () => {
    const { albumList } = await client.getAlbumList({ type: 'alphabeticalByName' })
    expect(albumList.album?.map((a) => a.title)).toEqual(['Blue', 'Dawn', 'Homogenic'])
    for (const a of albumList.album ?? []) hasRequired(a, CHILD)
    const dawn = albumList.album![1]
    expect(dawn).toMatchObject({ isDir: true, artist: 'Ada', year: 1999, genre: 'Jazz' })
    const { directory } = await client.getMusicDirectory({ id: dawn.id })
    expect(directory.child?.map((c) => c.title)).toEqual(['First Light', 'Love', 'Dusk'])
    const { directory: artist } = await client.getMusicDirectory({ id: dawn.parent! })
    expect(artist.name).toBe('Ada')
    expect(artist.child?.map((c) => [c.title, c.isDir])).toEqual([['Dawn', true]])
    const xml = xmlOk((await rest('getAlbumList.view', { type: 'byGenre', genre: 'Jazz' })).xml)
    expect(childrenOf(childOf(xml, 'albumList'), 'album').map((a) => [a.attributes.title, a.attributes.isDir])).toEqual([
      ['Blue', 'true'],
      ['Dawn', 'true'],
    ])
    expect(childOf((await rest('getAlbumList.view', { type: 'best' })).xml!, 'error').attributes.code).toBe('0')
  })

  test('search2: Artist (id, name), albums as Child directories, songs', async () => {
    const { searchResult2 } = await client.search2({ query: 'Dawn' })
    expect(searchResult2.album?.map((a) => [a.title, a.isDir])).toEqual([['Dawn', true]])
    const { searchResult2: byArtist } = await client.search2({ query: 'Ada' })
    expect(byArtist.artist?.map((a) => a.name)).toEqual(['Ada'])
    hasRequired(byArtist.artist![0], { id: 'string', name: 'string' })
    const xml = xmlOk((await rest('search2.view', { query: 'Love' })).xml)
    const songs = childrenOf(childOf(xml, 'searchResult2'), 'song')
    expect(songs.map((s) => s.attributes.title)).toEqual(['Love'])
    expect(songs[0].attributes.isDir).toBe('false')
  })

  test('getStarred: the liked songs, as getStarred2', async () => {
    const love = await songNamed('Love')
    expect((await client.star({ id: love.id })).status).toBe('ok')
    const { starred } = await client.getStarred()
    expect(starred.song?.map((s) => s.title)).toEqual(['Love'])
    hasRequired(starred.song![0], CHILD)
    // The npm client reads the like's date into a Date.
    expect(new Date(starred.song![0].starred!).getTime()).toBeGreaterThan(0)
    const xml = xmlOk((await rest('getStarred.view', {})).xml)
    expect(childrenOf(childOf(xml, 'starred'), 'song').map((s) => s.attributes.title)).toEqual(['Love'])
    await client.unstar({ id: love.id })
  })

  test('getSongsByGenre: a page of the genre, count and offset; unknown genre empty', async () => {
    const { songsByGenre } = await client.getSongsByGenre({ genre: 'Jazz', count: 10 })
    expect(songsByGenre.song?.map((s) => s.title).sort()).toEqual(['Dusk', 'First Light', 'Love', 'Sea'])
    for (const s of songsByGenre.song ?? []) hasRequired(s, CHILD)
    const first = (await client.getSongsByGenre({ genre: 'Jazz', count: 2 })).songsByGenre.song!
    const next = (await client.getSongsByGenre({ genre: 'Jazz', count: 2, offset: 2 })).songsByGenre.song!
    expect([...first, ...next].map((s) => s.id).sort()).toEqual(songsByGenre.song!.map((s) => s.id).sort())
    expect((await client.getSongsByGenre({ genre: 'Polka' })).songsByGenre.song ?? []).toEqual([])
    const xml = xmlOk((await rest('getSongsByGenre.view', { genre: 'Electronic' })).xml)
    expect(childrenOf(childOf(xml, 'songsByGenre'), 'song').map((s) => s.attributes.title)).toEqual(['Hunter'])
    expect(childOf((await rest('getSongsByGenre.view', {})).xml!, 'error').attributes.code).toBe('10')
  })
})

describe('from this server’s plays', () => {
  test('getTopSongs: the artist’s tracks, most played here first', async () => {
    await scrobble('Dusk', 3)
    await scrobble('Love', 1)
    const { topSongs } = await client.getTopSongs({ artist: 'Ada' })
    expect(topSongs.song?.map((s) => s.title)).toEqual(['Dusk', 'Love', 'First Light'])
    for (const s of topSongs.song ?? []) hasRequired(s, CHILD)
    expect((await client.getTopSongs({ artist: 'Ada', count: 1 })).topSongs.song?.map((s) => s.title)).toEqual(['Dusk'])
    expect((await client.getTopSongs({ artist: 'Nobody' })).topSongs.song ?? []).toEqual([])
    const xml = xmlOk((await rest('getTopSongs.view', { artist: 'ada' })).xml)
    expect(childrenOf(childOf(xml, 'topSongs'), 'song')[0].attributes.title).toBe('Dusk')
  })

  test('getSimilarSongs(2): same artist first, then the same genre; never the song itself nor another genre', async () => {
    const love = await songNamed('Love')
    for (const method of ['getSimilarSongs', 'getSimilarSongs2'] as const) {
      const answer = await client[method]({ id: love.id })
      const songs = 'similarSongs' in answer ? answer.similarSongs.song : answer.similarSongs2.song
      const titles = songs?.map((s) => s.title) ?? []
      expect(titles.slice(0, 2).sort()).toEqual(['Dusk', 'First Light'])
      expect(titles.slice(2)).toEqual(['Sea'])
      for (const s of songs ?? []) hasRequired(s, CHILD)
    }
    // By album or artist id too; count caps it.
    const { similarSongs } = await client.getSimilarSongs({ id: love.albumId!, count: 2 })
    expect(similarSongs.song).toHaveLength(2)
    const xml = xmlOk((await rest('getSimilarSongs2.view', { id: love.artistId! })).xml)
    expect(childrenOf(childOf(xml, 'similarSongs2'), 'song').map((s) => s.attributes.title)).toContain('Sea')
    expect(childOf((await rest('getSimilarSongs.view', { id: 'nope' })).xml!, 'error').attributes.code).toBe('70')
  })

  test('getNowPlaying: the member’s play of the last minutes (username, minutesAgo, playerId); another member sees nothing of it, an admin does', async () => {
    await scrobble('Sea', 1)
    const { nowPlaying } = await client.getNowPlaying()
    expect(nowPlaying.entry?.map((e) => [e.title, e.username])).toEqual([['Sea', member.username]])
    hasRequired(nowPlaying.entry![0], { ...CHILD, username: 'string', minutesAgo: 'number', playerId: 'number' })
    expect(nowPlaying.entry![0].minutesAgo).toBe(0)
    const other = await createMember(server.url)
    const otherClient = new SubsonicAPI({ url: server.url, auth: { apiKey: await appKey(other.token, other.password) } })
    expect((await otherClient.getNowPlaying()).nowPlaying.entry ?? []).toEqual([])
    expect((await adminClient.getNowPlaying()).nowPlaying.entry?.map((e) => e.username)).toContain(member.username)
    const xml = xmlOk((await rest('getNowPlaying.view', {})).xml)
    expect(childrenOf(childOf(xml, 'nowPlaying'), 'entry')[0].attributes).toMatchObject({ title: 'Sea', username: member.username, minutesAgo: '0' })
  })
})

describe('artist and album info, from the server’s own data', () => {
  test('getArtistInfo2 / getArtistInfo: empty biography, cover URLs that load without credentials, similar artists by shared genre', async () => {
    const ada = (await client.getArtists()).artists.index!.flatMap((i) => i.artist ?? []).find((a) => a.name === 'Ada')!
    const { artistInfo2 } = await client.getArtistInfo2({ id: ada.id })
    expect(artistInfo2.biography).toBe('')
    expect(artistInfo2.similarArtist?.map((a) => a.name)).toEqual(['Cleo'])
    hasRequired(artistInfo2.similarArtist![0], { id: 'string', name: 'string' })
    const image = await fetch(artistInfo2.largeImageUrl!)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toStartWith('image/')
    expect(artistInfo2.largeImageUrl).not.toContain(memberKey)
    const { artistInfo } = await client.getArtistInfo({ id: ada.id })
    expect(artistInfo.similarArtist).toEqual([{ id: artistInfo2.similarArtist![0].id, name: 'Cleo' }])
    const xml = xmlOk((await rest('getArtistInfo2.view', { id: ada.id })).xml)
    const info = childOf(xml, 'artistInfo2')
    expect(childrenOf(info, 'similarArtist').map((a) => a.attributes.name)).toEqual(['Cleo'])
    expect(childOf((await rest('getArtistInfo2.view', { id: 'nope' })).xml!, 'error').attributes.code).toBe('70')
  })

  test('getAlbumInfo / getAlbumInfo2: empty notes and the album cover, for an album or a song id', async () => {
    const love = await songNamed('Love')
    for (const method of ['getAlbumInfo', 'getAlbumInfo2'] as const) {
      const { albumInfo } = await client[method]({ id: love.albumId! })
      expect(albumInfo.notes).toBe('')
      expect((await fetch(albumInfo.smallImageUrl!)).status).toBe(200)
    }
    const xml = xmlOk((await rest('getAlbumInfo2.view', { id: love.id })).xml)
    expect(childOf(xml, 'albumInfo').attributes.notes).toBe('')
    expect(childOf((await rest('getAlbumInfo.view', { id: 'nope' })).xml!, 'error').attributes.code).toBe('70')
  })
})

describe('users, scans and keys', () => {
  test('getUser: the member’s own roles from the server; another member is error 50; an admin reads anyone', async () => {
    const { user } = await client.getUser({ username: member.username })
    expect(user.username).toBe(member.username)
    for (const role of ROLES) expect(typeof (user as unknown as Record<string, unknown>)[role]).toBe('boolean')
    expect(user).toMatchObject({ adminRole: false, streamRole: true, jukeboxRole: false })
    const other = await createMember(server.url)
    expect(childOf((await rest('getUser.view', { username: other.username })).xml!, 'error').attributes.code).toBe('50')
    expect((await adminClient.getUser({ username: member.username })).user.adminRole).toBe(false)
    const xml = xmlOk((await rest('getUser.view', { username: member.username })).xml)
    expect(childOf(xml, 'user').attributes).toMatchObject({ username: member.username, adminRole: 'false', streamRole: 'true' })
  })

  test('getUsers: admins only (a member gets error 50); the admin’s role is adminRole', async () => {
    expect(childOf((await rest('getUsers.view', {})).xml!, 'error').attributes.code).toBe('50')
    const { users } = await adminClient.getUsers()
    const names = users.user?.map((u) => [u.username, u.adminRole])
    expect(names).toContainEqual([member.username, false])
    expect(users.user?.some((u) => u.adminRole)).toBe(true)
    const xml = xmlOk((await rest('getUsers.view', {}, adminKey)).xml)
    expect(childrenOf(childOf(xml, 'users'), 'user').length).toBe(users.user!.length)
  })

  test('getScanStatus for everyone; startScan admins only, through the scanner, and audited', async () => {
    const status = (await client.getScanStatus()).scanStatus
    expect(status).toEqual({ scanning: false, count: 5 })
    expect(childOf((await rest('startScan.view', {})).xml!, 'error').attributes.code).toBe('50')
    makeTone(lib('Cleo/Blue/2 Wave.mp3'), { artist: 'Cleo', album: 'Blue', genre: 'Jazz', year: 2001, title: 'Wave', seconds: 1 })
    const started = await rest('startScan.view', { f: 'json' }, adminKey)
    expect(started.json.scanStatus.scanning).toBeBoolean()
    await scanDone()
    expect((await client.getScanStatus()).scanStatus).toEqual({ scanning: false, count: 6 })
    const xml = xmlOk((await rest('getScanStatus.view', {})).xml)
    expect(childOf(xml, 'scanStatus').attributes).toEqual({ scanning: 'false', count: '6' })
    const audit = await api(server.url, 'GET', '/admin/audit', { token: adminToken })
    expect(JSON.stringify(audit.body)).toContain('library.scan')
  })

  test('getAvatar: a member without a picture, or an unknown member, is the error answer the spec allows (70)', async () => {
    const own = await rest('getAvatar.view', { username: member.username })
    expect(own.status).toBe(200)
    expect(childOf(own.xml!, 'error').attributes).toEqual({ code: '70', message: 'Avatar not found' })
    expect(childOf((await rest('getAvatar.view', { username: 'nobody-here' })).xml!, 'error').attributes).toEqual({ code: '70', message: 'User not found' })
    expect(childOf((await rest('getAvatar.view', {})).xml!, 'error').attributes.code).toBe('10')
  })

  test('tokenInfo (apiKeyAuthentication, advertised): whose key this is', async () => {
    const { openSubsonicExtensions } = await client.getOpenSubsonicExtensions()
    expect(openSubsonicExtensions).toContainEqual({ name: 'apiKeyAuthentication', versions: [1] })
    // The npm client has no tokenInfo yet: its customJSON sends the same authenticated request.
    const answer = await client.customJSON<{ tokenInfo: { username: string } }>('tokenInfo', {})
    expect(answer.tokenInfo).toEqual({ username: member.username })
    const adminName = (await adminClient.getUsers()).users.user!.find((u) => u.adminRole)!.username
    const xml = xmlOk((await rest('tokenInfo.view', {}, adminKey)).xml)
    expect(childOf(xml, 'tokenInfo').attributes.username).toBe(adminName)
  })
})
