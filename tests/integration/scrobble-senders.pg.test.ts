// Two nodes on one PostgreSQL database each run a scrobble sender (docs/decisions/090): the backlogs
// of two members waiting when both start reach ListenBrainz (the loopback stand-in, which counts
// every arrival) exactly once, all of them, each member's in the order played, while both senders
// are at work at the same moment.
// Always on PostgreSQL, whatever VIBES_TEST_ENGINE says.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { adminEnv, api, createMember } from '../helpers/api'
import { sqlOn } from '../helpers/engine'
import { ListenBrainzStandIn } from '../helpers/scrobble-services'
import { freshPostgresUrl, startServer, TEST_AUTH_SECRET, type TestServer } from '../helpers/server'

/** Listens in each member's backlog. */
const LISTENS = 150
const MEMBERS = [1, 2]
const lb = new ListenBrainzStandIn()
const nodes: TestServer[] = []
const media = mkdtempSync(path.join(tmpdir(), 'vibes-shared-media-'))
let env: Record<string, string>

const node = async () => {
  const started = await startServer(env, { dataDir: mkdtempSync(path.join(tmpdir(), 'vibes-node-')), mediaRoot: media })
  nodes.push(started)
  return started
}

async function until<T>(what: string, probe: () => T | false | Promise<T | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await Bun.sleep(50)
  }
}

beforeAll(async () => {
  lb.start()
  env = { DATABASE_URL: await freshPostgresUrl(), AUTH_SECRET: TEST_AUTH_SECRET, LISTENBRAINZ_API_URL: lb.url, ...adminEnv }
})
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()))
  await lb.stop()
  for (const dir of [...nodes.map((n) => n.dataDir), media]) rmSync(dir, { recursive: true, force: true })
})

describe('two scrobble senders on one PostgreSQL', () => {
  test('the backlogs waiting when two nodes start are sent by both, each listen exactly once and in the order played', async () => {
    // Two members connect ListenBrainz through a first node, which then stops.
    const first = await node()
    const members = []
    for (const k of MEMBERS) {
      const member = await createMember(first.url)
      const token = crypto.randomUUID()
      lb.tokens.set(token, `lb-backlog-${k}`)
      expect((await api(first.url, 'POST', '/user/scrobbling/listenbrainz', { token: member.token, body: { token } })).status).toBe(200)
      members.push(member)
    }
    await first.stop()

    // Meanwhile the backlogs: listens queued as the writer of plays queues them, played an hour ago,
    // the second member's after the first's. A sender holding a member's first listens holds back the
    // rest of that member's (sent in the order played), so the other sender takes the other member's.
    const hourAgo = Date.now() - 3_600_000
    for (const [i, member] of members.entries())
      await sqlOn(
        first,
        `INSERT INTO scrobble_queue (id, user_id, service, kind, play_id, artist, title, album, duration, played_at, next_attempt_at, created_at)
         SELECT 'backlog-${i}-' || n, CAST(? AS text), 'listenbrainz', 'listen', 'play-${i}-' || n, 'Ada & Les Ondes', 'Song ' || n, 'Dawn', 200,
                CAST(? AS bigint) + (${i * LISTENS} + n) * 1000, CAST(? AS bigint), CAST(? AS bigint)
         FROM generate_series(1, ${LISTENS}) AS n`,
        [member.user.id, hourAgo, hourAgo, hourAgo],
      )

    // The first submission waits until a second one is in flight: both senders are then sending.
    let release = () => {}
    lb.hold = new Promise((resolve) => {
      release = resolve
    })
    await Promise.all([node(), node()])
    await until('two submissions in flight at once', () => lb.inFlight >= 2)
    lb.hold = null
    release()

    const [a] = nodes.slice(1)
    await until('every listen sent', async () => {
      const [left] = await sqlOn<{ n: number }>(a, "SELECT count(*) AS n FROM scrobble_queue WHERE status <> 'sent'")
      return left.n === 0
    })
    expect(lb.problems).toEqual([])
    expect(lb.maxInFlight).toBeGreaterThanOrEqual(2)
    for (const k of MEMBERS) {
      const arrived = lb.listens.filter((l) => l.user === `lb-backlog-${k}`).map((l) => l.track)
      expect(arrived).toEqual(Array.from({ length: LISTENS }, (_, i) => `Song ${i + 1}`))
    }
    const [sent] = await sqlOn<{ n: number; once: number }>(
      a,
      "SELECT count(*) AS n, count(*) FILTER (WHERE attempts = 1) AS once FROM scrobble_queue WHERE status = 'sent'",
    )
    expect(sent).toEqual({ n: LISTENS * MEMBERS.length, once: LISTENS * MEMBERS.length })
  }, 120_000)
})
