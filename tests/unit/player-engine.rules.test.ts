// The player engine's playback rules: each test drives
// the pure reducer with events and checks the state and effects a listener relies on.
import { describe, expect, test } from 'bun:test'
import { currentTrack, initialState, reduce, type EngineEvent, type EngineState, type Effect } from '~/client/features/player/engine'
import { visibleNeighbours } from '~/shared/player/order'
import { makeTrack, type Track } from '~/shared/player/track'

const track = (name: string, mime = 'audio/mpeg'): Track => makeTrack({ url: `https://music.test/${name}.mp3`, title: name, mime })
const list = (...names: string[]) => names.map((n) => track(n))

/** Runs events in turn; returns the last state and every effect emitted. */
function run(state: EngineState, ...events: EngineEvent[]): { state: EngineState; effects: Effect[] } {
  const effects: Effect[] = []
  for (const e of events) {
    const step = reduce(state, e)
    state = step.state
    effects.push(...step.effects)
  }
  return { state, effects }
}

/** A queue of the given tracks, first track playing with an open play event. */
function playing(names: string[], overrides: Partial<EngineState> = {}) {
  const { state } = run(
    initialState(overrides),
    { type: 'replace', tracks: list(...names), context: { source: 'remote' }, autoPlay: true },
    { type: 'elementPlay' },
    { type: 'elementPlaying' },
  )
  return state
}

const title = (s: EngineState) => currentTrack(s)?.title
const types = (effects: Effect[]) => effects.map((e) => e.type)
const noAd = { roll: 0.99, chance: 0.3, promotions: 4 } as const

describe('a new list', () => {
  test('starts at its first track, playing, with the "playlist" source; an empty list has no track', () => {
    const { state, effects } = run(initialState(), { type: 'replace', tracks: list('a', 'b'), context: { source: 'local' }, autoPlay: true })
    expect(title(state)).toBe('a')
    expect(state.pendingSource).toBe('playlist')
    expect(effects).toEqual([{ type: 'load', url: 'https://music.test/a.mp3', play: true }])
    const empty = run(state, { type: 'replace', tracks: [], context: null, autoPlay: true }).state
    expect(empty.index).toBe(-1)
    expect(currentTrack(empty)).toBeUndefined()
  })

  test('a shorter list replaces index, order and shuffle together (the "reading title" crash)', () => {
    let s = playing(['a', 'b', 'c', 'd'])
    s = run(
      s,
      { type: 'toggleShuffle', random: () => 0 },
      { type: 'select', index: 3 },
      { type: 'elementPlaying' },
      { type: 'toggleShuffle', random: () => 0.5 },
    ).state
    const { state, effects } = run(s, { type: 'replace', tracks: list('solo'), context: { source: 'local' }, autoPlay: true })
    expect(state.index).toBe(0)
    expect(state.order).toEqual([0])
    expect(state.shuffle).toBe(false)
    const n = visibleNeighbours(state.order, state.index, state.shuffle)
    for (const i of [n.previous, n.next]) if (i !== null) expect(state.tracks[i]).toBeDefined()
    expect(title(state)).toBe('solo')
    // The track that was playing is reported as left.
    expect(effects[0]).toEqual({ type: 'report', how: 'skip' })
  })

  test('the same files again (tags read later) refresh titles without restarting', () => {
    const s = playing(['a', 'b'])
    const retagged = [makeTrack({ ...s.tracks[0], title: 'A tagged' }), s.tracks[1]]
    const { state, effects } = run(s, { type: 'replace', tracks: retagged, context: null, autoPlay: false })
    expect(effects).toEqual([])
    expect(title(state)).toBe('A tagged')
    expect(state.reporting).toBe(true)
  })

  test('autoPlay off shows the first track, ready, without loading it to play', () => {
    const { state, effects } = run(initialState(), { type: 'replace', tracks: list('a'), context: null, autoPlay: false })
    expect(title(state)).toBe('a')
    expect(state.wantPlay).toBe(false)
    expect(effects).toEqual([{ type: 'load', url: 'https://music.test/a.mp3', play: false }])
  })
})

describe('choosing tracks', () => {
  test('selecting a track reports the previous one, turns shuffle off and plays with source "direct"', () => {
    let s = playing(['a', 'b', 'c'])
    s = run(s, { type: 'toggleShuffle', random: () => 0 }).state
    expect(s.shuffle).toBe(true)
    const { state, effects } = run(s, { type: 'select', index: 2 })
    expect(types(effects)).toEqual(['report', 'load'])
    expect(effects[0]).toEqual({ type: 'report', how: 'skip' })
    expect(state.shuffle).toBe(false)
    expect(state.order).toEqual([0, 1, 2])
    expect(state.pendingSource).toBe('direct')
    expect(title(state)).toBe('c')
  })

  test('next and previous wrap around; the source is "playlist"', () => {
    let s = playing(['a', 'b', 'c'])
    s = run(s, { type: 'previous' }).state
    expect(title(s)).toBe('c')
    expect(s.pendingSource).toBe('playlist')
    s = run(s, { type: 'next' }).state
    expect(title(s)).toBe('a')
  })

  test('shuffle builds a random order; next and previous follow it and the source is "shuffle"', () => {
    let s = playing(['a', 'b', 'c', 'd'])
    // Fisher–Yates with random() = 0 always: [1, 2, 3, 0].
    s = run(s, { type: 'toggleShuffle', random: () => 0 }).state
    expect(s.order).toEqual([1, 2, 3, 0])
    s = run(s, { type: 'next' }).state
    expect(title(s)).toBe('b')
    expect(s.pendingSource).toBe('shuffle')
    s = run(s, { type: 'previous' }, { type: 'previous' }).state
    expect(title(s)).toBe('d')
    s = run(s, { type: 'toggleShuffle' }).state
    expect(s.order).toEqual([0, 1, 2, 3])
  })

  test('play with nothing current starts the first in play order; a play event opens once the element plays', () => {
    let s = run(initialState(), { type: 'replace', tracks: list('a', 'b'), context: null, autoPlay: false }).state
    s = { ...s, index: -1 }
    const started = run(s, { type: 'togglePlay' })
    expect(title(started.state)).toBe('a')
    expect(started.state.wantPlay).toBe(true)
    const { state, effects } = run(started.state, { type: 'elementPlay' }, { type: 'elementPlaying' }, { type: 'elementPlaying' })
    expect(effects).toEqual([{ type: 'beginPlay', source: 'playlist' }])
    expect(state.reporting).toBe(true)
  })

  test('resuming a paused track whose play was closed opens a "direct" play; pausing reports progress, not completion', () => {
    let s = playing(['a'])
    const paused = run(s, { type: 'togglePlay' }, { type: 'elementPause', ended: false })
    expect(types(paused.effects)).toEqual(['pause', 'progress'])
    s = { ...paused.state, reporting: false }
    const resumed = run(s, { type: 'togglePlay' }, { type: 'elementPlaying' })
    expect(resumed.effects).toEqual([{ type: 'play' }, { type: 'beginPlay', source: 'direct' }])
  })

  test('stop pauses and sets the time to 0', () => {
    const { state, effects } = run(playing(['a']), { type: 'stop' })
    expect(effects).toEqual([{ type: 'pause' }, { type: 'seek', to: 0 }])
    expect(state.wantPlay).toBe(false)
  })

  test('progress is reported on the clock only while a play is open and playing', () => {
    expect(types(run(playing(['a']), { type: 'tick' }).effects)).toEqual(['progress'])
    expect(run(playing(['a']), { type: 'elementPause', ended: false }, { type: 'tick' }).effects).toEqual([{ type: 'progress' }])
    expect(run(playing(['a']), { type: 'elementPause', ended: true }).effects).toEqual([])
  })
})

describe('track end', () => {
  test('is reported completed and the next track plays, wrapping to the first', () => {
    let s = playing(['a', 'b'])
    let step = run(s, { type: 'ended', ...noAd })
    expect(step.effects[0]).toEqual({ type: 'report', how: 'ended' })
    expect(title(step.state)).toBe('b')
    s = run(step.state, { type: 'elementPlaying' }).state
    step = run(s, { type: 'ended', ...noAd })
    expect(title(step.state)).toBe('a')
  })

  test('repeat starts at "all" (next wraps around) and the button cycles all → one → off → all', () => {
    let s = playing(['a', 'b'])
    expect(s.repeat).toBe('all')
    const modes: string[] = []
    for (let k = 0; k < 3; k++) {
      s = run(s, { type: 'toggleRepeat' }).state
      modes.push(s.repeat)
    }
    expect(modes).toEqual(['one', 'off', 'all'])
  })

  test('repeat off stops after the last track in play order (reported ended, no advert); earlier tracks go on', () => {
    let s: EngineState = { ...playing(['a', 'b']), repeat: 'off' }
    let step = run(s, { type: 'ended', roll: 0, chance: 1, promotions: 4 })
    // Not the last track: the advert and the next track come as usual.
    expect(step.state.advert).toEqual({ promotion: 0, resumeAt: 1 })
    s = run(step.state, { type: 'advertClosed' }, { type: 'elementPlaying' }).state
    expect(title(s)).toBe('b')
    step = run(s, { type: 'ended', roll: 0, chance: 1, promotions: 4 })
    expect(step.effects).toEqual([{ type: 'report', how: 'ended' }])
    expect(title(step.state)).toBe('b')
    expect(step.state.wantPlay).toBe(false)
    expect(step.state.advert).toBeNull()
    // Next still wraps: next and previous always wrap around.
    expect(title(run(step.state, { type: 'next' }).state)).toBe('a')
  })

  test('a repeat kept before the modes (true/false) restores as "one"/"all"', () => {
    const q = { tracks: list('a', 'b'), context: null, index: 0, positionSec: 0 }
    expect(run(initialState(), { type: 'restore', queue: { ...q, repeat: true }, play: false }).state.repeat).toBe('one')
    expect(run(initialState(), { type: 'restore', queue: { ...q, repeat: false }, play: false }).state.repeat).toBe('all')
    expect(run(initialState(), { type: 'restore', queue: { ...q, repeat: 'off' }, play: false }).state.repeat).toBe('off')
  })

  test('with repeat on the track restarts, the play is completed and repeated, a repeat is logged', () => {
    const s = run(playing(['a', 'b']), { type: 'toggleRepeat' }).state
    const { state, effects } = run(s, { type: 'ended', roll: 0, chance: 1, promotions: 4 })
    expect(effects).toEqual([{ type: 'report', how: 'repeated' }, { type: 'interaction', kind: 'repeat' }, { type: 'seek', to: 0 }, { type: 'play' }])
    expect(title(state)).toBe('a')
    expect(state.pendingSource).toBe('repeat')
    expect(state.advert).toBeNull()
  })

  test('an advert comes first with the given chance: playback waits, it closes after 5 s, then the next track plays', () => {
    const s = playing(['a', 'b'])
    const { state, effects } = run(s, { type: 'ended', roll: 0.29, chance: 0.3, promotions: 4, pick: 0.6 })
    expect(state.advert).toEqual({ promotion: 2, resumeAt: 1 })
    expect(state.wantPlay).toBe(false)
    expect(effects).toEqual([
      { type: 'report', how: 'ended' },
      { type: 'advertTimer', ms: 5000 },
    ])
    // Play is ignored while the advert shows.
    expect(run(state, { type: 'togglePlay' }).effects).toEqual([])
    const after = run(state, { type: 'advertClosed' })
    expect(after.state.advert).toBeNull()
    expect(title(after.state)).toBe('b')
    expect(after.effects).toEqual([{ type: 'load', url: 'https://music.test/b.mp3', play: true }])
    // Closing twice does nothing more.
    expect(run(after.state, { type: 'advertClosed' }).effects).toEqual([])
  })

  test('no advert at or above the chance, or without promotions', () => {
    expect(run(playing(['a', 'b']), { type: 'ended', roll: 0.3, chance: 0.3, promotions: 4 }).state.advert).toBeNull()
    expect(run(playing(['a', 'b']), { type: 'ended', roll: 0, chance: 0.3, promotions: 0 }).state.advert).toBeNull()
  })
})

describe('volume', () => {
  test('mute stores the volume and unmute restores it; volume is clamped to 0..1 in steps of 0.01', () => {
    let s = run(initialState(), { type: 'setVolume', volume: 0.456 }).state
    expect(s.volume).toBe(0.46)
    s = run(s, { type: 'toggleMute' }).state
    expect(s.muted).toBe(true)
    s = run(s, { type: 'toggleMute' }).state
    expect(s).toMatchObject({ muted: false, volume: 0.46 })
    expect(run(initialState(), { type: 'setVolume', volume: 7 }).state.volume).toBe(1)
    // Muting at 0 unmutes to the default volume.
    s = run(initialState(), { type: 'setVolume', volume: 0 }, { type: 'toggleMute' }, { type: 'toggleMute' }).state
    expect(s.volume).toBe(0.8)
  })
})

describe('media errors', () => {
  const video = makeTrack({ url: 'https://music.test/clip.mp4', title: 'clip', mime: 'video/mp4' })
  const ogg = makeTrack({ url: 'https://music.test/tune.ogg', title: 'tune', mime: 'audio/ogg' })
  const start = (t: Track) => run(initialState(), { type: 'replace', tracks: [t], context: null, autoPlay: true }, { type: 'elementPlaying' }).state

  test('a video that fails becomes audio/mpeg in the playlist and the stored list, and loads again', () => {
    const { state, effects } = run(start(video), { type: 'mediaError', code: 4 })
    expect(currentTrack(state)?.mime).toBe('audio/mpeg')
    expect(effects).toEqual([
      { type: 'storeMime', url: video.url, mime: 'audio/mpeg' },
      { type: 'load', url: video.url, play: true },
    ])
    // A second failure is the playback error.
    const failed = run(state, { type: 'mediaError', code: 4 })
    expect(failed.state.error).toBe('Playback Error: Media format not supported by browser')
    expect(failed.state.wantPlay).toBe(false)
  })

  test('audio becomes audio/mpeg only if a test load of the URL also fails', () => {
    const probing = run(start(ogg), { type: 'mediaError', code: 3 })
    expect(probing.effects).toEqual([{ type: 'probe', url: ogg.url }])
    const failedProbe = run(probing.state, { type: 'probed', url: ogg.url, ok: false })
    expect(currentTrack(failedProbe.state)?.mime).toBe('audio/mpeg')
    const okProbe = run(probing.state, { type: 'probed', url: ogg.url, ok: true })
    expect(currentTrack(okProbe.state)?.mime).toBe('audio/ogg')
    expect(okProbe.state.error).toBe('Playback Error: Media decoding error')
  })

  test('audio already audio/mpeg shows the error at once; aborts (code 1) are ignored', () => {
    const mp3 = start(track('x'))
    expect(run(mp3, { type: 'mediaError', code: 1 }).effects).toEqual([])
    const { state, effects } = run(mp3, { type: 'mediaError', code: 2 })
    expect(state.error).toBe('Playback Error: Network error occurred during download')
    expect(effects).toEqual([{ type: 'report', how: 'skip' }])
  })

  test('play() rejections: interruptions are ignored, a refused autoplay stops wanting to play, others are shown', () => {
    const s = playing(['a'])
    expect(run(s, { type: 'playRejected', name: 'AbortError', message: '' }).state).toEqual(s)
    expect(run(s, { type: 'playRejected', name: 'NotAllowedError', message: '' }).state.wantPlay).toBe(false)
    expect(run(s, { type: 'playRejected', name: 'Weird', message: 'boom' }).state.message).toBe('Error playing audio: boom')
  })

  test('a duration read from metadata fills a track whose duration was unknown', () => {
    const s = playing(['a'])
    expect(run(s, { type: 'duration', url: s.tracks[0].url, seconds: 61.5 }).state.tracks[0].duration).toBe(61.5)
    const known = run(s, { type: 'duration', url: s.tracks[0].url, seconds: 61.5 }, { type: 'duration', url: s.tracks[0].url, seconds: 10 }).state
    expect(known.tracks[0].duration).toBe(61.5)
  })
})

describe('queue edits', () => {
  const titles = (s: EngineState) => s.order.map((i) => s.tracks[i].title)

  test('play next goes right after the current track; add goes to the end', () => {
    let s = playing(['a', 'b', 'c'])
    s = run(s, { type: 'playNext', tracks: list('n') }, { type: 'append', tracks: list('z') }).state
    expect(titles(s)).toEqual(['a', 'n', 'b', 'c', 'z'])
    expect(title(s)).toBe('a')
    expect(title(run(s, { type: 'next' }).state)).toBe('n')
  })

  test('with shuffle on, play next is still next in play order and the current track stays', () => {
    let s = run(playing(['a', 'b', 'c']), { type: 'toggleShuffle', random: () => 0 }).state
    const before = titles(s)
    s = run(s, { type: 'playNext', tracks: list('n') }).state
    expect(title(s)).toBe('a')
    expect(title(run(s, { type: 'next' }).state)).toBe('n')
    expect(titles(s).filter((t) => t !== 'n')).toEqual(before)
  })

  test('removing before the current track keeps it current; removing the current plays what followed', () => {
    let s = run(playing(['a', 'b', 'c']), { type: 'select', index: 1 }, { type: 'elementPlaying' }).state
    let step = run(s, { type: 'remove', index: 0 })
    expect(title(step.state)).toBe('b')
    expect(step.effects).toEqual([])
    s = step.state
    step = run(s, { type: 'remove', index: 0 })
    expect(title(step.state)).toBe('c')
    expect(step.effects).toEqual([
      { type: 'report', how: 'skip' },
      { type: 'load', url: 'https://music.test/c.mp3', play: true },
    ])
    // The last one removed empties the queue.
    const cleared = run(step.state, { type: 'remove', index: 0 })
    expect(cleared.state.tracks).toEqual([])
    expect(cleared.state.index).toBe(-1)
    expect(types(cleared.effects)).toContain('unload')
  })

  test('moving a track keeps the current track current', () => {
    let s = run(playing(['a', 'b', 'c', 'd']), { type: 'select', index: 1 }).state
    s = run(s, { type: 'move', from: 3, to: 0 }).state
    expect(titles(s)).toEqual(['d', 'a', 'b', 'c'])
    expect(title(s)).toBe('b')
    s = run(s, { type: 'move', from: 2, to: 3 }).state
    expect(titles(s)).toEqual(['d', 'a', 'c', 'b'])
    expect(title(s)).toBe('b')
  })

  test('reorder moves in play order: sequential moves the tracks, shuffled moves only the order', () => {
    let s = run(playing(['a', 'b', 'c', 'd']), { type: 'select', index: 1 }).state
    // "Play next" for d: play-order position 3 to just after the current (position 2).
    s = run(s, { type: 'reorder', from: 3, to: 2 }).state
    expect(titles(s)).toEqual(['a', 'b', 'd', 'c'])
    expect(title(s)).toBe('b')
    expect(title(run(s, { type: 'next' }).state)).toBe('d')

    // Shuffled c a d b, playing a: b moves from the end to right after a; the tracks stay put.
    let sh: EngineState = { ...playing(['a', 'b', 'c', 'd']), shuffle: true, order: [2, 0, 3, 1] }
    const tracksBefore = sh.tracks
    sh = run(sh, { type: 'reorder', from: 3, to: 2 }).state
    expect(titles(sh)).toEqual(['c', 'a', 'b', 'd'])
    expect(sh.tracks).toBe(tracksBefore)
    expect(title(run(sh, { type: 'next' }).state)).toBe('b')
    expect(run(sh, { type: 'reorder', from: 0, to: 9 }).state).toBe(sh)
  })

  test('clear stops, reports the play and forgets the queue', () => {
    const { state, effects } = run(playing(['a', 'b']), { type: 'clear' })
    expect(effects).toEqual([{ type: 'report', how: 'skip' }, { type: 'unload' }])
    expect(state).toMatchObject({ tracks: [], index: -1, context: null, wantPlay: false })
  })
})

describe('playing a list the queue already holds', () => {
  const album = () => list('one', 'two', 'three')
  const playAlbum: EngineEvent = { type: 'replace', tracks: album(), context: { source: 'folder', label: 'LP' }, autoPlay: true }

  test('Play again starts the list from its first track and plays, even from another track', () => {
    const s = run(playing(['one', 'two', 'three']), { type: 'select', index: 1 }, { type: 'elementPlaying' }).state
    const { state, effects } = run(s, playAlbum)
    expect(title(state)).toBe('one')
    expect(state.wantPlay).toBe(true)
    expect(effects).toContainEqual({ type: 'load', url: 'https://music.test/one.mp3', play: true })
    // The left play is reported once.
    expect(effects.filter((e) => e.type === 'report')).toEqual([{ type: 'report', how: 'skip' }])
  })

  test('paused on the second track, Play starts the first track playing', () => {
    const s = run(
      playing(['one', 'two', 'three']),
      { type: 'select', index: 1 },
      { type: 'elementPlaying' },
      { type: 'togglePlay' },
      { type: 'elementPause', ended: false },
    ).state
    const { state, effects } = run(s, playAlbum)
    expect(title(state)).toBe('one')
    expect(effects).toContainEqual({ type: 'load', url: 'https://music.test/one.mp3', play: true })
  })

  test('a restored queue of that list (a reload) starts over from its first track on Play', () => {
    const restored = run(initialState(), {
      type: 'restore',
      queue: { tracks: album(), context: { source: 'folder', label: 'LP' }, index: 1, positionSec: 12 },
      play: false,
    }).state
    const { state, effects } = run(restored, playAlbum)
    expect(title(state)).toBe('one')
    expect(state.wantPlay).toBe(true)
    expect(effects).toContainEqual({ type: 'load', url: 'https://music.test/one.mp3', play: true })
  })

  test('the same files again without autoPlay (tags read later) only refresh the titles', () => {
    const s = run(playing(['one', 'two', 'three']), { type: 'select', index: 1 }, { type: 'elementPlaying' }).state
    const { state, effects } = run(s, { type: 'replace', tracks: album(), context: null, autoPlay: false })
    expect(title(state)).toBe('two')
    expect(effects).toEqual([])
  })
})

describe('previous restarts a track heard past 3 s', () => {
  test('past 3 s Previous seeks the current track to its start; within 3 s it goes to the previous track', () => {
    const s = run(playing(['a', 'b', 'c']), { type: 'next' }, { type: 'elementPlaying' }).state
    const late = run(s, { type: 'previous', at: 4.6 })
    expect(title(late.state)).toBe('b')
    expect(late.effects).toEqual([{ type: 'seek', to: 0 }])
    const early = run(s, { type: 'previous', at: 2.5 })
    expect(title(early.state)).toBe('a')
  })
})

describe('volume keys', () => {
  test('a step up while muted unmutes to the stored volume; a step down while muted stays muted', () => {
    let s = run(initialState(), { type: 'setVolume', volume: 0.6 }, { type: 'toggleMute' }).state
    const up = run(s, { type: 'stepVolume', by: 0.05 }).state
    expect(up).toMatchObject({ muted: false, volume: 0.6 })
    const down = run(s, { type: 'stepVolume', by: -0.05 }).state
    expect(down).toMatchObject({ muted: true, volume: 0.6 })
    s = run(initialState(), { type: 'setVolume', volume: 0.6 }, { type: 'stepVolume', by: 0.05 }).state
    expect(s.volume).toBe(0.65)
    s = run(s, { type: 'stepVolume', by: -0.7 }).state
    expect(s.volume).toBe(0)
  })
})
