// An app behind a round-robin load balancer: its playback reports (reportPlayback, a scrobble with
// submission=false) alternate between two nodes on one PostgreSQL database. What the member relies
// on: one play per song heard, with the seconds heard, whichever node each report reached; and
// getNowPlaying on any node shows what was reported through another. Real server processes, a
// library the scanner indexed, plain /rest calls with an app key.
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { adminEnv, api, createMember, loginAdmin } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { makeTone } from '../helpers/media'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import type { TestServer } from '../helpers/server'

type Member = Awaited<ReturnType<typeof createMember>>
let nodes: TwoNodes
let a: TestServer
let b: TestServer
let ids: Record<'short' | 'long', string>

/** A member with an app key, and a /rest caller (JSON) that names the app and picks the node. */
async function app(name = 'Symfonium') {
  const member = await createMember(a.url)
  const created = await api(a.url, 'POST', '/user/app-keys', { token: member.token, body: { name, currentPassword: member.password } })
  expect(created.status).toBe(201)
  const key = created.body.data.key as string
  const rest = async (node: TestServer, method: string, params: Record<string, string> = {}) => {
    const url = new URL(`${node.url}/rest/${method}`)
    for (const [k, v] of Object.entries({ apiKey: key, c: name, v: '1.16.1', f: 'json', ...params })) url.searchParams.set(k, v)
    const res = await fetch(url)
    expect(res.status).toBe(200)
    const body = (await res.json())['subsonic-response']
    expect(body.status).toBe('ok')
    return body
  }
  const report = (node: TestServer, mediaId: string, state: string, positionMs: number, extra: Record<string, string> = {}) =>
    rest(node, 'reportPlayback', { mediaId, mediaType: 'song', state, positionMs: String(positionMs), ...extra })
  const nowPlaying = async (node: TestServer) =>
    ((await rest(node, 'getNowPlaying')).nowPlaying.entry ?? []).map((e: { title: string; username: string; playerName?: string }) => ({
      title: e.title,
      username: e.username,
      playerName: e.playerName,
    }))
  return { member, rest, report, nowPlaying }
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
  const { rest } = await app()
  const songs = (await rest(b, 'search3', { query: '', artistCount: '0', albumCount: '0', songCount: '10' })).searchResult3.song ?? []
  const id = (title: string) => songs.find((s: { title: string }) => s.title === title)!.id as string
  ids = { short: id('Short'), long: id('Long') }
}, 90_000)
afterAll(async () => {
  await nodes?.stop()
})

describe('playback reports alternating between two nodes', () => {
  test('starting through A, playing through B, stopped through A: one play, with the seconds heard; now playing on both until the stop', async () => {
    const { member, report, nowPlaying } = await app()
    await report(a, ids.long, 'starting', 0)
    await report(b, ids.long, 'playing', 0)
    const playing = [{ title: 'Long', username: member.username, playerName: 'Symfonium' }]
    expect(await nowPlaying(a)).toEqual(playing)
    expect(await nowPlaying(b)).toEqual(playing)
    await Bun.sleep(1000)
    await report(a, ids.long, 'stopped', 1000)
    const plays = await playsOf(member)
    expect(plays.map(({ title, completed, skipped, ended }) => ({ title, completed, skipped, ended }))).toEqual([
      { title: 'Long', completed: 0, skipped: 1, ended: 1 },
    ])
    expect(plays[0].listen_duration).toBeGreaterThanOrEqual(0.8)
    expect(await nowPlaying(a)).toEqual([])
    expect(await nowPlaying(b)).toEqual([])
  })

  test('a song reported without a play (ignoreScrobble, or a scrobble with submission=false) through A shows on B, for the member and the admin', async () => {
    const { member, rest, report, nowPlaying } = await app('DSub')
    const admin = await loginAdmin(b.url)
    const adminKey = (await api(b.url, 'POST', '/user/app-keys', { token: admin, body: { name: 'Admin app', currentPassword: adminEnv.ADMIN_PASSWORD } })).body
      .data.key
    const adminSees = async () => {
      const res = await fetch(`${b.url}/rest/getNowPlaying?apiKey=${adminKey}&c=Admin%20app&v=1.16.1&f=json`)
      const entries = ((await res.json())['subsonic-response'].nowPlaying.entry ?? []) as { title: string; username: string }[]
      return entries.filter((e) => e.username === member.username).map((e) => e.title)
    }
    await rest(a, 'scrobble', { id: ids.short, submission: 'false' })
    expect(await nowPlaying(b)).toEqual([{ title: 'Short', username: member.username, playerName: 'DSub' }])
    expect(await adminSees()).toEqual(['Short'])
    await report(a, ids.long, 'paused', 5000, { ignoreScrobble: 'true' })
    expect(await nowPlaying(b)).toEqual([{ title: 'Long', username: member.username, playerName: 'DSub' }])
    expect(await adminSees()).toEqual(['Long'])
    expect(await playsOf(member)).toEqual([])
  })

  // A song's first report sent twice at once (an app retrying through the other node): either may
  // arrive first, and only one of them records the play. (A `starting` that arrives after a
  // `playing` of the same song is a restart of it, a second play, so both reports here are `playing`.)
  test('the first report of a song sent to both nodes at once, for several apps: each song is recorded once', async () => {
    const apps = await Promise.all(Array.from({ length: 6 }, (_, i) => app(`App ${i}`)))
    await Promise.all(apps.flatMap(({ report }) => [report(a, ids.long, 'playing', 0), report(b, ids.long, 'playing', 0)]))
    await Promise.all(apps.flatMap(({ report }) => [report(b, ids.short, 'playing', 0), report(a, ids.short, 'playing', 10)]))
    for (const { member } of apps) expect((await playsOf(member)).map((p) => p.title)).toEqual(['Long', 'Short'])
  })
})
