// Resume after a reload: what the keeper writes to storage, when, and what the
// engine makes of it. Storage is a Map; the clock is a number the test moves.
import { describe, expect, test } from 'bun:test'
import { initialState, reduce, type EngineState } from '~/client/features/player/engine'
import { createQueueKeeper, PLACE_KEY, QUEUE_KEY } from '~/client/features/player/queue-keeper'
import { makeTrack } from '~/shared/player/track'

function memoryStorage() {
  const map = new Map<string, string>()
  let writes = 0
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      writes++
      map.set(k, v)
    },
    removeItem: (k: string) => void map.delete(k),
    writes: () => writes,
    map,
  }
}

const tracks = ['a', 'b', 'c'].map((n) => makeTrack({ url: `https://music.test/${n}.mp3`, title: n }))
const loaded = (overrides: Partial<EngineState> = {}): EngineState => ({
  ...reduce(initialState(), { type: 'replace', tracks, context: { source: 'remote', label: 'Jazz' }, autoPlay: true }).state,
  ...overrides,
})

describe('the queue keeper', () => {
  test('writes the place at once on a change of track or a pause, and at most every 5 s while playing', () => {
    const storage = memoryStorage()
    let clock = 0
    const keeper = createQueueKeeper({ storage, now: () => clock })
    const s = loaded({ playing: true })
    keeper.observe(s, 0)
    const afterFirst = storage.writes()
    expect(afterFirst).toBe(2) // the list and the place
    clock = 1000
    keeper.observe(s, 1)
    clock = 4900
    keeper.observe(s, 4.9)
    expect(storage.writes()).toBe(afterFirst)
    clock = 5000
    keeper.observe(s, 5)
    expect(storage.writes()).toBe(afterFirst + 1)
    expect(JSON.parse(storage.getItem(PLACE_KEY)!).positionSec).toBe(5)
    // A new track is written at once, the list is not written again.
    clock = 5100
    keeper.observe({ ...s, index: 1 }, 0)
    expect(storage.writes()).toBe(afterFirst + 2)
    expect(JSON.parse(storage.getItem(PLACE_KEY)!).index).toBe(1)
  })

  test('a fresh page with nothing loaded never overwrites what the last page kept', () => {
    const storage = memoryStorage()
    storage.setItem(QUEUE_KEY, JSON.stringify({ tracks, context: { source: 'local', label: 'Mix' }, order: [0, 1, 2] }))
    storage.setItem(PLACE_KEY, JSON.stringify({ index: 2, positionSec: 40, shuffle: false, repeat: true, volume: 0.3, muted: false, savedAt: 1 }))
    const keeper = createQueueKeeper({ storage })
    keeper.observe(initialState(), 0, { force: true })
    const r = keeper.read()
    expect(r?.local).toBe(true)
    expect(r?.queue.index).toBe(2)
    expect(r?.queue.positionSec).toBe(40)
  })

  test('clearing a queue that played forgets it; covers that are object URLs are never kept', () => {
    const storage = memoryStorage()
    const keeper = createQueueKeeper({ storage })
    const withCover = loaded({ tracks: tracks.map((t) => ({ ...t, cover: 'blob:http://x/1' })) })
    keeper.observe(withCover, 0)
    expect(JSON.parse(storage.getItem(QUEUE_KEY)!).tracks[0].cover).toBeUndefined()
    keeper.observe(reduce(withCover, { type: 'clear' }).state, 0)
    expect(storage.getItem(QUEUE_KEY)).toBeNull()
    expect(keeper.read()).toBeNull()
  })

  test('round trip: what is kept restores the same track, position, order and settings, paused', () => {
    const storage = memoryStorage()
    const keeper = createQueueKeeper({ storage })
    let s = reduce(loaded(), { type: 'toggleShuffle', random: () => 0 }).state
    s = { ...s, index: s.order[1], repeat: 'one', volume: 0.4, muted: true }
    keeper.observe(s, 33.3)
    const saved = keeper.read()!
    const { state, effects } = reduce(initialState(), { type: 'restore', queue: saved.queue, play: false })
    expect(state.index).toBe(s.index)
    expect(state.order).toEqual(s.order)
    expect(state.shuffle).toBe(true)
    expect(state.repeat).toBe('one')
    expect(state.volume).toBe(0.4)
    expect(state.muted).toBe(true)
    expect(state.wantPlay).toBe(false)
    expect(effects).toEqual([{ type: 'load', url: tracks[s.index].url, play: false, at: 33.3 }])
  })

  test('a restore with a broken order or index falls back to a sequential order and the first track', () => {
    const { state } = reduce(initialState(), {
      type: 'restore',
      queue: { tracks, context: null, index: 9, positionSec: Number.NaN, order: [0, 0, 1], shuffle: true },
      play: true,
    })
    expect(state.index).toBe(0)
    expect(state.order).toEqual([0, 1, 2])
    expect(state.shuffle).toBe(false)
    expect(state.pendingSource).toBe('playlist')
  })
})
