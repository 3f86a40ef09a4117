// The player engine's rules for a live internet radio station (decision 077): its play counts as
// radio, pausing lets the stream go and playing tunes in afresh, Previous and Stop never seek, and
// the stream ending stops rather than skipping to the next station.
import { describe, expect, test } from 'bun:test'
import { currentTrack, initialState, reduce, type EngineEvent, type EngineState, type Effect } from '~/client/features/player/engine'
import { makeTrack, RADIO_STREAM_PREFIX } from '~/shared/player/track'

const station = (id: string) => makeTrack({ url: `${RADIO_STREAM_PREFIX}${id}`, title: `Station ${id}`, album: 'Internet radio' })

function run(state: EngineState, ...events: EngineEvent[]): { state: EngineState; effects: Effect[] } {
  const effects: Effect[] = []
  for (const e of events) {
    const step = reduce(state, e)
    state = step.state
    effects.push(...step.effects)
  }
  return { state, effects }
}

const onAir = () =>
  run(
    initialState(),
    { type: 'replace', tracks: [station('a'), station('b')], context: { source: 'folder', label: 'Radio' }, autoPlay: true },
    { type: 'elementPlay' },
    { type: 'elementPlaying' },
  )

describe('a live station', () => {
  test('its play opens with the source radio', () => {
    expect(onAir().effects).toContainEqual({ type: 'beginPlay', source: 'radio' })
  })

  test('pause lets the stream go; play loads it again, and the open play event goes on', () => {
    // Unloading drops the element's own pause event: the engine settles the pause itself.
    const paused = run(onAir().state, { type: 'togglePlay' })
    expect(paused.effects.map((e) => e.type)).toEqual(['progress', 'pause', 'unload'])
    expect(paused.state.playing).toBe(false)
    const resumed = run(paused.state, { type: 'togglePlay' }, { type: 'elementPlay' }, { type: 'elementPlaying' })
    expect(resumed.effects).toEqual([{ type: 'load', url: `${RADIO_STREAM_PREFIX}a`, play: true }])
    expect(resumed.state.reporting).toBe(true)
  })

  test('Previous goes to the station before, never seeks; Stop unloads', () => {
    const next = run(onAir().state, { type: 'next' }).state
    const back = run(next, { type: 'previous', at: 120 })
    expect(currentTrack(back.state)?.title).toBe('Station a')
    expect(back.effects.some((e) => e.type === 'seek')).toBe(false)
    const stopped = run(onAir().state, { type: 'stop' })
    expect(stopped.effects.map((e) => e.type)).toEqual(['progress', 'pause', 'unload'])
    expect(stopped.state.playing).toBe(false)
  })

  test('the stream ending stops with a message, and does not move to the next station', () => {
    const { state, effects } = run(onAir().state, { type: 'ended', roll: 0.99, chance: 0, promotions: 0 })
    expect(currentTrack(state)?.title).toBe('Station a')
    expect(state.wantPlay).toBe(false)
    expect(state.message).toMatch(/stopped sending/)
    expect(effects).toEqual([{ type: 'report', how: 'ended' }])
  })

  test('a saved queue on a station comes back live, not at the saved second', () => {
    const queue = { tracks: [station('a')], context: null, index: 0, positionSec: 754 }
    expect(reduce(initialState(), { type: 'restore', queue, play: true }).effects).toEqual([{ type: 'load', url: `${RADIO_STREAM_PREFIX}a`, play: true }])
  })
})
