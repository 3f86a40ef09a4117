// A play sent again after its answer was lost (a timeout, a proxy cutting the connection, a node
// killed after the insert committed, the page closing mid-answer): the web player's tracker
// re-sends it with the same client key (`clientPlayId`), and the server records it once and
// answers the first send's id. Over HTTP against the built server, on either engine.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server.stop()
})

const play = {
  trackUrl: '/media/Jazz/So%20What.mp3',
  title: 'So What',
  artist: 'Miles Davis',
  genre: 'Jazz',
  duration: 545,
  source: 'playlist',
  playlistId: 'remote',
  sessionId: 'session_1714000000000_abc123xyz',
  sessionPosition: 1,
  networkType: 'wifi',
}

/** The member's plays as the analytics see them: play_events rows and the roll-up's count. */
async function playsOf(userId: string) {
  const [events] = await sqlOn<{ n: number }>(server, 'SELECT count(*) AS n FROM play_events WHERE user_id = ?', [userId])
  const [rollup] = await sqlOn<{ n: number | null }>(server, 'SELECT sum(plays) AS n FROM rollup_day_users WHERE user_id = ?', [userId])
  return { rows: Number(events.n), counted: Number(rollup.n ?? 0) }
}

const send = (token: string, body: unknown) => api(server.url, 'POST', '/playlist/plays', { token, body })

/** The web player's door: the tRPC procedure its tracker calls. */
async function sendByTrpc(token: string, input: unknown) {
  const res = await fetch(`${server.url}/api/trpc/playlist.plays.create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ json: input }),
  })
  const body = (await res.json()) as { result?: { data: { json: { playEventId: string } } }; error?: { json: { message: string } } }
  return { status: res.status, playEventId: body.result?.data.json.playEventId, message: body.error?.json.message }
}

describe('a play sent again with its client key', () => {
  test('is recorded once, and the repeat answers the first send’s id (REST and tRPC doors alike)', async () => {
    const m = await createMember(server.url)
    const clientPlayId = crypto.randomUUID()
    const first = await send(m.token, { ...play, clientPlayId })
    expect(first.status).toBe(201)
    const id = first.body.data.playEventId as string
    // The answer was lost: the tracker sends the same play again, maybe to another node.
    const again = await send(m.token, { ...play, clientPlayId })
    expect(again).toMatchObject({ status: 201, body: { success: true, data: { playEventId: id } } })
    expect(await sendByTrpc(m.token, { ...play, clientPlayId })).toEqual({ status: 200, playEventId: id, message: undefined })
    expect(await playsOf(m.user.id)).toEqual({ rows: 1, counted: 1 })
    const [row] = await sqlOn(server, 'SELECT id, client_play_id FROM play_events WHERE user_id = ?', [m.user.id])
    expect(row).toEqual({ id, client_play_id: clientPlayId })
    // The play's updates go to the one row.
    expect((await api(server.url, 'PUT', `/playlist/plays/${id}`, { token: m.token, body: { listenDuration: 60 } })).status).toBe(200)
    // A new play (a new key) is a new row.
    const next = await send(m.token, { ...play, clientPlayId: crypto.randomUUID() })
    expect(next.status).toBe(201)
    expect(next.body.data.playEventId).not.toBe(id)
    expect(await playsOf(m.user.id)).toEqual({ rows: 2, counted: 2 })
  })

  test('sent at once several times (two nodes racing), it is recorded once and every answer names that play', async () => {
    const m = await createMember(server.url)
    const clientPlayId = crypto.randomUUID()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? sendByTrpc(m.token, { ...play, clientPlayId }) : send(m.token, { ...play, clientPlayId }))),
    )
    const ids = answers.map((a) => ('playEventId' in a ? a.playEventId : a.body.data?.playEventId))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201, 201, 201, 201])
    expect(new Set(ids).size).toBe(1)
    expect(await playsOf(m.user.id)).toEqual({ rows: 1, counted: 1 })
    const [row] = await sqlOn<{ id: string }>(server, 'SELECT id FROM play_events WHERE user_id = ?', [m.user.id])
    expect(ids[0]).toBe(row.id)
  })

  test('keys are each member’s own: the same key from another member is another play', async () => {
    const [a, b] = [await createMember(server.url), await createMember(server.url)]
    const clientPlayId = crypto.randomUUID()
    const fromA = await send(a.token, { ...play, clientPlayId })
    const fromB = await send(b.token, { ...play, clientPlayId })
    expect([fromA.status, fromB.status]).toEqual([201, 201])
    expect(fromB.body.data.playEventId).not.toBe(fromA.body.data.playEventId)
    expect(await playsOf(a.user.id)).toEqual({ rows: 1, counted: 1 })
    expect(await playsOf(b.user.id)).toEqual({ rows: 1, counted: 1 })
    // B's play cannot be reached through A's key, nor A's through B's.
    expect((await send(a.token, { ...play, clientPlayId })).body.data.playEventId).toBe(fromA.body.data.playEventId)
  })

  test('a bad key is a 400 naming it, and nothing is stored', async () => {
    const m = await createMember(server.url)
    const rule = 'Client play id must be 8 to 64 letters, digits, - or _'
    for (const [clientPlayId, error] of [
      ['short', rule],
      ['x'.repeat(65), rule],
      ['has space in it', rule],
      ["' OR 1=1 --", rule],
      ['abcdefgh\u0000', 'clientPlayId: Text may not contain a NUL character'],
      ['', rule],
      [12345678, 'Client play id must be text'],
      [null, 'Client play id must be text'],
    ] as const) {
      expect(await send(m.token, { ...play, clientPlayId })).toMatchObject({ status: 400, body: { success: false, error } })
      expect(await sendByTrpc(m.token, { ...play, clientPlayId })).toEqual({ status: 400, playEventId: undefined, message: error })
    }
    expect(await playsOf(m.user.id)).toEqual({ rows: 0, counted: 0 })
  })

  test('a play without a key is recorded as before: each send is a play', async () => {
    const m = await createMember(server.url)
    const first = await send(m.token, play)
    const second = await send(m.token, play)
    expect([first.status, second.status]).toEqual([201, 201])
    expect(second.body.data.playEventId).not.toBe(first.body.data.playEventId)
    expect(await playsOf(m.user.id)).toEqual({ rows: 2, counted: 2 })
    const keys = await sqlOn(server, 'SELECT client_play_id FROM play_events WHERE user_id = ?', [m.user.id])
    expect(keys).toEqual([{ client_play_id: null }, { client_play_id: null }])
  })
})
