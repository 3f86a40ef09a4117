// The listening tracker's rules: 429 retries, the stored queue, its
// merge and flush, the 2 × 5000 ms doubling retry and the page-exit update, with fakes for
// storage, auth, timers and the API client.
import { describe, expect, test } from 'bun:test'
import { createTracker, QUEUE_KEY, with429Retry, type EventClient, type PlayContext } from '~/client/features/player/listening-tracker'
import { CLIENT_PLAY_ID_PATTERN, PLAY_EVENT_LIMITS } from '~/shared/player/listening'
import { PlayEventCreateSchema } from '~/shared/validators'

const rateLimited = () => Object.assign(new Error('Rate limit exceeded. Please try again later.'), { status: 429 })

describe('429 retry for listening events', () => {
  test('retries a rate-limited call 3 times in all, waiting 1 s then 2 s', async () => {
    const waits: number[] = []
    let calls = 0
    const result = await with429Retry(
      async () => {
        calls++
        if (calls < 3) throw rateLimited()
        return 'ok'
      },
      undefined,
      async (ms) => waits.push(ms),
    )
    expect(result).toBe('ok')
    expect(calls).toBe(3)
    expect(waits).toEqual([1000, 2000])
  })

  test('gives up after the third 429, and never retries other failures', async () => {
    let calls = 0
    const waits: number[] = []
    await expect(
      with429Retry(
        async () => {
          calls++
          throw rateLimited()
        },
        undefined,
        async (ms) => waits.push(ms),
      ),
    ).rejects.toThrow('Rate limit exceeded')
    expect(calls).toBe(3)
    expect(waits).toEqual([1000, 2000])
    let other = 0
    await expect(
      with429Retry(
        async () => {
          other++
          throw Object.assign(new Error('bad'), { status: 400 })
        },
        undefined,
        async () => {},
      ),
    ).rejects.toThrow('bad')
    expect(other).toBe(1)
  })
})

// ---- the tracker with fakes: storage, auth, clock, scheduler and API client -------------------

type Call = { method: string; input: any; options?: unknown }

/** `store`: the storage of an earlier page (a reload). */
function setup(opts: { signedIn?: boolean; fail?: (method: string) => Error | null; store?: Map<string, string> } = {}) {
  const store = opts.store ?? new Map<string, string>()
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  }
  const auth = { signed: opts.signedIn ?? true }
  const calls: Call[] = []
  const scheduled: { fn: () => void; ms: number }[] = []
  let ids = 0
  const answer = async <T>(method: string, input: unknown, value: T, options?: unknown): Promise<T> => {
    calls.push({ method, input, options })
    const error = opts.fail?.(method)
    if (error) throw error
    return value
  }
  const client: EventClient = {
    createPlay: (input) => answer('createPlay', input, { playEventId: `pe${++ids}` }),
    updatePlay: (input, options) => answer('updatePlay', input, null, options),
    createInteraction: (input) => answer('createInteraction', input, null),
  }
  const tracker = createTracker({
    storage,
    auth: { signedIn: () => auth.signed, userId: () => (auth.signed ? 'u1' : null) },
    now: () => 1_700_000_000_000,
    client,
    sleep: async () => {},
    schedule: (fn, ms) => {
      scheduled.push({ fn, ms })
      return () => {}
    },
    network: () => 'wifi',
  })
  const queue = () => JSON.parse(store.get(QUEUE_KEY) ?? '[]') as any[]
  return { tracker, calls, scheduled, queue, auth, store }
}

const ctx = (over: Partial<PlayContext> = {}): PlayContext => ({
  trackId: 'https://music.test/a.mp3',
  url: 'https://music.test/a.mp3',
  title: 'A',
  duration: 120,
  source: 'playlist',
  list: [{ url: 'https://music.test/a.mp3' }, { url: 'https://music.test/b.mp3' }],
  idOf: (u) => u,
  ...over,
})
const settle = () => new Promise((r) => setTimeout(r, 0))

describe('the listening tracker', () => {
  test('signed out: the play is queued and later updates merge into it; nothing is sent', async () => {
    const { tracker, calls, queue, scheduled } = setup({ signedIn: false })
    const play = tracker.startPlay(ctx())
    await play.update({ listenDuration: 3 })
    await play.update({ listenDuration: 7, liked: true })
    tracker.recordInteraction('https://music.test/a.mp3', 'like')
    expect(calls).toEqual([])
    expect(scheduled).toEqual([])
    const q = queue()
    expect(q.map((i) => i.kind)).toEqual(['play', 'interaction'])
    expect(q[0].update).toEqual({ listenDuration: 7, liked: true })
    expect(q[0].event).toMatchObject({ trackUrl: 'https://music.test/a.mp3', nextTrack: 'https://music.test/b.mp3', sessionPosition: 1, networkType: 'wifi' })
  })

  test('after sign-in a flush creates the play, then sends its merged update with the new id, and empties the queue', async () => {
    const { tracker, calls, queue, auth } = setup({ signedIn: false })
    const play = tracker.startPlay(ctx())
    await play.update({ listenDuration: 7, completed: true })
    auth.signed = true
    await tracker.flushQueue()
    expect(calls.map((c) => c.method)).toEqual(['createPlay', 'updatePlay'])
    expect(calls[1].input).toEqual({ listenDuration: 7, completed: true, playEventId: 'pe1' })
    expect(queue()).toEqual([])
    // The live handle learnt its id: the next update goes straight to the server.
    await play.update({ shared: true })
    expect(calls[2]).toMatchObject({ method: 'updatePlay', input: { shared: true, playEventId: 'pe1' } })
  })

  test('a failed send is queued and retried twice, 5 s then 10 s apart, then waits for the next chance', async () => {
    let down = true
    const { tracker, calls, queue, scheduled } = setup({ fail: () => (down ? Object.assign(new Error('Server Error'), { status: 503 }) : null) })
    tracker.startPlay(ctx())
    await settle()
    expect(queue().map((i) => i.attempts)).toEqual([0])
    expect(scheduled.map((s) => s.ms)).toEqual([5000])
    scheduled[0].fn()
    await settle()
    expect(queue().map((i) => i.attempts)).toEqual([1])
    expect(scheduled.map((s) => s.ms)).toEqual([5000, 10000])
    scheduled[1].fn()
    await settle()
    expect(queue().map((i) => i.attempts)).toEqual([2])
    expect(scheduled).toHaveLength(2)
    expect(calls.filter((c) => c.method === 'createPlay')).toHaveLength(3)
    // Back online (or the next page load): every item gets a new chance and goes out.
    down = false
    tracker.rearm()
    await settle()
    expect(queue()).toEqual([])
  })

  test('a play created on the server whose update fails retries only the update, never a second play', async () => {
    let failUpdates = true
    const { tracker, calls, queue, auth } = setup({
      signedIn: false,
      fail: (m) => (m === 'updatePlay' && failUpdates ? Object.assign(new Error('down'), { status: 503 }) : null),
    })
    const play = tracker.startPlay(ctx())
    await play.update({ listenDuration: 4 })
    auth.signed = true
    await tracker.flushQueue()
    expect(queue()).toMatchObject([{ kind: 'update', playEventId: 'pe1', update: { listenDuration: 4 }, attempts: 1 }])
    failUpdates = false
    tracker.rearm()
    await settle()
    expect(queue()).toEqual([])
    expect(calls.filter((c) => c.method === 'createPlay')).toHaveLength(1)
  })

  test('a play whose answer was lost is sent again with the same client key, after a reload too; another play has its own', async () => {
    // The server may have recorded the play each time: only the answer never came back.
    const lost = [new TypeError('Failed to fetch'), Object.assign(new Error('Gateway Timeout'), { status: 504 }), new TypeError('Load failed')]
    let creates = 0
    const fail = (m: string) => (m === 'createPlay' && creates++ < lost.length ? lost[creates - 1] : null)
    const page = setup({ fail })
    const play = page.tracker.startPlay(ctx())
    await settle()
    page.scheduled[0].fn()
    await settle()
    expect(page.queue()).toMatchObject([{ kind: 'play', localId: play.localId, attempts: 1 }])
    // The page is reloaded with the play still queued: the new page sends it with the same key.
    const reloaded = setup({ fail, store: page.store })
    reloaded.tracker.rearm()
    await settle()
    reloaded.tracker.rearm()
    await settle()
    expect(reloaded.queue()).toEqual([])
    const sends = [...page.calls, ...reloaded.calls].filter((c) => c.method === 'createPlay')
    expect(sends).toHaveLength(4)
    expect(sends.map((c) => c.input.clientPlayId)).toEqual([play.localId, play.localId, play.localId, play.localId])
    expect(play.localId).toMatch(CLIENT_PLAY_ID_PATTERN)
    // What is sent passes the shared schema, key included.
    expect(PlayEventCreateSchema.parse(sends[3].input).clientPlayId).toBe(play.localId)
    // A new play of the same track is a new play: a key of its own.
    const next = reloaded.tracker.startPlay(ctx())
    await settle()
    expect(reloaded.calls.at(-1)).toMatchObject({ method: 'createPlay', input: { clientPlayId: next.localId } })
    expect(next.localId).not.toBe(play.localId)
  })

  test('a play queued while signed out is sent with its key', async () => {
    const { tracker, calls, auth } = setup({ signedIn: false })
    const play = tracker.startPlay(ctx())
    auth.signed = true
    await tracker.flushQueue()
    expect(calls).toMatchObject([{ method: 'createPlay', input: { clientPlayId: play.localId } }])
  })

  test('a permanent refusal (4xx other than 401/408/429) is dropped, not queued', async () => {
    const { tracker, queue } = setup({ fail: () => Object.assign(new Error('bad'), { status: 400 }) })
    tracker.startPlay(ctx())
    tracker.recordInteraction('x', 'share')
    await settle()
    expect(queue()).toEqual([])
  })

  test('the page-exit update goes through the client with keepalive and is also queued', async () => {
    const { tracker, calls, queue } = setup()
    const play = tracker.startPlay(ctx())
    await settle()
    play.exitUpdate({ listenDuration: 9, skipped: true })
    expect(calls.at(-1)).toEqual({ method: 'updatePlay', input: { listenDuration: 9, skipped: true, playEventId: 'pe1' }, options: { keepalive: true } })
    expect(queue()).toMatchObject([{ kind: 'update', playEventId: 'pe1', update: { listenDuration: 9, skipped: true } }])
  })

  test('text is cut to the shared schema limits, and the event passes that schema', async () => {
    const { tracker, calls } = setup()
    tracker.startPlay(ctx({ title: 't'.repeat(900), artist: 'a'.repeat(900), genre: 'g'.repeat(900), playlistId: 'p'.repeat(900) }))
    await settle()
    const event = calls[0].input
    expect(event.title).toHaveLength(PLAY_EVENT_LIMITS.title)
    expect(event.artist).toHaveLength(PLAY_EVENT_LIMITS.artist)
    expect(event.genre).toHaveLength(PLAY_EVENT_LIMITS.genre)
    expect(event.playlistId).toHaveLength(PLAY_EVENT_LIMITS.playlistId)
    expect(PlayEventCreateSchema.safeParse(event).success).toBe(true)
  })

  test('the session counts positions and names the previous track', async () => {
    const { tracker, calls } = setup()
    tracker.startPlay(ctx())
    tracker.startPlay(ctx({ trackId: 'https://music.test/b.mp3', url: 'https://music.test/b.mp3' }))
    await settle()
    expect(calls[1].input).toMatchObject({ sessionPosition: 2, previousTrack: 'https://music.test/a.mp3', nextTrack: null })
    tracker.resetSession()
    tracker.startPlay(ctx())
    await settle()
    expect(calls[2].input).toMatchObject({ sessionPosition: 1, previousTrack: null })
  })
})
