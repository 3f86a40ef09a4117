// Two devices of one member hand a queue back and forth without ping-pong: the player's queue sync
// (src/client/features/player/queue-sync.ts) on two sessions of the same member, each saving and
// loading over real HTTP against the built server. After B resumes A's queue and saves it at the
// same track, A — which still holds that queue at that track — is not offered it back; once B
// moves on to another track, A is offered B's queue.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { EngineState } from '~/client/features/player/engine'
import { createQueueSync, SAVED_AT_KEY } from '~/client/features/player/queue-sync'
import type { SavedQueue } from '~/shared/player/play-queue'
import { api, createMember } from '../helpers/api'
import { startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const TRACKS = ['a', 'b', 'c'].map((n) => ({ url: `https://music.example/${n}.mp3`, title: `Song ${n.toUpperCase()}` }))

/** One device: its own login session, storage and player state, and the queue sync between them. */
async function device(email: string, password: string, name: string) {
  const login = await api(server.url, 'POST', '/auth/login', { body: { email, password } })
  expect(login.status).toBe(200)
  const token = login.body.data.token as string
  const stored = new Map<string, string>()
  let engine: Pick<EngineState, 'tracks' | 'index' | 'playing' | 'context'> | null = null
  const sync = createQueueSync({
    api: {
      load: async () => (await api(server.url, 'GET', '/playlist/queue', { token })).body.data as SavedQueue,
      save: async (q) => {
        const res = await api(server.url, 'PUT', '/playlist/queue', { token, body: q })
        if (res.status !== 200) throw new Error(`save failed: ${res.status}`)
        return res.body.data as { updatedAt: number }
      },
    },
    storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
    device: name,
    current: () => engine,
  })
  return {
    sync,
    /** Plays `tracks` at `index` and waits for the sync's (debounced) save to reach the server. */
    async play(tracks: typeof TRACKS, index: number) {
      const before = stored.get(SAVED_AT_KEY)
      engine = { tracks: tracks as EngineState['tracks'], index, playing: true, context: { source: 'remote' } }
      sync.observe(engine as EngineState, 1)
      const deadline = Date.now() + 10_000
      while (stored.get(SAVED_AT_KEY) === before && Date.now() < deadline) await Bun.sleep(50)
      expect(stored.get(SAVED_AT_KEY)).not.toBe(before)
    },
  }
}

test('a device is not offered back the queue it holds at the same track; it is once the other device moves on', async () => {
  const m = await createMember(server.url)
  const phone = await device(m.email, m.password, 'Phone')
  const laptop = await device(m.email, m.password, 'Laptop')

  await phone.play(TRACKS, 1)
  await laptop.sync.check()
  const offered = laptop.sync.offer()
  expect(offered?.device).toBe('Phone')
  expect(offered?.index).toBe(1)

  // The laptop resumes the phone's queue and plays it at the same track: its save is newer than
  // the phone's, but the phone holds that very queue at that track, so nothing is offered.
  const taken = laptop.sync.take()
  expect(taken).not.toBeNull()
  await laptop.play(
    taken!.tracks.map((t) => ({ url: t.url, title: t.title ?? '' })),
    taken!.index,
  )
  await phone.sync.check()
  expect(phone.sync.offer()).toBeNull()

  // The laptop moves on a track: now the phone is offered the laptop's queue.
  await laptop.play(TRACKS, 2)
  await phone.sync.check()
  expect(phone.sync.offer()).toMatchObject({ device: 'Laptop', index: 2 })
})
