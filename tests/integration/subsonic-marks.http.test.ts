// Older apps' login and a member's own marks over /rest, against the real built server and a
// library the scanner indexed (decision 066). An app key used as the password (p, plain and enc:)
// and in token login (t = md5(key + s)), what the npm client sends for a username and password;
// the account password still answers 41 to token login; a key made before keys were kept
// encrypted still works with apiKey and p, and /profile says it needs renewing for token login.
// Ratings (setRating, userRating, getAlbumList(2) type=highest) and bookmarks (getBookmarks,
// createBookmark, deleteBookmark), each through the npm client (JSON) and raw XML: another
// member's marks are invisible and unchangeable, bad ids and values are a failed answer naming the
// problem with HTTP 200.
import { sqlOn } from '../helpers/engine'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let server: TestServer
let adminToken: string
let member: Awaited<ReturnType<typeof createMember>>
let other: Awaited<ReturnType<typeof createMember>>
let memberKey: string
let otherKey: string
let client: SubsonicAPI
let otherClient: SubsonicAPI
const lib = (p: string) => path.join(server.mediaRoot, p)
const md5 = (s: string) => createHash('md5').update(s).digest('hex')
const hex = (s: string) => Buffer.from(s).toString('hex')

async function scan() {
  expect((await api(server.url, 'POST', '/admin/library/scan', { token: adminToken, body: {} })).status).toBe(202)
  for (let i = 0; i < 200; i++) {
    if (!(await api(server.url, 'GET', '/admin/library/scan', { token: adminToken })).body.data.scanning) return
    await Bun.sleep(50)
  }
  throw new Error('scan did not finish')
}

async function appKey(token: string, password: string, name = 'DSub') {
  const created = await api(server.url, 'POST', '/user/app-keys', { token, body: { name, currentPassword: password } })
  expect(created.status).toBe(201)
  return created.body.data as { id: string; key: string }
}

/** A raw /rest call (no credential added): HTTP status, the XML root or the JSON answer. */
async function rest(method: string, params: Record<string, string>) {
  const url = new URL(`${server.url}/rest/${method}`)
  for (const [k, v] of Object.entries({ c: 'vibes-test', v: '1.16.1', ...params })) url.searchParams.append(k, v)
  const res = await fetch(url)
  const text = await res.text()
  const xml = res.headers.get('content-type')?.includes('xml') ? parseXml(text) : undefined
  const json = params.f === 'json' ? JSON.parse(text)['subsonic-response'] : undefined
  return { status: res.status, xml, json }
}
const withKey = (params: Record<string, string> = {}, key = memberKey) => ({ apiKey: key, ...params })
const errorOf = (answer: unknown) => (answer as { status: string; error?: { code: number; message: string } }).error

async function songNamed(title: string) {
  const found = (await client.search3({ query: title, artistCount: 0, albumCount: 0 })).searchResult3.song?.find((s) => s.title === title)
  if (!found) throw new Error(`no song ${title}`)
  return found
}

beforeAll(async () => {
  server = await startServer(adminEnv)
  const dawn = { artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999 }
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { ...dawn, title: 'First Light', seconds: 2, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Love.mp3'), { ...dawn, title: 'Love', seconds: 1, metadata: { track: '2' } })
  makeTone(lib('Cleo/Blue/1 Sea.mp3'), { artist: 'Cleo', album: 'Blue', genre: 'Jazz', year: 2001, title: 'Sea', seconds: 1 })
  makeTone(lib('Björk/Homogenic/01 Hunter.mp3'), { artist: 'Björk', album: 'Homogenic', genre: 'Electronic', year: 1997, title: 'Hunter', seconds: 1 })
  adminToken = await loginAdmin(server.url)
  member = await createMember(server.url)
  other = await createMember(server.url)
  await scan()
  memberKey = (await appKey(member.token, member.password)).key
  otherKey = (await appKey(other.token, other.password)).key
  client = new SubsonicAPI({ url: server.url, auth: { apiKey: memberKey } })
  otherClient = new SubsonicAPI({ url: server.url, auth: { apiKey: otherKey } })
})
afterAll(async () => {
  await server?.stop()
})

describe('an app key as the password, for apps that ask for a username and password', () => {
  test('token login (t = md5(key + s)) with an app key passes: the npm client given the key as its password', async () => {
    const tokenClient = new SubsonicAPI({ url: server.url, auth: { username: member.username, password: memberKey } })
    expect((await tokenClient.ping()).status).toBe('ok')
    expect((await tokenClient.getAlbumList2({ type: 'alphabeticalByName' })).albumList2.album?.map((a) => a.name)).toEqual(['Blue', 'Dawn', 'Homogenic'])
    // The same in XML, by e-mail too, and the token in upper case.
    const salt = 'c19b2d'
    for (const u of [member.username, member.email]) {
      const { xml } = await rest('ping.view', { u, t: md5(memberKey + salt).toUpperCase(), s: salt })
      expect(xml!.attributes.status).toBe('ok')
    }
  })

  test('token login with the account password still answers 41 (Vibes keeps no reversible password); a wrong key 41 too', async () => {
    const salt = 'a1b2c3'
    const cases = [md5(member.password + salt), md5(`${memberKey}x${salt}`), md5(otherKey + salt), 'not-an-md5']
    for (const t of cases) {
      const { status, xml } = await rest('ping.view', { u: member.username, t, s: salt })
      expect(status).toBe(200)
      expect(xml!.attributes.status).toBe('failed')
      expect(childOf(xml!, 'error').attributes.code).toBe('41')
    }
    const passwordClient = new SubsonicAPI({ url: server.url, auth: { username: member.username, password: member.password } })
    expect(errorOf(await passwordClient.ping())?.code).toBe(41)
    // An unknown user: the same answer, so it does not tell which accounts exist.
    expect(childOf((await rest('ping.view', { u: 'nobody-here', t: md5(memberKey + salt), s: salt })).xml!, 'error').attributes.code).toBe('41')
  })

  test('p = the key, plain or enc: hex, signs in as its member; the key under another username is error 40', async () => {
    for (const p of [memberKey, `enc:${hex(memberKey)}`]) {
      const { json } = await rest('getUser.view', { u: member.username, p, username: member.username, f: 'json' })
      expect(json.status).toBe('ok')
      expect(json.user.username).toBe(member.username)
    }
    const { xml } = await rest('ping.view', { u: other.username, p: memberKey })
    expect(childOf(xml!, 'error').attributes.code).toBe('40')
    // The account password keeps working as p.
    expect((await rest('ping.view', { u: member.username, p: member.password })).xml!.attributes.status).toBe('ok')
  })

  test('a revoked key no longer works as the password or in token login', async () => {
    const made = await appKey(member.token, member.password, 'Old phone')
    const salt = 'ff00ee'
    expect((await rest('ping.view', { u: member.username, t: md5(made.key + salt), s: salt })).xml!.attributes.status).toBe('ok')
    expect((await api(server.url, 'DELETE', `/user/app-keys/${made.id}`, { token: member.token })).status).toBe(200)
    expect(childOf((await rest('ping.view', { u: member.username, t: md5(made.key + salt), s: salt })).xml!, 'error').attributes.code).toBe('41')
    expect(childOf((await rest('ping.view', { u: member.username, p: made.key })).xml!, 'error').attributes.code).toBe('40')
  })

  test('a key made before keys were kept encrypted: apiKey and p still work, token login answers 41, and /profile says it needs a new key', async () => {
    const made = await appKey(member.token, member.password, 'Before the upgrade')
    // What the ratings_bookmarks_app_key_secrets migration leaves for a key made before it: the hash, no ciphertext.
    await sqlOn(server, 'UPDATE app_keys SET key_secret = NULL WHERE id = ?', [made.id])
    expect((await rest('ping.view', withKey({}, made.key))).xml!.attributes.status).toBe('ok')
    expect((await rest('ping.view', { u: member.username, p: made.key })).xml!.attributes.status).toBe('ok')
    const salt = '0a0b0c'
    expect(childOf((await rest('ping.view', { u: member.username, t: md5(made.key + salt), s: salt })).xml!, 'error').attributes.code).toBe('41')
    const list = await api(server.url, 'GET', '/user/app-keys', { token: member.token })
    const keys = list.body.data.keys as { id: string; tokenLogin: boolean }[]
    expect(keys.find((k) => k.id === made.id)?.tokenLogin).toBe(false)
    expect(keys.find((k) => k.id !== made.id)?.tokenLogin).toBe(true)
  })

  test('apiKey keeps working, tokenInfo names its member, and apiKeyAuthentication is advertised', async () => {
    expect((await client.customJSON<{ tokenInfo: { username: string } }>('tokenInfo', {})).tokenInfo).toEqual({ username: member.username })
    expect((await client.getOpenSubsonicExtensions()).openSubsonicExtensions).toContainEqual({ name: 'apiKeyAuthentication', versions: [1] })
  })
})

describe('ratings', () => {
  test('setRating 1–5 on a song shows as userRating in its song shapes; 0 clears it', async () => {
    const love = await songNamed('Love')
    expect((await client.setRating({ id: love.id, rating: 4 })).status).toBe('ok')
    expect((await client.getSong({ id: love.id })).song.userRating).toBe(4)
    const { xml } = await rest('getSong.view', withKey({ id: love.id }))
    expect(childOf(xml!, 'song').attributes.userRating).toBe('4')
    const album = (await client.getAlbum({ id: love.albumId! })).album
    expect(album.song?.map((s) => [s.title, s.userRating])).toEqual([
      ['First Light', undefined],
      ['Love', 4],
    ])
    expect((await client.setRating({ id: love.id, rating: 0 })).status).toBe('ok')
    expect((await client.getSong({ id: love.id })).song.userRating).toBeUndefined()
  })

  test('ratings are per member: another member neither sees nor changes them', async () => {
    const sea = await songNamed('Sea')
    expect((await client.setRating({ id: sea.id, rating: 5 })).status).toBe('ok')
    expect((await otherClient.getSong({ id: sea.id })).song.userRating).toBeUndefined()
    expect((await otherClient.setRating({ id: sea.id, rating: 1 })).status).toBe('ok')
    expect((await client.getSong({ id: sea.id })).song.userRating).toBe(5)
    expect((await otherClient.getSong({ id: sea.id })).song.userRating).toBe(1)
    expect((await otherClient.setRating({ id: sea.id, rating: 0 })).status).toBe('ok')
    expect((await client.getSong({ id: sea.id })).song.userRating).toBe(5)
  })

  test("albums and artists take ratings too; getAlbumList2 and getAlbumList type=highest list this member's rated albums, best first", async () => {
    const albums = (await client.getAlbumList2({ type: 'alphabeticalByName' })).albumList2.album!
    const byName = Object.fromEntries(albums.map((a) => [a.name, a]))
    expect((await client.setRating({ id: byName.Homogenic.id, rating: 5 })).status).toBe('ok')
    expect((await client.setRating({ id: byName.Blue.id, rating: 3 })).status).toBe('ok')
    expect((await client.setRating({ id: byName.Dawn.artistId!, rating: 2 })).status).toBe('ok')
    // The other member rates Dawn highest: it must not show in this member's list.
    expect((await otherClient.setRating({ id: byName.Dawn.id, rating: 5 })).status).toBe('ok')
    const highest = (await client.getAlbumList2({ type: 'highest' })).albumList2.album!
    expect(highest.map((a) => [a.name, a.userRating])).toEqual([
      ['Homogenic', 5],
      ['Blue', 3],
    ])
    const { xml } = await rest('getAlbumList.view', withKey({ type: 'highest' }))
    expect(childrenOf(childOf(xml!, 'albumList'), 'album').map((a) => [a.attributes.title, a.attributes.userRating])).toEqual([
      ['Homogenic', '5'],
      ['Blue', '3'],
    ])
    expect((await otherClient.getAlbumList2({ type: 'highest' })).albumList2.album?.map((a) => a.name)).toEqual(['Dawn'])
    expect((await client.getAlbum({ id: byName.Blue.id })).album.userRating).toBe(3)
    expect(((await client.getArtist({ id: byName.Dawn.artistId! })).artist as { userRating?: number }).userRating).toBe(2)
  })

  test('a bad id or rating is a failed answer naming the problem, HTTP 200, in XML and JSON', async () => {
    const love = await songNamed('Love')
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ id: love.id, rating: '6' }, '0', /rating/],
      [{ id: love.id, rating: '-1' }, '0', /rating/],
      [{ id: love.id, rating: 'five' }, '0', /rating/],
      [{ id: love.id }, '10', /rating/],
      [{ rating: '3' }, '10', /id/],
      [{ id: 'no-such-id', rating: '3' }, '70', /not found/],
    ]
    for (const [params, code, message] of cases) {
      const { status, xml } = await rest('setRating.view', withKey(params))
      expect(status).toBe(200)
      expect(childOf(xml!, 'error').attributes.code).toBe(code)
      expect(childOf(xml!, 'error').attributes.message).toMatch(message)
      const { json } = await rest('setRating.view', withKey({ ...params, f: 'json' }))
      expect(json.status).toBe('failed')
      expect(json.error.code).toBe(Number(code))
    }
  })
})

describe('bookmarks', () => {
  test('createBookmark → getBookmarks (the Bookmark shape with its song) → deleteBookmark, through the npm client', async () => {
    const first = await songNamed('First Light')
    expect((await client.createBookmark({ id: first.id, position: 1500, comment: 'the bridge' })).status).toBe('ok')
    const { bookmarks } = await client.getBookmarks()
    expect(bookmarks.bookmark).toHaveLength(1)
    const mark = bookmarks.bookmark![0]
    expect(mark).toMatchObject({ position: 1500, comment: 'the bridge', username: member.username })
    expect(mark.entry).toMatchObject({ id: first.id, title: 'First Light', isDir: false })
    expect(typeof mark.created).toBe('string')
    expect(typeof mark.changed).toBe('string')
    // A second one for the same song moves it.
    expect((await client.createBookmark({ id: first.id, position: 900 })).status).toBe('ok')
    const moved = (await client.getBookmarks()).bookmarks.bookmark!
    expect(moved.map((b) => [b.position, b.comment ?? ''])).toEqual([[900, '']])
    // XML: bookmark elements with an entry child.
    const { xml } = await rest('getBookmarks.view', withKey())
    const marks = childrenOf(childOf(xml!, 'bookmarks'), 'bookmark')
    expect(marks.map((b) => [b.attributes.position, b.attributes.username, childOf(b, 'entry').attributes.title])).toEqual([
      ['900', member.username, 'First Light'],
    ])
    expect((await client.deleteBookmark({ id: first.id })).status).toBe('ok')
    expect((await client.getBookmarks()).bookmarks.bookmark ?? []).toEqual([])
  })

  test("another member's bookmarks are invisible and cannot be deleted", async () => {
    const hunter = await songNamed('Hunter')
    expect((await client.createBookmark({ id: hunter.id, position: 400 })).status).toBe('ok')
    expect((await otherClient.getBookmarks()).bookmarks.bookmark ?? []).toEqual([])
    const deleted = await otherClient.deleteBookmark({ id: hunter.id })
    expect(errorOf(deleted)?.code).toBe(70)
    expect((await client.getBookmarks()).bookmarks.bookmark?.map((b) => b.position)).toEqual([400])
    expect((await client.deleteBookmark({ id: hunter.id })).status).toBe('ok')
  })

  test('bad ids, positions and comments are a failed answer naming the problem, HTTP 200', async () => {
    const love = await songNamed('Love')
    const cases: [string, Record<string, string>, string, RegExp][] = [
      ['createBookmark', { id: love.id }, '10', /position/],
      ['createBookmark', { position: '10' }, '10', /id/],
      ['createBookmark', { id: love.id, position: '-5' }, '0', /position/],
      ['createBookmark', { id: love.id, position: 'soon' }, '0', /position/],
      ['createBookmark', { id: 'nope', position: '10' }, '70', /not found/],
      ['createBookmark', { id: love.id, position: '10', comment: 'x'.repeat(1001) }, '0', /comment/],
      ['deleteBookmark', {}, '10', /id/],
      ['deleteBookmark', { id: love.id }, '70', /not found/],
    ]
    for (const [method, params, code, message] of cases) {
      const { status, xml } = await rest(`${method}.view`, withKey(params))
      expect(status).toBe(200)
      expect(childOf(xml!, 'error').attributes.code).toBe(code)
      expect(childOf(xml!, 'error').attributes.message).toMatch(message)
      const { json } = await rest(`${method}.view`, withKey({ ...params, f: 'json' }))
      expect(json.error.code).toBe(Number(code))
    }
  })
})
