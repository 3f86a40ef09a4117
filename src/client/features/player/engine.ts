// The player engine: a pure reducer `(state, event) → { state, effects }`
// that owns what plays — the queue, the index, the play order, shuffle, repeat, queue edits,
// adverts between tracks, the media-error fallback (a failing track becomes audio/mpeg) and the play source of the
// next play event. It never touches the DOM, timers or the network: the controller
// (player-store.ts) applies its effects to the one media element and to the listening tracker.
// Randomness comes in with the events (a shuffle's `random`, an advert's `roll`) so every rule
// is a plain unit test (tests/unit/player-engine.rules.test.ts).
import { makeOrder, nextIndex, previousIndex, type Rng } from '~/shared/player/order'
import { isIgnorablePlayRejection, playbackErrorText, shouldShowAd } from '~/shared/player/errors'
import { DEFAULT_MIME, isLive, isVideo, type Track } from '~/shared/player/track'
import type { PlaySource } from '~/shared/validators'

export const DEFAULT_VOLUME = 0.8

/**
 * Repeat (decision 022): 'all' wraps to the first track at the end of the list (next
 * wraps around) and is the start — 'one' restarts the track at its end, 'off' stops after the
 * last track. The button cycles all → one → off → all.
 */
export type RepeatMode = 'off' | 'all' | 'one'
export const DEFAULT_REPEAT: RepeatMode = 'all'
const NEXT_REPEAT: Record<RepeatMode, RepeatMode> = { all: 'one', one: 'off', off: 'all' }

/** A kept mode; `true`/`false` are the on/off repeat kept before decision 022. */
export const repeatModeOf = (v: unknown): RepeatMode => (v === 'off' || v === 'all' || v === 'one' ? v : v === true ? 'one' : DEFAULT_REPEAT)

/** Where the queue came from: recorded with play events and shown as the label badge. */
export type QueueContext = { source: 'local' | 'remote' | 'folder'; playlistId?: string; label?: string }

export type EngineState = {
  tracks: Track[]
  /** Play order: indexes into tracks, sequential unless shuffled. */
  order: number[]
  /** The current track's index, -1 when none. */
  index: number
  shuffle: boolean
  /** What a track's end does: restart it ('one'), go on and wrap ('all'), or stop after the last ('off'). */
  repeat: RepeatMode
  context: QueueContext | null
  /** The listener wants sound: a (re)load starts playing. */
  wantPlay: boolean
  /** What the media element reports. */
  playing: boolean
  /** The source of the play event to open when the element starts playing. */
  pendingSource: PlaySource | null
  /** A play event is open for the current track. */
  reporting: boolean
  /** Bumped whenever the media element must load the current track again. */
  loads: number
  /** URLs whose media-error fallback was tried already. */
  fellBack: string[]
  /** URL being test-loaded for the audio fallback. */
  probing: string | null
  /** An advert between tracks: the promotion shown and the index that plays after it. */
  advert: { promotion: number; resumeAt: number } | null
  /** The playback error that replaces the player. */
  error: string | null
  /** A play() failure shown under the media ("Error playing audio: ..."). */
  message: string | null
  volume: number
  muted: boolean
  /** The volume mute stored, restored on unmute. */
  savedVolume: number
}

export type Effect =
  /** Point the element at the current track (and start it when `play`), from `at` seconds if given. */
  | { type: 'load'; url: string; play: boolean; at?: number }
  | { type: 'unload' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'seek'; to: number }
  /** Close the open play event: left early (skip), ended, or ended and repeated. */
  | { type: 'report'; how: 'skip' | 'ended' | 'repeated' }
  | { type: 'beginPlay'; source: PlaySource }
  /** Send the open play event's counters so far (not completed). */
  | { type: 'progress' }
  | { type: 'interaction'; kind: 'repeat' }
  /** Test-load the URL: does anything play there at all? Answered with `probed`. */
  | { type: 'probe'; url: string }
  /** Persist a track's corrected mime in the stored lists. */
  | { type: 'storeMime'; url: string; mime: string }
  /** Close the advert after `ms` (answered with `advertClosed`). */
  | { type: 'advertTimer'; ms: number }

export type EngineEvent =
  | { type: 'replace'; tracks: Track[]; context: QueueContext | null; autoPlay: boolean }
  /** A saved queue comes back (a reload, another device): its place, order and settings. */
  | { type: 'restore'; queue: RestoredQueue; play: boolean }
  | { type: 'select'; index: number }
  | { type: 'next' }
  /** `at`: the current track's time; past RESTART_PREVIOUS_SECONDS, Previous restarts it instead. */
  | { type: 'previous'; at?: number }
  | { type: 'togglePlay' }
  | { type: 'stop' }
  | { type: 'toggleShuffle'; random?: Rng }
  | { type: 'toggleRepeat' }
  | { type: 'setVolume'; volume: number }
  | { type: 'toggleMute' }
  /** A volume key: `by` up or down from the volume heard (a step up while muted unmutes). */
  | { type: 'stepVolume'; by: number }
  | { type: 'ended'; roll: number; chance: number; promotions: number; pick?: number }
  | { type: 'advertClosed' }
  | { type: 'elementPlay' }
  | { type: 'elementPlaying' }
  /** The element paused; `ended` for the pause that precedes 'ended' (not a listener's pause). */
  | { type: 'elementPause'; ended: boolean }
  /** The 30-second progress clock. */
  | { type: 'tick' }
  | { type: 'duration'; url: string; seconds: number }
  | { type: 'mediaError'; code: number | undefined }
  | { type: 'probed'; url: string; ok: boolean }
  | { type: 'playRejected'; name: string; message: string }
  | { type: 'dismissError' }
  | { type: 'playNext'; tracks: Track[] }
  | { type: 'append'; tracks: Track[] }
  | { type: 'remove'; index: number }
  | { type: 'move'; from: number; to: number }
  /** Moves the track at play-order position `from` to position `to` ("Up Next" shows play order). */
  | { type: 'reorder'; from: number; to: number }
  | { type: 'clear' }

export type RestoredQueue = {
  tracks: Track[]
  context: QueueContext | null
  index: number
  positionSec: number
  /** The saved play order, used only when it is a permutation of the tracks' indexes. */
  order?: number[]
  shuffle?: boolean
  /** A RepeatMode (a boolean from before decision 022 is read by repeatModeOf). */
  repeat?: RepeatMode | boolean
  volume?: number
  muted?: boolean
}

/** Is `order` a play order of n tracks (each index once)? */
const isOrderOf = (order: readonly number[] | undefined, n: number): order is number[] =>
  !!order && order.length === n && new Set(order).size === n && order.every((i) => Number.isInteger(i) && i >= 0 && i < n)

export type Step = { state: EngineState; effects: Effect[] }

export const ADVERT_MS = 5000
/** Previous past this many seconds into a track restarts it (the usual players' rule). */
export const RESTART_PREVIOUS_SECONDS = 3

export function initialState(overrides: Partial<EngineState> = {}): EngineState {
  return {
    tracks: [],
    order: [],
    index: -1,
    shuffle: false,
    repeat: DEFAULT_REPEAT,
    context: null,
    wantPlay: false,
    playing: false,
    pendingSource: null,
    reporting: false,
    loads: 0,
    fellBack: [],
    probing: null,
    advert: null,
    error: null,
    message: null,
    volume: DEFAULT_VOLUME,
    muted: false,
    savedVolume: DEFAULT_VOLUME,
    ...overrides,
  }
}

export const currentTrack = (s: EngineState): Track | undefined => (s.index >= 0 ? s.tracks[s.index] : undefined)

/** Video by mime or URL extension, unless the fallback already made the track audio/mpeg. */
export const isVideoTrack = (s: EngineState, t: Track) => (s.fellBack.includes(t.url) ? t.mime.toLowerCase().startsWith('video') : isVideo(t))

/** The current track is a live internet radio station. */
const isLiveNow = (s: EngineState) => {
  const t = currentTrack(s)
  return !!t && isLive(t)
}

/**
 * Stops a live station and drops its stream. Unloading discards the element's pending 'pause'
 * event (the media load algorithm clears its queued events), so the pause is settled here: the
 * play event's listening so far is sent and the state is not playing.
 */
function letStationGo(s: EngineState, effects: Effect[]): EngineState {
  if (s.reporting && s.playing) effects.push({ type: 'progress' })
  effects.push({ type: 'pause' }, { type: 'unload' })
  return { ...s, wantPlay: false, playing: false }
}

/** The step source: 'shuffle' while shuffled, else 'playlist'. */
const stepSource = (s: EngineState): PlaySource => (s.shuffle ? 'shuffle' : 'playlist')

const sameUrls = (a: readonly Track[], b: readonly Track[]) => a.length === b.length && a.every((t, i) => t.url === b[i].url)

/** Closes the open play event as skipped (if one is open). */
function leave(s: EngineState, effects: Effect[], how: 'skip' | 'ended' = 'skip'): EngineState {
  if (!s.reporting) return s
  effects.push({ type: 'report', how })
  return { ...s, reporting: false }
}

/** Makes `target` current and loads it, playing. */
function go(s: EngineState, target: number, source: PlaySource, effects: Effect[]): EngineState {
  if (target < 0 || target >= s.tracks.length) return s
  const left = leave(s, effects)
  effects.push({ type: 'load', url: left.tracks[target].url, play: true })
  return { ...left, index: target, wantPlay: true, pendingSource: source, error: null, message: null, advert: null, probing: null, loads: left.loads + 1 }
}

function loadCurrent(s: EngineState, effects: Effect[]): EngineState {
  const t = currentTrack(s)
  effects.push(t ? { type: 'load', url: t.url, play: s.wantPlay } : { type: 'unload' })
  return { ...s, loads: s.loads + 1 }
}

/** Replaces the queue's tracks, mapping old indexes to new ones (-1 = removed), keeping order sane. */
function reshape(s: EngineState, tracks: Track[], map: (old: number) => number, added: number[], insertAfterCurrent: boolean): EngineState {
  if (!s.shuffle) return { ...s, tracks, order: makeOrder(tracks.length, false), index: s.index >= 0 ? map(s.index) : s.index }
  const order = s.order.map(map).filter((i) => i >= 0)
  const index = s.index >= 0 ? map(s.index) : s.index
  if (insertAfterCurrent) {
    const at = order.indexOf(index)
    order.splice(at + 1, 0, ...added)
  } else order.push(...added)
  return { ...s, tracks, order, index }
}

function applyMime(s: EngineState, url: string, mime: string, effects: Effect[]): EngineState {
  const tracks = s.tracks.map((t) => (t.url === url ? { ...t, mime } : t))
  effects.push({ type: 'storeMime', url, mime })
  return loadCurrent({ ...s, tracks, probing: null }, effects)
}

function showError(s: EngineState, code: number | undefined, effects: Effect[]): EngineState {
  const left = leave(s, effects)
  return { ...left, wantPlay: false, playing: false, probing: null, error: playbackErrorText(code) }
}

export function reduce(s: EngineState, e: EngineEvent): Step {
  const effects: Effect[] = []
  const done = (state: EngineState): Step => ({ state, effects })

  switch (e.type) {
    case 'replace': {
      const same = s.tracks.length > 0 && sameUrls(s.tracks, e.tracks)
      // The same files again keep their mime fixes and known durations.
      const fixed = new Map(same ? s.tracks.filter((t) => s.fellBack.includes(t.url)).map((t) => [t.url, t.mime]) : [])
      const tracks = same ? e.tracks.map((t, i) => ({ ...t, mime: fixed.get(t.url) ?? t.mime, duration: t.duration || s.tracks[i].duration })) : e.tracks
      // Tags read later (no autoPlay): refresh the titles, keep the place and what plays. A list's
      // Play (autoPlay) always starts it over, even when the queue already holds it.
      if (same && !e.autoPlay) return done({ ...s, tracks, context: e.context ?? s.context })
      // A new list starts over: order, index and shuffle are reset together with the list, so
      // nothing reads an old index against a shorter list.
      const left = leave(s, effects)
      const start = e.autoPlay && e.tracks.length > 0
      const next: EngineState = {
        ...left,
        tracks,
        order: makeOrder(e.tracks.length, false),
        index: e.tracks.length > 0 ? 0 : -1,
        shuffle: false,
        context: e.context,
        wantPlay: start,
        pendingSource: start ? 'playlist' : null,
        fellBack: same ? s.fellBack : [],
        probing: null,
        advert: null,
        error: null,
        message: null,
      }
      return done(loadCurrent(next, effects))
    }

    case 'restore': {
      // Like a new list (nothing of the old one survives), but at the saved place and settings.
      const q = e.queue
      const left = leave(s, effects)
      if (q.tracks.length === 0) return done(left)
      const shuffle = !!q.shuffle && isOrderOf(q.order, q.tracks.length)
      const index = Number.isInteger(q.index) && q.index >= 0 && q.index < q.tracks.length ? q.index : 0
      const volume = typeof q.volume === 'number' && Number.isFinite(q.volume) ? Math.min(1, Math.max(0, q.volume)) : left.volume
      // A station resumes live, never at the saved second.
      const at = Number.isFinite(q.positionSec) && q.positionSec > 0 && !isLive(q.tracks[index]) ? q.positionSec : 0
      effects.push({ type: 'load', url: q.tracks[index].url, play: e.play, ...(at > 0 ? { at } : {}) })
      return done({
        ...left,
        tracks: q.tracks,
        order: shuffle ? (q.order as number[]) : makeOrder(q.tracks.length, false),
        index,
        shuffle,
        repeat: repeatModeOf(q.repeat),
        context: q.context,
        wantPlay: e.play,
        pendingSource: e.play ? 'playlist' : null,
        volume,
        muted: !!q.muted,
        savedVolume: volume > 0 ? volume : left.savedVolume,
        fellBack: [],
        probing: null,
        advert: null,
        error: null,
        message: null,
        loads: left.loads + 1,
      })
    }

    case 'select': {
      // Picking a track by hand turns shuffle off and reports the previous one.
      const base = s.shuffle ? { ...s, shuffle: false, order: makeOrder(s.tracks.length, false) } : s
      return done(go(base, e.index, 'direct', effects))
    }

    case 'next':
      return done(s.tracks.length > 0 ? go(s, nextIndex(s.order, s.index), stepSource(s), effects) : s)

    case 'previous':
      // A live station has no start to go back to: Previous is the station before it.
      if (s.index >= 0 && (e.at ?? 0) > RESTART_PREVIOUS_SECONDS && !isLiveNow(s)) {
        effects.push({ type: 'seek', to: 0 })
        return done(s)
      }
      return done(s.tracks.length > 0 ? go(s, previousIndex(s.order, s.index), stepSource(s), effects) : s)

    case 'togglePlay': {
      if (s.advert) return done(s)
      if (s.index < 0) return done(s.tracks.length > 0 ? go(s, s.order[0] ?? 0, stepSource(s), effects) : s)
      if (s.playing) {
        // A paused station is let go (its connection closed); playing again tunes in afresh.
        if (isLiveNow(s)) return done(letStationGo(s, effects))
        effects.push({ type: 'pause' })
        return done({ ...s, wantPlay: false })
      }
      const pendingSource = s.reporting || s.pendingSource ? s.pendingSource : 'direct'
      if (isLiveNow(s)) return done(loadCurrent({ ...s, wantPlay: true, pendingSource, error: null, message: null }, effects))
      effects.push({ type: 'play' })
      return done({ ...s, wantPlay: true, pendingSource, error: null })
    }

    case 'stop':
      if (s.index < 0) return done(s)
      if (isLiveNow(s)) return done(letStationGo(s, effects))
      effects.push({ type: 'pause' }, { type: 'seek', to: 0 })
      return done({ ...s, wantPlay: false })

    case 'toggleShuffle': {
      const on = !s.shuffle
      return done({ ...s, shuffle: on, order: makeOrder(s.tracks.length, on, e.random) })
    }

    case 'toggleRepeat':
      return done({ ...s, repeat: NEXT_REPEAT[s.repeat] })

    case 'setVolume': {
      const volume = Math.min(1, Math.max(0, Math.round(e.volume * 100) / 100))
      return done({ ...s, volume, muted: s.muted && volume === 0 })
    }

    case 'stepVolume':
      // Muted, a step up brings back the stored volume (not a step above silence); down stays muted.
      if (s.muted) return e.by > 0 ? reduce(s, { type: 'toggleMute' }) : done(s)
      return reduce(s, { type: 'setVolume', volume: s.volume + e.by })

    case 'toggleMute':
      if (s.muted) return done({ ...s, muted: false, volume: s.savedVolume > 0 ? s.savedVolume : DEFAULT_VOLUME })
      return done({ ...s, muted: true, savedVolume: s.volume })

    case 'ended': {
      const t = currentTrack(s)
      if (!t) return done(s)
      // A station has no end: its stream ending means it stopped sending (off air, a dropped line).
      if (isLive(t)) return done({ ...leave(s, effects, 'ended'), wantPlay: false, message: 'The station stopped sending. Press play to tune in again.' })
      if (s.repeat === 'one') {
        // Repeat: the play is completed and repeated, a repeat is logged, the track restarts.
        if (s.reporting) effects.push({ type: 'report', how: 'repeated' })
        effects.push({ type: 'interaction', kind: 'repeat' }, { type: 'seek', to: 0 }, { type: 'play' })
        return done({ ...s, reporting: false, pendingSource: 'repeat', wantPlay: true })
      }
      const left = leave(s, effects, 'ended')
      // Repeat off: the end of the last track in play order is the end of listening.
      if (s.repeat === 'off' && s.order.indexOf(s.index) === s.order.length - 1) return done({ ...left, wantPlay: false })
      const target = nextIndex(left.order, left.index)
      if (e.promotions > 0 && shouldShowAd(false, e.chance, e.roll)) {
        // An advert first: playback waits, the advert closes after 5 s, then the next track plays.
        const promotion = Math.min(e.promotions - 1, Math.floor((e.pick ?? 0) * e.promotions))
        effects.push({ type: 'advertTimer', ms: ADVERT_MS })
        return done({ ...left, wantPlay: false, advert: { promotion, resumeAt: target } })
      }
      return done(go(left, target, stepSource(left), effects))
    }

    case 'advertClosed': {
      if (!s.advert) return done(s)
      const next = s.advert.resumeAt
      return done(go({ ...s, advert: null }, next, stepSource(s), effects))
    }

    case 'elementPlay':
      return done({ ...s, playing: true })

    case 'elementPlaying': {
      // The element really plays: open the play event the last choice asked for.
      if (!s.pendingSource) return done({ ...s, playing: true, message: null })
      // Whatever led to it, listening to a station counts as radio.
      effects.push({ type: 'beginPlay', source: isLiveNow(s) ? 'radio' : s.pendingSource })
      return done({ ...s, playing: true, message: null, pendingSource: null, reporting: true })
    }

    case 'elementPause':
      // Pausing reports the listen duration, not completed.
      if (s.reporting && !e.ended) effects.push({ type: 'progress' })
      return done({ ...s, playing: false })

    case 'tick':
      if (s.reporting && s.playing) effects.push({ type: 'progress' })
      return done(s)

    case 'duration': {
      if (!Number.isFinite(e.seconds) || e.seconds <= 0) return done(s)
      const i = s.tracks.findIndex((t) => t.url === e.url)
      if (i < 0 || s.tracks[i].duration > 0) return done(s)
      const tracks = s.tracks.slice()
      tracks[i] = { ...tracks[i], duration: e.seconds }
      return done({ ...s, tracks })
    }

    case 'mediaError': {
      const t = currentTrack(s)
      if (!t || !e.code || e.code === 1) return done(s) // aborts are not errors
      if (!s.fellBack.includes(t.url)) {
        const tried = { ...s, fellBack: [...s.fellBack, t.url] }
        // A video that will not play may still have a playable audio track.
        if (isVideo(t) && t.mime !== DEFAULT_MIME) return done(applyMime(tried, t.url, DEFAULT_MIME, effects))
        // Audio: try audio/mpeg only if a test load of the URL fails too.
        if (t.mime !== DEFAULT_MIME) {
          effects.push({ type: 'probe', url: t.url })
          return done({ ...tried, probing: t.url })
        }
      }
      return done(showError(s, e.code, effects))
    }

    case 'probed': {
      if (s.probing !== e.url || currentTrack(s)?.url !== e.url) return done(s)
      if (!e.ok) return done(applyMime(s, e.url, DEFAULT_MIME, effects))
      // The URL loads, yet the element failed: a real playback error (decoding, most likely).
      return done(showError(s, 3, effects))
    }

    case 'playRejected': {
      if (isIgnorablePlayRejection({ name: e.name })) return done(e.name === 'NotAllowedError' ? { ...s, wantPlay: false } : s)
      if (e.name === 'NotSupportedError') return done(s) // the element's error event handles it
      return done({ ...s, message: `Error playing audio: ${e.message}` })
    }

    case 'dismissError':
      return done({ ...s, error: null })

    case 'playNext':
    case 'append': {
      if (e.tracks.length === 0) return done(s)
      if (s.tracks.length === 0) return reduce(s, { type: 'replace', tracks: e.tracks, context: s.context, autoPlay: false })
      const at = e.type === 'playNext' ? Math.max(0, s.index) + 1 : s.tracks.length
      const tracks = [...s.tracks.slice(0, at), ...e.tracks, ...s.tracks.slice(at)]
      const added = e.tracks.map((_, k) => at + k)
      return done(reshape(s, tracks, (old) => (old >= at ? old + e.tracks.length : old), added, e.type === 'playNext'))
    }

    case 'remove': {
      if (e.index < 0 || e.index >= s.tracks.length) return done(s)
      const tracks = s.tracks.filter((_, i) => i !== e.index)
      if (tracks.length === 0) return reduce(s, { type: 'clear' })
      const removingCurrent = e.index === s.index
      // The current track removed: what followed it in play order becomes current.
      const follower = removingCurrent ? nextIndex(s.order, s.index) : -1
      const map = (old: number) => (old === e.index ? -1 : old > e.index ? old - 1 : old)
      let next = reshape(removingCurrent ? leave(s, effects) : s, tracks, map, [], false)
      if (removingCurrent) {
        next = { ...next, index: map(follower === e.index ? -1 : follower), pendingSource: next.wantPlay ? stepSource(s) : null }
        if (next.index < 0) next = { ...next, index: 0 }
        next = loadCurrent(next, effects)
      }
      return done(next)
    }

    case 'move': {
      const n = s.tracks.length
      if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n || e.from === e.to) return done(s)
      const tracks = s.tracks.slice()
      const [moved] = tracks.splice(e.from, 1)
      tracks.splice(e.to, 0, moved)
      const map = (old: number) => {
        if (old === e.from) return e.to
        if (e.from < e.to && old > e.from && old <= e.to) return old - 1
        if (e.from > e.to && old >= e.to && old < e.from) return old + 1
        return old
      }
      return done(reshape(s, tracks, map, [], false))
    }

    case 'reorder': {
      const n = s.order.length
      if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n || e.from === e.to) return done(s)
      // Sequential play order is the track order itself; a shuffled order moves within itself.
      if (!s.shuffle) return reduce(s, { type: 'move', from: s.order[e.from], to: s.order[e.to] })
      const order = s.order.slice()
      const [moved] = order.splice(e.from, 1)
      order.splice(e.to, 0, moved)
      return done({ ...s, order })
    }

    case 'clear': {
      const left = leave(s, effects)
      effects.push({ type: 'unload' })
      return done({
        ...left,
        tracks: [],
        order: [],
        index: -1,
        shuffle: false,
        context: null,
        wantPlay: false,
        playing: false,
        pendingSource: null,
        advert: null,
        error: null,
        message: null,
        probing: null,
        fellBack: [],
        loads: left.loads + 1,
      })
    }
  }
}
