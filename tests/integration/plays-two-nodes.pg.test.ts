// Plays sent through two server processes on one PostgreSQL database, one of them killed
// (SIGKILL) part-way and started again, as a node of a cluster crashes and comes back: every play
// a node acknowledged is stored, and the analytics roll-ups (the triggers of
// src/db/migrations-pg/0002) agree with play_events to the play and the second of listening,
// whichever node wrote each play or its update and whatever the killed node left half done; a
// play sent to both nodes at once with one client key is one play.
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { startTwoNodes, type TwoNodes } from '../helpers/nodes'
import type { TestServer } from '../helpers/server'

const PLAYS = 500
/** The play after which node B is killed, and the one after which it is started again. */
const KILL_AT = 150
const RESTART_AT = 250
const CONCURRENCY = 8
const DAY = 86_400_000

let nodes: TwoNodes
let a: TestServer
let b: TestServer

beforeAll(async () => {
  nodes = await startTwoNodes()
  ;({ a, b } = nodes)
}, 60_000)
afterAll(async () => {
  await nodes?.stop()
})

/** A request that may meet a dead node: the answer, or null when none came. */
async function send(node: TestServer, method: string, route: string, token: string, body: unknown) {
  try {
    const res = await fetch(`${node.url}/api${route}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json().catch(() => null)) as { data?: { playEventId?: string } } | null }
  } catch {
    return null
  }
}

test(`${PLAYS} plays through two nodes, one killed and restarted part-way: every acknowledged play and update is counted in the roll-ups`, async () => {
  const members = await Promise.all([createMember(a.url), createMember(b.url), createMember(a.url)])
  const now = Date.now()
  const acknowledged: string[] = []
  const listened = new Map<string, number>()
  let unanswered = 0
  let bDown = false
  let restarted: Promise<void> | null = null
  let next = 0

  async function worker() {
    while (next < PLAYS) {
      const i = next++
      if (i === KILL_AT) {
        bDown = true
        await b.kill9()
      }
      if (i === RESTART_AT) {
        restarted = nodes.restart(b).then((node) => {
          b = node
          bDown = false
        })
      }
      const member = members[i % members.length]
      // Half the plays go to B, down or not: a client whose node died gets no answer.
      const [node, other] = i % 2 === 1 ? [b, a] : [a, b]
      const play = {
        trackUrl: `/media/Artist ${i % 7}/Track ${i % 23}.mp3`,
        title: `Track ${i % 23}`,
        artist: `Artist ${i % 7}`,
        genre: ['Jazz', 'Rock', 'Folk'][i % 3],
        duration: 180,
        source: i % 4 === 0 ? 'playlist' : 'direct',
        playlistId: i % 4 === 0 ? `list-${i % 3}` : undefined,
        sessionId: `session_${now}_${(i % 5).toString().padStart(9, 'a')}`,
        // Spread over the last ten days, out of order, so each play moves the running totals of later days.
        startedAt: now - ((i * 7919) % 10) * DAY - i * 1000,
      }
      const created = await send(node, 'POST', '/playlist/plays', member.token, play)
      if (created === null) {
        unanswered++
        continue
      }
      expect(created.status).toBe(201)
      const id = created.body?.data?.playEventId as string
      acknowledged.push(id)
      // Its progress through the other node, as a player behind a load balancer may send it.
      const seconds = 30 + (i % 150)
      const updated = await send(bDown && other === b ? a : other, 'PUT', `/playlist/plays/${id}`, member.token, {
        listenDuration: seconds,
        completed: seconds >= 170,
      })
      if (updated?.status === 200) listened.set(id, seconds)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  await restarted
  expect(bDown).toBe(false)

  // Every play sent to A was answered; those sent to B while it was down were not.
  expect(acknowledged.length + unanswered).toBe(PLAYS)
  expect(acknowledged.length).toBeGreaterThanOrEqual(PLAYS / 2)
  expect(unanswered).toBeGreaterThan(0)
  // The restarted node takes plays again.
  const late = await send(b, 'POST', '/playlist/plays', members[0].token, { trackUrl: '/media/late.mp3', title: 'Late', duration: 60 })
  expect(late?.status).toBe(201)
  acknowledged.push(late?.body?.data?.playEventId as string)

  // Every acknowledged play is stored, with every acknowledged update.
  const stored = await sqlOn<{ id: string; listen_duration: number }>(a, 'SELECT id, listen_duration FROM play_events')
  const byId = new Map(stored.map((r) => [r.id, Number(r.listen_duration)]))
  expect(acknowledged.filter((id) => !byId.has(id))).toEqual([])
  expect([...listened].filter(([id, seconds]) => byId.get(id) !== seconds)).toEqual([])

  // The roll-ups count exactly what play_events holds (a play B wrote but never acknowledged included).
  const one = async (query: string) => (await sqlOn<{ n: number }>(a, query))[0].n
  const plays = await one('SELECT count(*) AS n FROM play_events')
  const listen = await one('SELECT CAST(coalesce(sum(listen_duration), 0) AS bigint) AS n FROM play_events')
  const completions = await one('SELECT count(*) AS n FROM play_events WHERE completed')
  expect(plays).toBeGreaterThanOrEqual(acknowledged.length)
  expect({
    plays: await one('SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_totals'),
    listen: await one('SELECT CAST(sum(listen) AS bigint) AS n FROM rollup_day_totals'),
    completions: await one('SELECT CAST(sum(completions) AS bigint) AS n FROM rollup_day_totals'),
    hours: await one('SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_hours'),
    genres: await one('SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_genres'),
    tracks: await one('SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_tracks'),
    members: await one('SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_users'),
    memberListen: await one('SELECT CAST(sum(listen) AS bigint) AS n FROM rollup_day_users'),
  }).toEqual({ plays, listen, completions, hours: plays, genres: plays, tracks: plays, members: plays, memberListen: listen })
  // The running totals: each member's latest day and each track's latest day count all their plays.
  const runningOff = await sqlOn(
    a,
    `SELECT u.user_id FROM rollup_day_users u
        WHERE u.day = (SELECT max(day) FROM rollup_day_users WHERE user_id = u.user_id)
          AND (u.cum_plays <> (SELECT count(*) FROM play_events WHERE user_id = u.user_id)
            OR u.cum_listen <> (SELECT coalesce(sum(listen_duration), 0) FROM play_events WHERE user_id = u.user_id))
       UNION ALL
       SELECT t.track_key FROM rollup_day_tracks t
        WHERE t.day = (SELECT max(day) FROM rollup_day_tracks WHERE track_key = t.track_key)
          AND t.cum_plays <> (SELECT count(*) FROM play_events WHERE track_key = t.track_key)`,
  )
  expect(runningOff).toEqual([])
}, 180_000)

test('a play sent to both nodes at once with one client key (a retry racing its lost first send) is recorded and counted once', async () => {
  const member = await createMember(a.url)
  const KEYS = 20
  const keys = Array.from({ length: KEYS }, () => crypto.randomUUID())
  const answers = await Promise.all(
    keys.flatMap((clientPlayId, i) =>
      [a, b].map((node) =>
        send(node, 'POST', '/playlist/plays', member.token, { trackUrl: `/media/Race/${i}.mp3`, title: `Race ${i}`, duration: 60, clientPlayId }),
      ),
    ),
  )
  expect(answers.map((r) => r?.status)).toEqual(Array(KEYS * 2).fill(201))
  const stored = await sqlOn<{ id: string; client_play_id: string }>(a, 'SELECT id, client_play_id FROM play_events WHERE user_id = ?', [member.user.id])
  expect(stored.map((r) => r.client_play_id).sort()).toEqual([...keys].sort())
  // Both nodes answered each key with the id of its one row.
  const idOf = new Map(stored.map((r) => [r.client_play_id, r.id]))
  expect(keys.map((_, i) => [answers[2 * i]?.body?.data?.playEventId, answers[2 * i + 1]?.body?.data?.playEventId])).toEqual(
    keys.map((key) => [idOf.get(key), idOf.get(key)]),
  )
  const [counted] = await sqlOn<{ n: number }>(a, 'SELECT CAST(sum(plays) AS bigint) AS n FROM rollup_day_users WHERE user_id = ?', [member.user.id])
  expect(counted.n).toBe(KEYS)
}, 60_000)
