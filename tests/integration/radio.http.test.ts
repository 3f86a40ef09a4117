// Internet radio (decision 077) against the real built server and a real Icecast server fed by
// ffmpeg on loopback (127.0.0.2, the one host REMOTE_ALLOW_HOSTS lets through): an admin keeps
// the stations (REST and /rest), URLs pass the remote-folder address policy (loopback, private
// and non-http addresses are a 400 naming why), members list them with their favourites first,
// listen through the server's stream (plain MP3, no ICY metadata in the bytes), read the title
// the station sends now, and their plays are counted under the source `radio`; a member may not
// change stations through either door.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { ICECAST_HOST, startIcecast, type TestIcecast } from '../helpers/icecast'
import { restCall } from '../helpers/rest-surface'
import { startServer, type TestServer } from '../helpers/server'
import { childOf, childrenOf, parseXml } from '../helpers/xml'

let icecast: TestIcecast
let server: TestServer
let adminToken: string
let member: Awaited<ReturnType<typeof createMember>>
let liveUrl: string
const TITLE = 'Nina Simone – Feeling Good'

async function appKey(token: string, password: string) {
  const created = await api(server.url, 'POST', '/user/app-keys', { token, body: { name: 'Radio app', currentPassword: password } })
  expect(created.status).toBe(201)
  return created.body.data.key as string
}

beforeAll(async () => {
  icecast = await startIcecast()
  await icecast.feed('/live.mp3', 'Vibes Test FM')
  await icecast.setTitle('/live.mp3', TITLE)
  liveUrl = `${icecast.url}/live.mp3`
  server = await startServer({ ...adminEnv, REMOTE_ALLOW_HOSTS: ICECAST_HOST })
  adminToken = await loginAdmin(server.url)
  member = await createMember(server.url)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await icecast?.stop()
})

const addStation = (body: unknown, token = adminToken) => api(server.url, 'POST', '/admin/radio/stations', { token, body })

/** The station the first test adds; the plays test plays it. */
let liveId: string

describe('stations', () => {
  let otherId: string

  test('an admin adds stations; members list them, favourites first, then by name', async () => {
    const live = await addStation({ name: 'Zulu Live', streamUrl: liveUrl, homepageUrl: `${icecast.url}/` })
    expect(live.status).toBe(201)
    liveId = live.body.data.id
    const other = await addStation({ name: 'Alpha Radio', streamUrl: `${icecast.url}/other.mp3`, homepageUrl: '' })
    expect(other.status).toBe(201)
    otherId = other.body.data.id

    const listed = await api(server.url, 'GET', '/radio/stations', { token: member.token })
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((s: { name: string }) => s.name)).toEqual(['Alpha Radio', 'Zulu Live'])
    expect(listed.body.data[1]).toMatchObject({
      id: liveId,
      streamUrl: liveUrl,
      homepageUrl: `${icecast.url}/`,
      favourite: false,
      listenUrl: `/api/radio/stream/${liveId}`,
      createdBy: 'admin',
    })
    expect(listed.body.data[0].homepageUrl).toBeNull()

    const starred = await api(server.url, 'PUT', `/radio/stations/${liveId}/favourite`, { token: member.token, body: { favourite: true } })
    expect(starred.status).toBe(200)
    const mine = await api(server.url, 'GET', '/radio/stations', { token: member.token })
    expect(mine.body.data.map((s: { name: string; favourite: boolean }) => [s.name, s.favourite])).toEqual([
      ['Zulu Live', true],
      ['Alpha Radio', false],
    ])
    // Favourites are each member's own.
    const admins = await api(server.url, 'GET', '/radio/stations', { token: adminToken })
    expect(admins.body.data.map((s: { name: string }) => s.name)).toEqual(['Alpha Radio', 'Zulu Live'])
  })

  test('an admin renames and deletes; a member may do neither, nor add', async () => {
    const renamed = await api(server.url, 'PUT', `/admin/radio/stations/${otherId}`, {
      token: adminToken,
      body: { name: 'Alpha Two', streamUrl: `${icecast.url}/other.mp3` },
    })
    expect(renamed.status).toBe(200)
    expect((await addStation({ name: 'Mine', streamUrl: liveUrl }, member.token)).status).toBe(403)
    const change = await api(server.url, 'PUT', `/admin/radio/stations/${otherId}`, { token: member.token, body: { name: 'x', streamUrl: liveUrl } })
    expect(change.status).toBe(403)
    expect((await api(server.url, 'DELETE', `/admin/radio/stations/${otherId}`, { token: member.token })).status).toBe(403)
    const gone = await api(server.url, 'DELETE', `/admin/radio/stations/${otherId}`, { token: adminToken })
    expect(gone.status).toBe(200)
    expect((await api(server.url, 'DELETE', `/admin/radio/stations/${otherId}`, { token: adminToken })).body.error).toBe('Radio station not found')
    const listed = await api(server.url, 'GET', '/radio/stations', { token: member.token })
    expect(listed.body.data.map((s: { name: string }) => s.name)).toEqual(['Zulu Live'])
  })

  test('refused addresses are a 400 naming why, and nothing is saved', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'Loop', streamUrl: 'http://127.0.0.1:8000/live' }, /127\.0\.0\.1 is a loopback address/],
      [{ name: 'LAN', streamUrl: 'http://192.168.1.20:8000/live' }, /192\.168\.1\.20 is a private address \(set REMOTE_ALLOW_PRIVATE or REMOTE_ALLOW_HOSTS/],
      [{ name: 'Meta', streamUrl: 'http://169.254.169.254/latest' }, /link-local address/],
      [{ name: 'Home', streamUrl: liveUrl, homepageUrl: 'http://[::1]/' }, /::1 is a loopback address/],
      [{ name: 'File', streamUrl: 'file:///etc/passwd' }, /valid URL starting with http/],
      [{ name: '', streamUrl: liveUrl }, /Name is required/],
    ]
    for (const [body, message] of cases) {
      const res = await addStation(body)
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
    }
    const listed = await api(server.url, 'GET', '/radio/stations', { token: adminToken })
    expect(listed.body.data).toHaveLength(1)
  })

  test('the station title comes from its ICY metadata', async () => {
    const res = await api(server.url, 'GET', `/radio/stations/${liveId}/now-playing`, { token: member.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ id: liveId, title: TITLE })
  })

  test('a member listens through the server: MP3 frames as the station sends them, without ICY metadata', async () => {
    expect((await fetch(`${server.url}/api/radio/stream/${liveId}`)).status).toBe(401)
    const asMember = { headers: { authorization: `Bearer ${member.token}` } }
    expect((await fetch(`${server.url}/api/radio/stream/nope`, asMember)).status).toBe(404)
    // Malformed or missing ids are a 4xx naming the problem, never a fault.
    for (const bad of ['%E0%A4%A', '', `${liveId}/extra`, 'x'.repeat(5000)]) {
      const res = await fetch(`${server.url}/api/radio/stream/${bad}`, asMember)
      expect(res.status).toBe(404)
      expect((await res.json()).error).toBe('Radio station not found')
    }
    expect((await fetch(`${server.url}/api/radio/stream/${liveId}`, { ...asMember, method: 'POST' })).status).toBe(405)
    const res = await fetch(`${server.url}/api/radio/stream/${liveId}`, { headers: { authorization: `Bearer ${member.token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    let bytes = new Uint8Array(0)
    while (bytes.length < 40_000) {
      const { value, done } = await reader.read()
      if (done) break
      const next = new Uint8Array(bytes.length + value.length)
      next.set(bytes)
      next.set(value, bytes.length)
      bytes = next
    }
    await reader.cancel()
    expect(bytes.length).toBeGreaterThanOrEqual(40_000)
    // An MPEG audio frame header (11 sync bits) near the start, and no metadata block anywhere.
    expect(bytes.slice(0, 4096).some((b, i) => b === 0xff && (bytes[i + 1] & 0xe0) === 0xe0)).toBe(true)
    expect(new TextDecoder('latin1').decode(bytes)).not.toContain('StreamTitle')
  })

  test('a station that does not answer is a 502 naming the station, not a hang', async () => {
    const dead = await addStation({ name: 'Off Air', streamUrl: `http://${ICECAST_HOST}:1/live` })
    expect(dead.status).toBe(201)
    const res = await fetch(`${server.url}/api/radio/stream/${dead.body.data.id}`, { headers: { authorization: `Bearer ${member.token}` } })
    expect(res.status).toBe(502)
    expect((await res.json()).error).toMatch(/^Off Air: Nothing answers at that address/)
    expect((await api(server.url, 'DELETE', `/admin/radio/stations/${dead.body.data.id}`, { token: adminToken })).status).toBe(200)
  })

  test('a station that redirects into a refused address is refused when it is opened, every hop judged', async () => {
    // Saved while its host is allowed; its answer then sends the server to loopback.
    const redirector = Bun.serve({ hostname: ICECAST_HOST, port: 0, fetch: () => Response.redirect('http://127.0.0.1:9/live.mp3', 302) })
    try {
      const saved = await addStation({ name: 'Bouncer', streamUrl: `http://${ICECAST_HOST}:${redirector.port}/live.mp3` })
      expect(saved.status).toBe(201)
      const asMember = { headers: { authorization: `Bearer ${member.token}` } }
      const res = await fetch(`${server.url}/api/radio/stream/${saved.body.data.id}`, asMember)
      expect(res.status).toBe(502)
      expect((await res.json()).error).toBe('Bouncer: Remote URL refused: 127.0.0.1 is a loopback address')
      const title = await api(server.url, 'GET', `/radio/stations/${saved.body.data.id}/now-playing`, { token: member.token })
      expect(title.body.data.title).toBeNull()
      expect((await api(server.url, 'DELETE', `/admin/radio/stations/${saved.body.data.id}`, { token: adminToken })).status).toBe(200)
    } finally {
      redirector.stop(true)
    }
  })
})

describe('radio plays', () => {
  test('plays of a station are counted under the source radio', async () => {
    const play = await api(server.url, 'POST', '/playlist/plays', {
      token: member.token,
      body: { trackUrl: `/api/radio/stream/${liveId}`, title: 'Zulu Live', source: 'radio' },
    })
    expect(play.status).toBe(201)
    const overview = await api(server.url, 'GET', '/analytics/listening-overview?days=7', { token: adminToken })
    expect(overview.status).toBe(200)
    expect(overview.body.data.sources).toContainEqual(expect.objectContaining({ source: 'radio', count: 1 }))
  })
})

describe('/rest internet radio methods', () => {
  let adminKey: string
  let memberKey: string

  beforeAll(async () => {
    adminKey = await appKey(adminToken, ADMIN.password)
    memberKey = await appKey(member.token, member.password)
  })

  test('getInternetRadioStations in XML and JSON, in the spec shape', async () => {
    const xml = await restCall(server.url, 'getInternetRadioStations', { apiKey: memberKey })
    expect(xml.ok).toBe(true)
    const stations = childrenOf(childOf(parseXml(xml.text), 'internetRadioStations'), 'internetRadioStation')
    expect(stations.map((s) => s.attributes)).toEqual([{ id: expect.any(String), name: 'Zulu Live', streamUrl: liveUrl, homePageUrl: `${icecast.url}/` }])
    const json = await restCall(server.url, 'getInternetRadioStations', { apiKey: memberKey, f: 'json' })
    expect(JSON.parse(json.text)['subsonic-response'].internetRadioStations.internetRadioStation).toEqual([
      { id: stations[0].attributes.id, name: 'Zulu Live', streamUrl: liveUrl, homePageUrl: `${icecast.url}/` },
    ])
  })

  test('an admin creates, updates and deletes; a member is refused with error 50', async () => {
    for (const method of ['createInternetRadioStation', 'updateInternetRadioStation', 'deleteInternetRadioStation']) {
      const refused = await restCall(server.url, method, { apiKey: memberKey, id: 'x', name: 'Mine', streamUrl: liveUrl })
      expect(refused.code).toBe(50)
    }
    const created = await restCall(server.url, 'createInternetRadioStation', { apiKey: adminKey, name: 'App FM', streamUrl: `${icecast.url}/app.mp3` })
    expect(created.ok).toBe(true)
    const list = async () =>
      JSON.parse((await restCall(server.url, 'getInternetRadioStations', { apiKey: adminKey, f: 'json' })).text)['subsonic-response'].internetRadioStations
        .internetRadioStation as Array<{ id: string; name: string; homePageUrl?: string }>
    const app = (await list()).find((s) => s.name === 'App FM')
    expect(app?.homePageUrl).toBeUndefined()
    const updated = await restCall(server.url, 'updateInternetRadioStation', {
      apiKey: adminKey,
      id: app?.id ?? '',
      name: 'App FM 2',
      streamUrl: `${icecast.url}/app.mp3`,
      homepageUrl: 'http://93.184.215.14/',
    })
    expect(updated.ok).toBe(true)
    expect((await list()).find((s) => s.id === app?.id)).toMatchObject({ name: 'App FM 2', homePageUrl: 'http://93.184.215.14/' })
    const refusedHost = await restCall(server.url, 'createInternetRadioStation', { apiKey: adminKey, name: 'Loop', streamUrl: 'http://127.0.0.1/live' })
    expect(refusedHost).toMatchObject({ status: 200, ok: false, code: 0 })
    expect(refusedHost.message).toMatch(/loopback address/)
    expect((await restCall(server.url, 'createInternetRadioStation', { apiKey: adminKey, name: 'No URL' })).code).toBe(10)
    expect((await restCall(server.url, 'deleteInternetRadioStation', { apiKey: adminKey, id: app?.id ?? '' })).ok).toBe(true)
    expect((await restCall(server.url, 'deleteInternetRadioStation', { apiKey: adminKey, id: app?.id ?? '' })).code).toBe(70)
    expect((await list()).map((s) => s.name)).toEqual(['Zulu Live'])
  })
})
