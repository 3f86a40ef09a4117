// The one player of the app (CONTRACT §6 "One player for the whole app"): a store that holds the
// engine's state (engine.ts), owns the single media element and applies the engine's effects to
// it and to the listening tracker. It lives for the whole page — above the routes — so moving
// between pages never stops, restarts or forgets what plays. Views subscribe with
// useSyncExternalStore (usePlayer) and send events (player.send); the full player screen
// borrows the media element to show video (MediaSlot in player.tsx).
import { useSyncExternalStore } from 'react'
import { LOGOUT_EVENT } from '~/client/features/auth/auth-store'
import { inferArtist, inferYear } from '~/shared/player/file-name'
import { AD_CHANCE } from '~/shared/player/errors'
import { leaveReport, PROGRESS_REPORT_MS, round2 } from '~/shared/player/listening'
import { displayTitle, type Track } from '~/shared/player/track'
import type { PlaySource } from '~/shared/validators'
import { currentTrack, initialState, reduce, type Effect, type EngineEvent, type EngineState, type RestoredQueue } from './engine'
import { createQueueKeeper, type QueueKeeper } from './queue-keeper'
import { pageTracker, type PlayHandle } from './listening-tracker'
import { patchStoredMime } from './stored-playlists'
import { mediaUrlOf, trackIdOf } from './track-identity'

export const SEEK_STEP = 10

/** Where the media element lives while no full player is on screen (see player-host.tsx). */
export const MEDIA_HOST_ID = 'vibes-media-host'

/** While a full player is on screen the now-playing bar steps aside (one set of controls). */
const fullViews = { count: 0, listeners: new Set<() => void>() }
export const fullPlayerShown = {
  subscribe(l: () => void) {
    fullViews.listeners.add(l)
    return () => void fullViews.listeners.delete(l)
  },
  get: () => fullViews.count > 0,
}
export function setFullView(delta: number) {
  fullViews.count += delta
  for (const l of fullViews.listeners) l()
}

/** A local folder's queue from the last page: the player asks for the folder again. */
export type LocalResume = { label: string; count: number; queue: RestoredQueue }

export type PlayerSnapshot = { engine: EngineState; currentTime: number; duration: number; localResume: LocalResume | null }

type Counters = { listened: number; lastTime: number; buffers: number; drops: number; lastHeight: number; started: boolean }
const freshCounters = (): Counters => ({ listened: 0, lastTime: 0, buffers: 0, drops: 0, lastHeight: 0, started: false })

/** Tests force or forbid adverts with window.__vibesAdChance (read at each decision). */
function adChance(): number {
  const forced = (window as unknown as { __vibesAdChance?: unknown }).__vibesAdChance
  return typeof forced === 'number' ? forced : AD_CHANCE
}

/** Does anything play at this URL? (the audio fallback's test load, §4). */
function testLoad(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = new Audio()
    const done = (ok: boolean) => {
      clearTimeout(timer)
      probe.removeAttribute('src')
      resolve(ok)
    }
    const timer = setTimeout(() => done(false), 10_000)
    probe.preload = 'metadata'
    probe.onloadedmetadata = () => done(true)
    probe.onerror = () => done(false)
    probe.src = mediaUrlOf(url)
  })
}

export function createPlayer() {
  let snapshot: PlayerSnapshot = { engine: initialState(), currentTime: 0, duration: 0, localResume: null }
  const listeners = new Set<() => void>()
  let element: HTMLVideoElement | null = null
  let counters = freshCounters()
  let play: PlayHandle | null = null
  let promotions = 0
  let advertTimer: ReturnType<typeof setTimeout> | null = null
  let progressTimer: ReturnType<typeof setInterval> | null = null
  let keeper: QueueKeeper | null = null
  /** Where a restored track starts once its metadata is in. */
  let startAt = 0

  const emit = (next: Partial<PlayerSnapshot>) => {
    snapshot = { ...snapshot, ...next }
    for (const l of listeners) l()
  }

  function send(event: EngineEvent) {
    const before = snapshot.engine
    const step = reduce(before, event)
    emit({ engine: step.state })
    for (const effect of step.effects) apply(effect)
    keeper?.observe(step.state, element?.currentTime ?? 0, { force: event.type === 'elementPause' })
    const el = element
    if (el) {
      el.volume = step.state.volume
      el.muted = step.state.muted
    }
    // Progress every 30 s while playing (§4, §9).
    if (step.state.playing && !progressTimer) progressTimer = setInterval(() => send({ type: 'tick' }), PROGRESS_REPORT_MS)
    if (!step.state.playing && progressTimer) {
      clearInterval(progressTimer)
      progressTimer = null
    }
  }

  const counterFields = () => ({ listenDuration: round2(counters.listened), bufferCount: counters.buffers, qualityDrops: counters.drops })
  const knownDuration = () => {
    const d = element?.duration
    return d && Number.isFinite(d) ? d : (currentTrack(snapshot.engine)?.duration ?? 0)
  }

  /** Reports how the current play ended and forgets it (durably when the page is going away). */
  function report(how: 'skip' | 'ended' | 'repeated', exiting = false) {
    const h = play
    if (!h) return
    const result =
      how === 'skip'
        ? leaveReport(counters.listened, knownDuration(), element?.currentTime ?? 0)
        : { completed: true, skipped: false, ...(how === 'repeated' ? { repeated: true } : {}) }
    const update = { ...counterFields(), ...result, endedAt: Date.now() }
    if (exiting) h.exitUpdate(update)
    else void h.update(update)
    h.close()
    play = null
    if (how === 'repeated') counters = freshCounters()
  }

  function beginPlay(source: PlaySource) {
    const s = snapshot.engine
    const current = currentTrack(s)
    if (!current) return
    const title = displayTitle(current)
    // Untagged tracks still tell what they can (§5 "Metadata inference").
    const inferred = current.artist ? null : inferArtist(title)
    const ctx = s.context
    play = pageTracker().startPlay({
      trackId: trackIdOf(current.url),
      url: current.url,
      title,
      duration: knownDuration(),
      artist: current.artist || inferred?.artist,
      album: current.album === 'Unknown Album' ? undefined : current.album,
      genre: current.genre,
      year: current.year ?? inferYear(title),
      source,
      playlistId: ctx?.playlistId ?? (ctx && ctx.source !== 'folder' ? ctx.source : undefined),
      list: s.order.map((i) => s.tracks[i]).filter(Boolean),
      idOf: trackIdOf,
    })
  }

  async function startElement() {
    const el = element
    if (!el) return
    try {
      await el.play()
    } catch (error) {
      const e = error as Error
      send({ type: 'playRejected', name: e.name, message: e.message })
    }
  }

  function apply(effect: Effect) {
    const el = element
    switch (effect.type) {
      case 'load':
        counters = freshCounters()
        startAt = effect.at ?? 0
        emit({ currentTime: startAt, duration: 0 })
        if (!el) return
        el.src = mediaUrlOf(effect.url)
        el.load()
        if (effect.play) void startElement()
        return
      case 'unload':
        counters = freshCounters()
        emit({ currentTime: 0, duration: 0 })
        if (!el) return
        el.removeAttribute('src')
        el.load()
        return
      case 'play':
        void startElement()
        return
      case 'pause':
        el?.pause()
        return
      case 'seek':
        if (el) el.currentTime = effect.to
        emit({ currentTime: effect.to })
        return
      case 'report':
        report(effect.how)
        return
      case 'beginPlay':
        beginPlay(effect.source)
        return
      case 'progress':
        if (play) void play.update({ ...counterFields(), completed: false })
        return
      case 'interaction': {
        const t = currentTrack(snapshot.engine)
        if (t) pageTracker().recordInteraction(trackIdOf(t.url), effect.kind)
        return
      }
      case 'probe':
        void testLoad(effect.url).then((ok) => send({ type: 'probed', url: effect.url, ok }))
        return
      case 'storeMime':
        patchStoredMime(effect.url, effect.mime)
        return
      case 'advertTimer':
        if (advertTimer) clearTimeout(advertTimer)
        advertTimer = setTimeout(() => {
          advertTimer = null
          send({ type: 'advertClosed' })
        }, effect.ms)
        return
    }
  }

  /** Creates the media element and wires its events (once, in the browser). */
  function mediaElement(): HTMLVideoElement {
    if (element) return element
    const el = document.createElement('video')
    el.dataset.testid = 'media'
    el.playsInline = true
    el.preload = 'metadata'
    element = el
    const on = (type: string, fn: () => void) => el.addEventListener(type, fn)
    on('play', () => send({ type: 'elementPlay' }))
    on('playing', () => {
      counters.started = true
      send({ type: 'elementPlaying' })
    })
    // The pause before 'ended' is not a listener's pause.
    on('pause', () => send({ type: 'elementPause', ended: el.ended }))
    on('timeupdate', () => {
      const t = el.currentTime
      const delta = t - counters.lastTime
      if (!el.paused && delta > 0 && delta < 1.5) counters.listened += delta
      counters.lastTime = t
      emit({ currentTime: t })
      keeper?.observe(snapshot.engine, t)
    })
    on('seeked', () => (counters.lastTime = el.currentTime))
    on('durationchange', () => emit({ duration: Number.isFinite(el.duration) ? el.duration : 0 }))
    on('loadedmetadata', () => {
      if (startAt > 0) {
        el.currentTime = Math.min(startAt, Number.isFinite(el.duration) ? el.duration : startAt)
        counters.lastTime = el.currentTime
        startAt = 0
      }
      const t = currentTrack(snapshot.engine)
      if (t) send({ type: 'duration', url: t.url, seconds: el.duration })
    })
    on('waiting', () => counters.started && counters.buffers++)
    on('stalled', () => counters.started && counters.buffers++)
    on('resize', () => {
      if (counters.lastHeight && el.videoHeight < counters.lastHeight) counters.drops++
      counters.lastHeight = el.videoHeight
    })
    on('ended', () => send({ type: 'ended', roll: Math.random(), chance: adChance(), promotions, pick: Math.random() }))
    on('error', () => send({ type: 'mediaError', code: el.error?.code }))
    // Leaving the page reports the play as left; logging out clears the queue (§4 "Auth").
    window.addEventListener('pagehide', () => {
      report('skip', true)
      keeper?.observe(snapshot.engine, el.currentTime, { force: true })
    })
    window.addEventListener(LOGOUT_EVENT, () => {
      emit({ localResume: null })
      send({ type: 'clear' })
    })
    resumeFromStorage()
    return el
  }

  /** Brings back what the last page kept (a reload): the queue, or a local folder to ask for. */
  function resumeFromStorage() {
    try {
      keeper = createQueueKeeper({ storage: localStorage })
    } catch {
      return // storage forbidden: nothing to resume, nothing to keep
    }
    const saved = keeper.read()
    if (!saved) return
    if (!saved.local) return send({ type: 'restore', queue: saved.queue, play: false })
    const { volume, muted } = saved.queue
    if (typeof volume === 'number') send({ type: 'setVolume', volume })
    if (muted) send({ type: 'toggleMute' })
    emit({ localResume: { label: saved.queue.context?.label || 'Local Files', count: saved.queue.tracks.length, queue: saved.queue } })
  }

  /**
   * A picked local folder: if it is the folder the last page played, it resumes at its place;
   * otherwise it starts from its first track.
   */
  function loadLocal(tracks: Track[], label: string) {
    const pending = snapshot.localResume
    emit({ localResume: null })
    const context = { source: 'local' as const, label }
    const saved = pending?.queue.tracks
    const same = saved && saved.length === tracks.length && saved.every((t, i) => t.url === tracks[i].url)
    if (pending && same) send({ type: 'restore', queue: { ...pending.queue, tracks, context }, play: true })
    else send({ type: 'replace', tracks, context, autoPlay: true })
  }

  return {
    send,
    loadLocal,
    subscribe(l: () => void) {
      listeners.add(l)
      return () => void listeners.delete(l)
    },
    get: () => snapshot,
    mediaElement,
    /** The media element, if the page made it already. */
    existingElement: () => element,
    /** How many promotions an advert can pick from. */
    setPromotions(n: number) {
      promotions = n
    },
    closeAdvert() {
      if (advertTimer) clearTimeout(advertTimer)
      advertTimer = null
      send({ type: 'advertClosed' })
    },
    seekTo(t: number) {
      const el = element
      if (!el || !currentTrack(snapshot.engine)) return
      const max = Number.isFinite(el.duration) ? el.duration : Number.MAX_SAFE_INTEGER
      el.currentTime = Math.min(Math.max(0, t), max)
      emit({ currentTime: el.currentTime })
    },
    seekBy(delta: number) {
      this.seekTo((element?.currentTime ?? 0) + delta)
    },
    /** Liked or shared: a cumulative update of the open play event. */
    markPlay(fields: { liked?: boolean; shared?: boolean }) {
      if (play) void play.update({ ...counterFields(), ...fields })
    },
  }
}

export type Player = ReturnType<typeof createPlayer>

const SERVER_SNAPSHOT: PlayerSnapshot = { engine: initialState(), currentTime: 0, duration: 0, localResume: null }
let instance: Player | null = null

/** The page's player (made on first use in the browser). */
export function player(): Player {
  instance ??= createPlayer()
  return instance
}

const subscribe = (l: () => void) => (typeof window === 'undefined' ? () => {} : player().subscribe(l))
const getSnapshot = () => player().get()

/** The player's state for a view; the server renders the empty player. */
export function usePlayer(): PlayerSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot, () => SERVER_SNAPSHOT)
}
