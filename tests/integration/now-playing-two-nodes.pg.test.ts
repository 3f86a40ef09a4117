// An app behind a round-robin load balancer: its playback reports (reportPlayback, a scrobble with
// submission=false) alternate between two nodes on one PostgreSQL database. What the member relies
// on: one play per song heard, with the seconds heard, whichever node each report reached; and
// getNowPlaying on any node shows what was reported through another. Real server processes, a
// library the scanner indexed, and the npm client (subsonic-api, JSON) with an app key: one client
// per node, the same key on both, as an app's requests land on either node.
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { SubsonicAPI } from 'subsonic-api'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { makeTone } from '../helpers/media'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import type { TestServer } from '../helpers/server'

type Member = Awaited<ReturnType<typeof createMember>>
type Node = 'a' | 'b'
let nodes: TwoNodes
let a: TestServer
let b: TestServer
let ids: Record<'short' | 'long', string>

/** The npm client names itself in every request (c=subsonic-api): the player name getNowPlaying shows. */
const PLAYER = 'subsonic-api'

/** One client per node, both with the same app key. */
const clientsFor = (key: string): Record<Node, SubsonicAPI> => ({
  a: new SubsonicAPI({ url: a.url, auth: { apiKey: key } }),
  b: new SubsonicAPI({ url: b.url, auth: { apiKey: key } }),
})

/** The answer of a /rest call that must succeed. */
async function ok<T extends { status: string }>(answer: Promise<T>): Promise<T> {
  const body = await answer
  expect(body.status).toBe('ok')
  return body
}

/** A member with an app key, their client on each node, and the calls the tests make through them. */
async function app(name = 'Symfonium') {
  const member = await createMember(a.url)
  const created = await api(a.url, 'POST', '/user/app-keys', { token: member.token, body: { name, currentPassword: member.password } })
  expect(created.status).toBe(201)
  const on = clientsFor(created.body.data.key as string)
  const report = (node: Node, mediaId: string, state: 'starting' | 'playing' | 'paused' | 'stopped', positionMs: number, ignoreScrobble?: boolean) =>
    ok(on[node].reportPlayback({ mediaId, mediaType: 'song', state, positionMs, ignoreScrobble }))
  const nowPlaying = async (node: Node) =>
    ((await ok(on[node].getNowPlaying())).nowPlaying.entry ?? []).map((e) => ({ title: e.title, username: e.username, playerName: e.playerName }))
  return { member, on, report, nowPlaying }
}

const playsOf = (m: Member) =>
  sqlOn<{ title: string; listen_duration: number; completed: number; skipped: number; ended: number }>(
    a,
    `SELECT title, listen_duration, CASE WHEN completed THEN 1 ELSE 0 END AS completed, CASE WHEN skipped THEN 1 ELSE 0 END AS skipped,
       CASE WHEN ended_at IS NULL THEN 0 ELSE 1 END AS ended FROM play_events WHERE user_id = ? ORDER BY started_at`,
    [m.user.id],
  )

beforeAll(async () => {
  nodes = await startTwoNodes(adminEnv, { sharedMedia: true })
  ;({ a, b } = nodes)
  const lib = (p: string) => path.join(nodes.media!, p)
  makeTone(lib('Ada/Dawn/1 Short.mp3'), { artist: 'Ada', album: 'Dawn', title: 'Short', seconds: 1, metadata: { track: '1' } })
  makeTone(lib('Ada/Dawn/2 Long.mp3'), { artist: 'Ada', album: 'Dawn', title: 'Long', seconds: 30, metadata: { track: '2' } })
  const admin = await loginAdmin(a.url)
  const scanning = async () => (await api(a.url, 'GET', '/admin/library/scan', { token: admin })).body.data.scanning
  for (let i = 0; i < 200 && (await scanning()); i++) await Bun.sleep(50)
  expect((await api(a.url, 'POST', '/admin/library/scan', { token: admin, body: {} })).status).toBe(202)
  for (let i = 0; i < 400 && (await scanning()); i++) await Bun.sleep(50)
  const { on } = await app()
  const songs = (await ok(on.b.search3({ query: '', artistCount: 0, albumCount: 0, songCount: 10 }))).searchResult3.song ?? []
  const id = (title: string) => songs.find((s) => s.title === title)!.id
  ids = { short: id('Short'), long: id('Long') }
}, 90_000)
afterAll(async () => {
  await nodes?.stop()
})

describe('playback reports alternating between two nodes', () => {
  test('starting through A, playing through B, stopped through A: one play, with the seconds heard; now playing on both until the stop', async () => {
    const { member, report, nowPlaying } = await app()
    await report('a', ids.long, 'starting', 0)
    await report('b', ids.long, 'playing', 0)
    const playing = [{ title: 'Long', username: member.username, playerName: PLAYER }]
    expect(await nowPlaying('a')).toEqual(playing)
    expect(await nowPlaying('b')).toEqual(playing)
    await Bun.sleep(1000)
    await report('a', ids.long, 'stopped', 1000)
    const plays = await playsOf(member)
    expect(plays.map(({ title, completed, skipped, ended }) => ({ title, completed, skipped, ended }))).toEqual([
      { title: 'Long', completed: 0, skipped: 1, ended: 1 },
    ])
    expect(plays[0].listen_duration).toBeGreaterThanOrEqual(0.8)
    expect(await nowPlaying('a')).toEqual([])
    expect(await nowPlaying('b')).toEqual([])
  })

  test('a song reported without a play (ignoreScrobble, or a scrobble with submission=false) through A shows on B, for the member and the admin', async () => {
    const { member, on, report, nowPlaying } = await app('DSub')
    const admin = await loginAdmin(b.url)
    const adminKey = (await api(b.url, 'POST', '/user/app-keys', { token: admin, body: { name: 'Admin app', currentPassword: adminEnv.ADMIN_PASSWORD } })).body
      .data.key as string
    const adminOn = clientsFor(adminKey)
    const adminSees = async () =>
      ((await ok(adminOn.b.getNowPlaying())).nowPlaying.entry ?? []).filter((e) => e.username === member.username).map((e) => e.title)
    await ok(on.a.scrobble({ id: ids.short, submission: false }))
    expect(await nowPlaying('b')).toEqual([{ title: 'Short', username: member.username, playerName: PLAYER }])
    expect(await adminSees()).toEqual(['Short'])
    await report('a', ids.long, 'paused', 5000, true)
    expect(await nowPlaying('b')).toEqual([{ title: 'Long', username: member.username, playerName: PLAYER }])
    expect(await adminSees()).toEqual(['Long'])
    expect(await playsOf(member)).toEqual([])
  })

  // A song's first report sent twice at once (an app retrying through the other node): either may
  // arrive first, and only one of them records the play. (A `starting` that arrives after a
  // `playing` of the same song is a restart of it, a second play, so both reports here are `playing`.)
  test('the first report of a song sent to both nodes at once, for several apps: each song is recorded once', async () => {
    const apps = await Promise.all(Array.from({ length: 6 }, (_, i) => app(`App ${i}`)))
    await Promise.all(apps.flatMap(({ report }) => [report('a', ids.long, 'playing', 0), report('b', ids.long, 'playing', 0)]))
    await Promise.all(apps.flatMap(({ report }) => [report('b', ids.short, 'playing', 0), report('a', ids.short, 'playing', 10)]))
    for (const { member } of apps) expect((await playsOf(member)).map((p) => p.title)).toEqual(['Long', 'Short'])
  })
})
