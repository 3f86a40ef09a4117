// Share links (decision 069) against the real built server and a scanned library: a member
// shares a track or an album (REST and tRPC, and /rest through the `subsonic-api` client); anyone
// opens the link without an account and gets only the shared tracks with signed URLs that reach
// only those files; plays through a link are recorded with source `share` and counted per share;
// an expired, revoked or unknown link is refused with its message (410 / 404 page, no stack);
// another member's shares are invisible and unchangeable; bad input is a 4xx or a Subsonic error
// naming the problem; opening links is rate-limited per address.
import { sqlOn } from '../helpers/engine'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import superjson from 'superjson'
import { SubsonicAPI } from 'subsonic-api'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { scanLibraryNow } from '../helpers/library-scan'
import { makeTone } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let server: TestServer
let adminToken: string
let owner: Awaited<ReturnType<typeof createMember>>
let other: Awaited<ReturnType<typeof createMember>>
let ownerApp: SubsonicAPI
let otherApp: SubsonicAPI
let ownerKey: string
const lib = (p: string) => path.join(server.mediaRoot, p)

/** A tRPC call over HTTP as a browser makes it; `token` signs it in, none is a visitor. */
async function trpc(type: 'query' | 'mutation', procedure: string, input: unknown, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const encoded = JSON.stringify(superjson.serialize(input))
  const res =
    type === 'query'
      ? await fetch(`${server.url}/api/trpc/${procedure}?input=${encodeURIComponent(encoded)}`, { headers })
      : await fetch(`${server.url}/api/trpc/${procedure}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: encoded })
  const text = await res.text()
  const body = JSON.parse(text)
  return {
    status: res.status,
    text,
    data: body.result ? superjson.deserialize(body.result.data) : undefined,
    message: body.error?.json?.message as string | undefined,
  }
}

async function appKey(m: { token: string; password: string }) {
  const created = await api(server.url, 'POST', '/user/app-keys', { token: m.token, body: { name: 'Feishin', currentPassword: m.password } })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

async function songId(title: string) {
  const found = (await ownerApp.search3({ query: title, artistCount: 0, albumCount: 0 })).searchResult3.song?.find((s) => s.title === title)
  if (!found) throw new Error(`no song ${title}`)
  return found.id
}

async function shareTrack(title: string, extra: Record<string, unknown> = {}) {
  const res = await api(server.url, 'POST', '/user/shares', { token: owner.token, body: { target: { kind: 'track', id: await songId(title) }, ...extra } })
  expect(res.status).toBe(201)
  return res.body.data as { id: string; path: string; title: string; expiresAt: number | null; visitCount: number; playCount: number }
}

type Opening = {
  state: string
  message?: string
  share?: { title: string; tracks: Array<{ title: string; artist: string; album: string; url: string; cover?: string; duration: number }> }
}
const open = async (id: string) => (await trpc('query', 'shares.open', { id })).data as Opening

beforeAll(async () => {
  server = await startServer(adminEnv)
  const dawn = { artist: 'Ada', album: 'Dawn', genre: 'Jazz', year: 1999 }
  makeTone(lib('Ada/Dawn/1 First Light.mp3'), { ...dawn, title: 'First Light', seconds: 1, cover: true, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Noon.mp3'), { ...dawn, title: 'Noon', seconds: 1, metadata: { track: '2' } })
  makeTone(lib('Ada/Dawn/3 Dusk.mp3'), { ...dawn, title: 'Dusk', seconds: 1, metadata: { track: '3' } })
  makeTone(lib('Cleo/Blue/1 Sea.mp3'), { artist: 'Cleo', album: 'Blue', title: 'Sea', seconds: 1 })
  // Only the playlist tests use this one: its file is removed there.
  makeTone(lib('Cleo/Blue/2 Wave.mp3'), { artist: 'Cleo', album: 'Blue', title: 'Wave', seconds: 1 })
  adminToken = await loginAdmin(server.url)
  await scanLibraryNow(server.url, adminToken)
  owner = await createMember(server.url)
  other = await createMember(server.url)
  ownerKey = await appKey(owner)
  ownerApp = new SubsonicAPI({ url: server.url, auth: { apiKey: ownerKey } })
  otherApp = new SubsonicAPI({ url: server.url, auth: { apiKey: await appKey(other) } })
})
afterAll(async () => {
  await server?.stop()
})

describe('a member shares a track and anyone plays it without an account', () => {
  test('the link has an unguessable id, opens to only the shared track, and its signed URL plays that file', async () => {
    const share = await shareTrack('First Light', { description: 'For you', expiresIn: '1d' })
    expect(share.id).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(share.path).toBe(`/s/${share.id}`)
    expect(share.title).toBe('First Light')
    expect(share.expiresAt! - Date.now()).toBeGreaterThan(86_400_000 - 60_000)

    const opened = await trpc('query', 'shares.open', { id: share.id })
    expect(opened.status).toBe(200)
    const data = opened.data as Opening
    expect(data.state).toBe('open')
    expect(data.share!.tracks.map((t) => [t.title, t.artist, t.album, Math.round(t.duration)])).toEqual([['First Light', 'Ada', 'Dawn', 1]])
    // Nothing of the member: no e-mail, no username, no library ids.
    for (const secret of [owner.email, owner.username, owner.user.id, await songId('First Light')]) expect(opened.text).not.toContain(secret)

    const track = data.share!.tracks[0]
    const media = await fetch(`${server.url}${track.url}`)
    expect(media.status).toBe(200)
    expect(media.headers.get('content-type')).toBe('audio/mpeg')
    expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000)
    expect((await fetch(`${server.url}${track.cover}`)).status).toBe(200)
    // The URL ends with the link: not after the share's own expiry.
    expect(Number(new URL(track.url, server.url).searchParams.get('exp')) * 1000).toBeLessThanOrEqual(share.expiresAt!)
  })

  test("a share's signed URL cannot be turned into another track: the same signature on another file is refused", async () => {
    const share = await shareTrack('Noon')
    const url = new URL((await open(share.id)).share!.tracks[0].url, server.url)
    expect((await fetch(url)).status).toBe(200)
    for (const other of ['Ada/Dawn/3%20Dusk.mp3', 'Cleo/Blue/1%20Sea.mp3']) {
      const forged = new URL(`/media/${other}${url.search}`, server.url)
      const res = await fetch(forged)
      expect(res.status).toBe(403)
      expect(await res.text()).toBe('Media link is not signed')
    }
  })

  test('the public page /s/<id> is served without a session and shows the title, artist and album', async () => {
    const share = await shareTrack('Dusk', { description: 'A quiet one' })
    const page = await fetch(`${server.url}/s/${share.id}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    for (const text of ['Dusk', 'Ada', 'Dawn', 'A quiet one']) expect(html).toContain(text)
    expect(html).not.toContain(owner.email)
  })

  test('an album share holds its tracks in album order', async () => {
    const album = (await ownerApp.search3({ query: 'Dawn', artistCount: 0, songCount: 0 })).searchResult3.album![0]
    const res = await api(server.url, 'POST', '/user/shares', { token: owner.token, body: { target: { kind: 'album', id: album.id }, expiresIn: 'never' } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ kind: 'album', title: 'Dawn', trackCount: 3, expiresAt: null })
    expect((await open(res.body.data.id)).share!.tracks.map((t) => t.title)).toEqual(['First Light', 'Noon', 'Dusk'])
  })

  test('visits and plays are counted per share; a play through a link is a play event with source share and no member, shown in the admin analytics', async () => {
    const share = await shareTrack('Sea')
    await open(share.id)
    await open(share.id)
    const played = await trpc('mutation', 'shares.play', { id: share.id, index: 0 })
    expect(played.status).toBe(200)
    expect(played.data).toEqual({ playCount: 1 })
    const listed = (await api(server.url, 'GET', '/user/shares', { token: owner.token })).body.data.shares.find((s: { id: string }) => s.id === share.id)
    expect(listed).toMatchObject({ visitCount: 2, playCount: 1 })
    expect(listed.lastVisitedAt).toBeNumber()

    const rows = await sqlOn(server, `SELECT user_id AS "userId", source, title, track_url AS "trackUrl" FROM play_events WHERE source = 'share'`)
    expect(rows).toEqual([{ userId: null, source: 'share', title: 'Sea', trackUrl: '/media/Cleo/Blue/1%20Sea.mp3' }])
    const overview = await api(server.url, 'GET', '/analytics/listening-overview?days=7', { token: adminToken })
    expect(overview.body.data.sources).toContainEqual(expect.objectContaining({ source: 'share', count: 1 }))

    const beyond = await trpc('mutation', 'shares.play', { id: share.id, index: 1 })
    expect(beyond.status).toBe(404)
    expect(beyond.message).toBe('This share has no such track')
  })
})

describe('expired, revoked and unknown links', () => {
  test('once the clock passes its expiry the link says "This share link has expired" (410 page, no stack) and no longer plays', async () => {
    const share = await shareTrack('Noon', { expiresIn: '1d' })
    expect((await open(share.id)).state).toBe('open')
    await sqlOn(server, 'UPDATE shares SET expires_at = ? WHERE id = ?', [Date.now() - 1000, share.id])
    expect(await open(share.id)).toEqual({ state: 'expired', message: 'This share link has expired' })
    const page = await fetch(`${server.url}/s/${share.id}`)
    expect(page.status).toBe(410)
    const html = await page.text()
    expect(html).toContain('This share link has expired')
    expect(html).not.toMatch(/\bat .{0,200}:\d+:\d+|\/src\//)
    expect(html).not.toContain('Noon')
    const play = await trpc('mutation', 'shares.play', { id: share.id, index: 0 })
    expect(play.status).toBe(404)
    expect(play.message).toBe('This share link has expired')
    const listed = (await api(server.url, 'GET', '/user/shares', { token: owner.token })).body.data.shares.find((s: { id: string }) => s.id === share.id)
    expect(listed.expired).toBe(true)
  })

  test('a revoked link says "This share link was revoked" (410) and drops off the list', async () => {
    const share = await shareTrack('Dusk')
    const revoked = await api(server.url, 'DELETE', `/user/shares/${share.id}`, { token: owner.token })
    expect(revoked.status).toBe(200)
    expect(await open(share.id)).toEqual({ state: 'revoked', message: 'This share link was revoked' })
    const page = await fetch(`${server.url}/s/${share.id}`)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain('This share link was revoked')
    const list = (await api(server.url, 'GET', '/user/shares', { token: owner.token })).body.data.shares
    expect(list.map((s: { id: string }) => s.id)).not.toContain(share.id)
  })

  test('an unknown link is a 404 page saying so', async () => {
    const page = await fetch(`${server.url}/s/AAAAAAAAAAAAAAAAAAAAAAAA`)
    expect(page.status).toBe(404)
    expect(await page.text()).toContain('This share link does not exist')
  })
})

describe("another member's shares", () => {
  test('are not listed and cannot be revoked (404), over REST and tRPC', async () => {
    const share = await shareTrack('First Light')
    const list = (await api(server.url, 'GET', '/user/shares', { token: other.token })).body.data.shares
    expect(list).toEqual([])
    const revoke = await api(server.url, 'DELETE', `/user/shares/${share.id}`, { token: other.token })
    expect(revoke.status).toBe(404)
    expect(revoke.body.error).toBe('Share not found')
    const viaTrpc = await trpc('mutation', 'shares.revoke', { id: share.id }, other.token)
    expect(viaTrpc.status).toBe(404)
    expect((await open(share.id)).state).toBe('open')
  })
})

describe('bad input is a 4xx naming the problem', () => {
  test('creating', async () => {
    const id = await songId('Sea')
    const cases: Array<[unknown, number, string]> = [
      [{ target: { kind: 'track', id }, expiresIn: '2d' }, 400, 'Expiry must be one of 1d, 7d, 30d, never'],
      [{ target: { kind: 'folder', id } }, 400, 'Target kind must be one of track, trackUrl, album, playlist'],
      [{ target: { kind: 'playlist', id } }, 404, 'Playlist not found'],
      [{}, 400, 'Target is required'],
      [{ target: { kind: 'track', id }, description: 'x'.repeat(201) }, 400, 'Description must be at most 200 characters'],
      [{ target: { kind: 'track', id: 'no-such-track' } }, 404, 'Track not found'],
      [{ target: { kind: 'album', id: 'no-such-album' } }, 404, 'Album not found'],
      [{ target: { kind: 'trackUrl', url: 'https://example.com/a.mp3' } }, 400, 'Only tracks of the server library can be shared as a link'],
    ]
    for (const [body, status, message] of cases) {
      const res = await api(server.url, 'POST', '/user/shares', { token: owner.token, body })
      expect([res.status, res.body.error]).toEqual([status, expect.stringContaining(message)])
    }
    // The player names a track by its signed /media URL.
    const byUrl = await api(server.url, 'POST', '/user/shares', {
      token: owner.token,
      body: { target: { kind: 'trackUrl', url: '/media/Cleo/Blue/1%20Sea.mp3?exp=1&sig=x' } },
    })
    expect(byUrl.status).toBe(201)
    expect(byUrl.body.data.title).toBe('Sea')
  })

  test('a visitor without an account cannot create, and a malformed link id is 400', async () => {
    expect((await api(server.url, 'POST', '/user/shares', { body: { target: { kind: 'track', id: 'x' } } })).status).toBe(401)
    const bad = await trpc('query', 'shares.open', { id: '../etc' })
    expect(bad.status).toBe(400)
    expect(bad.message).toBe('Share id is not a share link id')
    const index = await trpc('mutation', 'shares.play', { id: 'AAAAAAAAAAAAAAAAAAAAAAAA', index: -1 })
    expect([index.status, index.message]).toEqual([400, 'Track index must be at least 0'])
  })
})

describe('OpenSubsonic getShares, createShare, updateShare, deleteShare', () => {
  test('createShare answers the share with its public url and entries; getShares lists it in JSON and XML', async () => {
    const id = await songId('Noon')
    const expires = Date.now() + 3 * 86_400_000
    const created = await ownerApp.createShare({ id, description: 'From my phone', expires })
    expect(created.status).toBe('ok')
    const share = created.shares.share![0]
    expect(share.url).toMatch(new RegExp(`^${server.url}/s/[A-Za-z0-9_-]{24}$`))
    expect(share).toMatchObject({ description: 'From my phone', username: owner.username, visitCount: 0 })
    expect(new Date(share.expires!).getTime()).toBe(expires)
    expect(share.entry!.map((e) => e.title)).toEqual(['Noon'])
    const shareId = share.url.split('/s/')[1]
    expect(share.id).toBe(shareId)

    const listed = (await ownerApp.getShares()).shares.share!.find((s) => s.id === shareId)!
    expect(listed.entry![0].id).toBe(id)
    const xml = parseXml(await (await fetch(`${server.url}/rest/getShares.view?apiKey=${ownerKey}&c=t&v=1.16.1`)).text())
    expect(xml.attributes.status).toBe('ok')
    const xmlShare = childrenOf(childOf(xml, 'shares'), 'share').find((s) => s.attributes.id === shareId)!
    expect(xmlShare.attributes).toMatchObject({ url: share.url, description: 'From my phone', username: owner.username, visitCount: '0' })
    expect(childrenOf(xmlShare, 'entry').map((e) => e.attributes.title)).toEqual(['Noon'])

    // The page opens as the web's share does.
    expect((await open(shareId)).share!.tracks[0].title).toBe('Noon')
  })

  test('several song ids share together; one album id shares the album; with no expires the link never expires', async () => {
    const ids = [await songId('Dusk'), await songId('Sea')]
    const many = (await ownerApp.createShare({ id: ids })).shares.share![0]
    expect(many.entry!.map((e) => e.title)).toEqual(['Dusk', 'Sea'])
    expect(many.expires).toBeUndefined()
    const album = (await ownerApp.search3({ query: 'Dawn', artistCount: 0, songCount: 0 })).searchResult3.album![0]
    const albumShare = (await ownerApp.createShare({ id: album.id })).shares.share![0]
    expect(albumShare.entry!.map((e) => e.title)).toEqual(['First Light', 'Noon', 'Dusk'])
  })

  test("updateShare changes the description and expiry; deleteShare revokes; another member's share is error 70 and stays invisible", async () => {
    const share = (await ownerApp.createShare({ id: await songId('Sea') })).shares.share![0]
    expect((await ownerApp.updateShare({ id: share.id, description: 'Renamed', expires: Date.now() + 86_400_000 })).status).toBe('ok')
    const updated = (await ownerApp.getShares()).shares.share!.find((s) => s.id === share.id)!
    expect(updated.description).toBe('Renamed')
    expect(updated.expires).toBeDefined()

    // Only an id: nothing to change, still a success.
    expect((await ownerApp.updateShare({ id: share.id })).status).toBe('ok')
    expect((await ownerApp.getShares()).shares.share!.find((s) => s.id === share.id)!.description).toBe('Renamed')

    expect((await otherApp.getShares()).shares.share ?? []).toEqual([])
    for (const call of [() => otherApp.updateShare({ id: share.id, description: 'Mine now' }), () => otherApp.deleteShare({ id: share.id })]) {
      const answer = (await call()) as unknown as { status: string; error: { code: number; message: string } }
      expect(answer).toMatchObject({ status: 'failed', error: { code: 70, message: 'Share not found' } })
    }
    expect((await open(share.id)).state).toBe('open')

    expect((await ownerApp.deleteShare({ id: share.id })).status).toBe('ok')
    expect((await open(share.id)).state).toBe('revoked')
    expect((await ownerApp.getShares()).shares.share!.map((s) => s.id)).not.toContain(share.id)
  })

  test('bad input is a failed answer naming the problem', async () => {
    const call = async (method: string, params: Record<string, string>) => {
      const url = new URL(`${server.url}/rest/${method}`)
      for (const [k, v] of Object.entries({ apiKey: ownerKey, c: 't', v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
      const res = await fetch(url)
      expect(res.status).toBe(200)
      return (await res.json())['subsonic-response'].error as { code: number; message: string }
    }
    expect(await call('createShare', {})).toEqual({ code: 10, message: 'Required parameter is missing: id' })
    expect(await call('createShare', { id: 'no-such-song' })).toEqual({ code: 70, message: 'Song, album or playlist not found' })
    const id = await songId('Sea')
    expect(await call('createShare', { id, expires: String(Date.now() - 60_000) })).toEqual({
      code: 0,
      message: 'Parameter expires must be in the future (milliseconds since 1970, or 0 for never)',
    })
    expect(await call('createShare', { id, expires: 'tomorrow' })).toEqual({ code: 0, message: 'Parameter expires must be a whole number' })
    expect(await call('updateShare', {})).toEqual({ code: 10, message: 'Required parameter is missing: id' })
    expect(await call('deleteShare', { id: 'nope' })).toEqual({ code: 70, message: 'Share not found' })
  })
})

describe('a member shares one of their playlists', () => {
  /** A playlist of the owner's (or `m`'s) with these songs, in this order. */
  async function playlist(name: string, titles: string[], m = owner, extra: Record<string, unknown> = {}) {
    const trackIds = await Promise.all(titles.map(songId))
    const res = await api(server.url, 'POST', '/user/playlists', { token: m.token, body: { name, trackIds, ...extra } })
    expect(res.status).toBe(201)
    return res.body.data.id as string
  }
  const sharePlaylist = (id: string, token = owner.token) => api(server.url, 'POST', '/user/shares', { token, body: { target: { kind: 'playlist', id } } })

  test('the link opens anonymously to the playlist name and its tracks in playlist order, as the playlist is when opened; its URLs play only those files', async () => {
    const id = await playlist('Road trip', ['Sea', 'First Light', 'Wave'])
    const res = await sharePlaylist(id)
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ kind: 'playlist', title: 'Road trip', trackCount: 3 })
    const shareId = res.body.data.id as string

    const opened = await trpc('query', 'shares.open', { id: shareId })
    expect(opened.status).toBe(200)
    const share = (opened.data as Opening).share!
    expect(share.title).toBe('Road trip')
    expect(share.tracks.map((t) => t.title)).toEqual(['Sea', 'First Light', 'Wave'])
    // No playlist id, no member.
    for (const secret of [id, owner.username, owner.email]) expect(opened.text).not.toContain(secret)
    for (const t of share.tracks) expect((await fetch(`${server.url}${t.url}`)).status).toBe(200)
    const forged = new URL(`/media/Ada/Dawn/2%20Noon.mp3${new URL(share.tracks[0].url, server.url).search}`, server.url)
    expect((await fetch(forged)).status).toBe(403)

    const page = await fetch(`${server.url}/s/${shareId}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    for (const text of ['Road trip', 'Sea', 'First Light', 'Wave']) expect(html).toContain(text)

    // The link follows the playlist: a track added and a move show at the next opening.
    expect((await api(server.url, 'POST', `/user/playlists/${id}/tracks`, { token: owner.token, body: { trackIds: [await songId('Noon')] } })).status).toBe(200)
    expect((await api(server.url, 'POST', `/user/playlists/${id}/tracks/move`, { token: owner.token, body: { from: 0, to: 3 } })).status).toBe(200)
    expect((await open(shareId)).share!.tracks.map((t) => t.title)).toEqual(['First Light', 'Wave', 'Noon', 'Sea'])
    const played = await trpc('mutation', 'shares.play', { id: shareId, index: 3 })
    expect(played.data).toEqual({ playCount: 1 })

    // A track whose file has gone is left out; the others still play.
    await Bun.file(lib('Cleo/Blue/2 Wave.mp3')).delete()
    await scanLibraryNow(server.url, adminToken)
    const after = (await open(shareId)).share!
    expect(after.tracks.map((t) => t.title)).toEqual(['First Light', 'Noon', 'Sea'])
    for (const t of after.tracks) expect((await fetch(`${server.url}${t.url}`)).status).toBe(200)
  })

  test('/rest createShare with a playlist id shares that playlist', async () => {
    const id = await playlist('From the app', ['Dusk', 'Noon'])
    const created = await ownerApp.createShare({ id, description: 'Listen' })
    expect(created.status).toBe('ok')
    const share = created.shares.share![0]
    expect(share.entry!.map((e) => e.title)).toEqual(['Dusk', 'Noon'])
    const opened = await open(share.id)
    expect(opened.share!.title).toBe('From the app')
    expect(opened.share!.tracks.map((t) => t.title)).toEqual(['Dusk', 'Noon'])
  })

  test('another member cannot share my playlist, even a public one (404 / error 70), over REST, tRPC and /rest', async () => {
    for (const isPublic of [true, false]) {
      const id = await playlist(isPublic ? 'Open to all' : 'Just mine', ['Sea'], owner, { public: isPublic })
      const rest = await sharePlaylist(id, other.token)
      expect([rest.status, rest.body.error]).toEqual([404, 'Playlist not found'])
      const viaTrpc = await trpc('mutation', 'shares.create', { target: { kind: 'playlist', id } }, other.token)
      expect([viaTrpc.status, viaTrpc.message]).toEqual([404, 'Playlist not found'])
      const app = (await otherApp.createShare({ id })) as unknown as { status: string; error: { code: number; message: string } }
      expect(app).toMatchObject({ status: 'failed', error: { code: 70, message: 'Song, album or playlist not found' } })
    }
    expect((await api(server.url, 'GET', '/user/shares', { token: other.token })).body.data.shares).toEqual([])
  })

  test('a deleted playlist: its link says so (410 page, no stack), plays nothing, and the lists still answer', async () => {
    const id = await playlist('Soon gone', ['Noon', 'Dusk'])
    const shareId = (await sharePlaylist(id)).body.data.id as string
    expect((await api(server.url, 'DELETE', `/user/playlists/${id}`, { token: owner.token })).status).toBe(200)

    expect(await open(shareId)).toEqual({ state: 'gone', message: 'The shared playlist was deleted' })
    const page = await fetch(`${server.url}/s/${shareId}`)
    expect(page.status).toBe(410)
    const html = await page.text()
    expect(html).toContain('The shared playlist was deleted')
    expect(html).not.toMatch(/\bat .{0,200}:\d+:\d+|\/src\//)
    const play = await trpc('mutation', 'shares.play', { id: shareId, index: 0 })
    expect([play.status, play.message]).toEqual([404, 'The shared playlist was deleted'])

    const listed = (await api(server.url, 'GET', '/user/shares', { token: owner.token })).body.data.shares.find((s: { id: string }) => s.id === shareId)
    expect(listed).toMatchObject({ kind: 'playlist', title: 'Deleted playlist', trackCount: 0 })
    const app = (await ownerApp.getShares()).shares.share!.find((s) => s.id === shareId)!
    expect(app.entry ?? []).toEqual([])
  })
})

describe('rate limit', () => {
  test('opening links is limited per address (429 past 60 a minute)', async () => {
    const limited = await startServer({ ...adminEnv, RATE_LIMIT: 'on' })
    try {
      const input = encodeURIComponent(JSON.stringify(superjson.serialize({ id: 'AAAAAAAAAAAAAAAAAAAAAAAA' })))
      const statuses: number[] = []
      for (let i = 0; i < 61; i++) statuses.push((await fetch(`${limited.url}/api/trpc/shares.open?input=${input}`)).status)
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true)
      expect(statuses[60]).toBe(429)
    } finally {
      await limited.stop()
    }
  })
})

test('the admin is not involved: an admin key sees none of the members shares', async () => {
  const adminApp = new SubsonicAPI({ url: server.url, auth: { apiKey: await appKey({ token: adminToken, password: ADMIN.password }) } })
  expect((await adminApp.getShares()).shares.share ?? []).toEqual([])
})
