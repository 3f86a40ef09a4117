// The one player of the app (changing pages never stops or forgets what plays): a store that holds the
// engine's state (engine.ts), owns the media elements and applies the engine's effects to them
// and to the listening tracker. Two elements take turns for gapless playback (decision 023): the
// spare loads the track the engine would play next and starts a moment before the current one
// ends; then it becomes the current element. Local and same-origin audio plays through one shared
// AudioContext, so that hand-over happens on one clock (audio-output.ts, decision 051); other
// sources and video use a second pair of elements with their own output. It lives for the whole page — above the routes — so moving
// between pages never stops, restarts or forgets what plays. Views subscribe with
// useSyncExternalStore (usePlayer) and send events (player.send); the full player screen
// borrows the media element to show video (MediaSlot in player.tsx).
import { useSyncExternalStore } from 'react'
import { LOGOUT_EVENT } from '~/client/features/auth/auth-store'
import { inferArtist, inferYear } from '~/shared/player/file-name'
import { AD_CHANCE } from '~/shared/player/errors'
import { leaveReport, PROGRESS_REPORT_MS, round2 } from '~/shared/player/listening'
import { displayTitle, isLive, type Track } from '~/shared/player/track'
import { episodeIdOfUrl } from '~/shared/podcasts'
import type { PlaySource } from '~/shared/validators'
import { currentTrack, initialState, isVideoTrack, reduce, type Effect, type EngineEvent, type EngineState, type RestoredQueue } from './engine'
import { probeMetadata } from './duration-probe'
import { createQueueKeeper, type QueueKeeper } from './queue-keeper'
import { pageTracker, type PlayHandle } from './listening-tracker'
import { outputFor, routeToGraph, wakeGraph, type Output } from './audio-output'
import { meterRead, meterStart, meterStop, silentMeter, type ListenMeter } from './listen-meter'
import { crossfadeGains, replayGainFactor } from './playback-gain'
import { playerSettings } from './player-settings'
import { patchStoredMime } from './stored-playlists'
import { mediaUrlOf, trackIdOf } from './track-identity'

export const SEEK_STEP = 10

/** Where the media element lives while no full player is on screen (see player-host.tsx). */
export const MEDIA_HOST_ID = 'vibes-media-host'

/** Whether a full player is on screen: the player bar then stays up even with nothing loaded. */
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

/** The open play's counters; `lastTime` is the position the last timeupdate saw (where a native seek left). */
type Counters = { meter: ListenMeter; lastTime: number; buffers: number; drops: number; lastHeight: number; started: boolean }
const freshCounters = (): Counters => ({ meter: silentMeter(), lastTime: 0, buffers: 0, drops: 0, lastHeight: 0, started: false })

/**
 * The operator's advert chance (`configured`, from the promotions list); tests force or forbid
 * adverts with window.__vibesAdChance (read at each decision).
 */
function adChance(configured: number): number {
  const forced = (window as unknown as { __vibesAdChance?: unknown }).__vibesAdChance
  return typeof forced === 'number' ? forced : configured
}

/** Does anything play at this URL? (the audio fallback's test load: an audio track becomes audio/mpeg only if this fails too). */
function testLoad(url: string): Promise<boolean> {
  const src = mediaUrlOf(url)
  return src ? probeMetadata(src).then((d) => d !== null) : Promise.resolve(false)
}

/** Gapless hand-over: the next track is loaded into the spare element this long before the end. */
const PRELOAD_SECONDS = 30
/**
 * The spare starts this long before the current element's end: what a preloaded element takes
 * from play() to sound in Chromium (measured with bench/player-gap.ts, decisions 023 and 051).
 */
const HANDOVER_LEAD_SECONDS = 0.02
/** The hand-over's last aim: its timer fires this much early at most and waits the rest out. */
const FINAL_WAIT_SECONDS = 0.04
/** How often a crossfade's volumes are stepped (a 50 ms step is below what the ear follows). */
const FADE_STEP_MS = 50

/** The crossfade for a track of this length: the setting, at most half the track. */
function crossfadeSeconds(duration: number): number {
  const wanted = playerSettings.get().crossfade
  return Number.isFinite(duration) ? Math.min(wanted, duration / 2) : 0
}

type EndedEvent = Extract<EngineEvent, { type: 'ended' }>

export function createPlayer() {
  let snapshot: PlayerSnapshot = { engine: initialState(), currentTime: 0, duration: 0, localResume: null }
  const listeners = new Set<() => void>()
  /** The element that plays what the engine calls current; its pair's other one preloads what follows. */
  let element: HTMLVideoElement | null = null
  /** Two elements per output (audio-output.ts), made when first needed. */
  const pairs: Partial<Record<Output, [HTMLVideoElement, HTMLVideoElement]>> = {}
  const outputOf = new WeakMap<HTMLVideoElement, Output>()
  /** Views' listeners (onMedia), on every element made so far and every one made later. */
  const viewListeners = new Set<{ type: string; fn: (e: Event) => void }>()
  /** The element handed over from, still sounding its last moment (or fading out). */
  let retiring: HTMLVideoElement | null = null
  /** A crossfade under way: the retiring track's ReplayGain factor and the ramp's timing. */
  let fade: { outGain: number; start: number; ms: number; timer: ReturnType<typeof setInterval> } | null = null
  /** The URL the next 'load' effect hands over to the spare instead of loading. */
  let handingOver: string | null = null
  let handoverTimer: ReturnType<typeof setTimeout> | null = null
  /** The current track's end, rolled once: the plan and the real end decide alike (adverts). */
  let endRoll: { roll: number; pick: number } | null = null
  let counters = freshCounters()
  let play: PlayHandle | null = null
  let promotions = 0
  let advertChance = AD_CHANCE
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
    // Previous restarts a track heard a while: the pure engine is told where the track is.
    if (event.type === 'previous' && event.at === undefined) event = { ...event, at: element?.currentTime ?? 0 }
    const step = reduce(before, event)
    emit({ engine: step.state })
    for (const effect of step.effects) apply(effect)
    keeper?.observe(step.state, element?.currentTime ?? 0, { force: event.type === 'elementPause' })
    applyVolume()
    // Progress every 30 s while playing.
    if (step.state.playing && !progressTimer) progressTimer = setInterval(() => send({ type: 'tick' }), PROGRESS_REPORT_MS)
    if (!step.state.playing && progressTimer) {
      clearInterval(progressTimer)
      progressTimer = null
    }
  }

  /**
   * The listener's volume × the current track's ReplayGain factor (× the crossfade's ramp while
   * one is under way) on the current element; the fading one gets its own share.
   */
  function applyVolume() {
    const { volume, muted } = snapshot.engine
    const mode = playerSettings.get().replayGain
    const ramp = fade ? crossfadeGains((performance.now() - fade.start) / fade.ms) : null
    const el = element
    if (el) {
      el.volume = volume * replayGainFactor(currentTrack(snapshot.engine)?.replayGain, mode) * (ramp?.in ?? 1)
      el.muted = muted
    }
    if (fade && retiring) {
      retiring.volume = volume * fade.outGain * (ramp?.out ?? 0)
      retiring.muted = muted
    }
  }

  /** Ends a crossfade: the fading element stops (and retires); the current one at full share. */
  function endFade() {
    if (!fade) return
    clearInterval(fade.timer)
    fade = null
    retiring?.pause()
    applyVolume()
  }

  const listened = () => meterRead(counters.meter, element?.currentTime ?? 0)
  /** Sound stopped (or is about to jump) at `at`: the stretch heard so far is counted. */
  const stopMeter = (at: number) => {
    counters.meter = meterStop(counters.meter, at)
  }
  const counterFields = () => ({ listenDuration: round2(listened()), bufferCount: counters.buffers, qualityDrops: counters.drops })
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
        ? leaveReport(listened(), knownDuration(), element?.currentTime ?? 0)
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
    // Untagged tracks still tell what they can: artist and year from the title.
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
      // A podcast episode counts as a podcast play in the analytics, however the queue reached it.
      source: episodeIdOfUrl(current.url) ? 'podcast' : source,
      playlistId: ctx?.playlistId ?? (ctx && ctx.source !== 'folder' ? ctx.source : undefined),
      list: s.order.map((i) => s.tracks[i]).filter(Boolean),
      idOf: trackIdOf,
    })
  }

  async function startElement() {
    const el = element
    if (!el) return
    wakeGraph()
    try {
      await el.play()
    } catch (error) {
      const e = error as Error
      send({ type: 'playRejected', name: e.name, message: e.message })
    }
  }

  /** The engine's event for the current track's end, with the roll made once per track. */
  function endedEvent(): EndedEvent {
    endRoll ??= { roll: Math.random(), pick: Math.random() }
    return { type: 'ended', roll: endRoll.roll, chance: adChance(advertChance), promotions, pick: endRoll.pick }
  }

  /**
   * The URL a gapless hand-over can start at the current track's end: the engine, asked without
   * effect (it is pure), would load it and play on. No hand-over when repeat, an advert or a video
   * (the borrowed element shows it) comes next. `atEnd`: the element has just ended by itself
   * (the pause it made on the way is not the listener's).
   */
  function gaplessNext(event: EndedEvent, atEnd = false): string | null {
    const s = snapshot.engine
    const now = currentTrack(s)
    // A live station neither ends nor is pre-rolled (its stream would be heard from the wrong moment).
    if (!now || isLive(now) || isVideoTrack(s, now) || (!s.playing && !atEnd)) return null
    const step = reduce(s, event)
    const load = step.effects.find((e) => e.type === 'load')
    const next = currentTrack(step.state)
    if (load?.type !== 'load' || !load.play || load.at || step.effects.some((e) => e.type === 'advertTimer')) return null
    if (!next || next.url !== load.url || isLive(next) || isVideoTrack(step.state, next)) return null
    return load.url
  }

  function pairFor(output: Output): [HTMLVideoElement, HTMLVideoElement] {
    let pair = pairs[output]
    if (!pair) {
      pair = [makeElement(), makeElement()]
      for (const el of pair) {
        outputOf.set(el, output)
        if (output === 'graph') routeToGraph(el)
        for (const v of viewListeners) el.addEventListener(v.type, v.fn)
      }
      pairs[output] = pair
    }
    return pair
  }

  /** The other element of the current one's pair: it preloads the next track. */
  function spareElement(): HTMLVideoElement | null {
    const output = element && outputOf.get(element)
    if (!output) return null
    const [a, b] = pairFor(output)
    return a === element ? b : a
  }

  /** `next` takes `old`'s place in the page, with what the views set on it, and its name. */
  function takePlace(next: HTMLVideoElement, old: HTMLVideoElement) {
    next.className = old.className
    if (old.dataset.kind) next.dataset.kind = old.dataset.kind
    next.controls = old.controls
    const label = old.getAttribute('aria-label')
    if (label) next.setAttribute('aria-label', label)
    else next.removeAttribute('aria-label')
    next.dataset.testid = 'media'
    delete old.dataset.testid
    if (old.parentElement) old.before(next)
  }

  /** Makes an element of that output current (before a load), retiring the one of the other. */
  function switchOutput(output: Output) {
    const old = element
    if (!old || outputOf.get(old) === output) return
    const [first, second] = pairFor(output)
    const next = first === retiring ? second : first
    takePlace(next, old)
    element = next
    old.pause()
    old.remove()
    old.removeAttribute('src')
    old.load()
  }

  /** A seek, a resume or a ready spare: the hand-over's timing is aimed again. */
  function replanHandover() {
    if (handoverTimer) clearTimeout(handoverTimer)
    handoverTimer = null
    if (element) planHandover(element)
  }

  function clearSpare() {
    if (handoverTimer) clearTimeout(handoverTimer)
    handoverTimer = null
    const spare = spareElement()
    if (!spare?.dataset.url) return
    delete spare.dataset.url
    spare.removeAttribute('src')
    spare.load()
  }

  /** Near the end: preload what follows, and time the hand-over to the current element's end. */
  function planHandover(el: HTMLVideoElement) {
    const sp = spareElement()
    // The spare may still be the element fading out: it preloads once that has retired.
    if (!sp || sp === retiring || el !== element || el.paused || !Number.isFinite(el.duration)) return
    const remaining = (el.duration - el.currentTime) / (el.playbackRate || 1)
    if (remaining > PRELOAD_SECONDS) return
    const url = gaplessNext(endedEvent())
    if (!url) return clearSpare()
    if (sp.dataset.url !== url) {
      clearSpare()
      const src = mediaUrlOf(url)
      // A track for the other output: the one-element path switches at the end.
      if (!src || outputFor(src, false) !== outputOf.get(el)) return
      sp.dataset.url = url
      sp.preload = 'auto'
      sp.src = src
      sp.load()
    }
    if (handoverTimer || sp.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) return
    // With a crossfade the spare starts that long before the end; without, just in time.
    const lead = crossfadeSeconds(el.duration) || HANDOVER_LEAD_SECONDS
    const wait = remaining - lead
    handoverTimer = setTimeout(
      () => {
        handoverTimer = null
        const left = (el.duration - el.currentTime) / (el.playbackRate || 1)
        if (el !== element || el.paused) return
        // Timers fire late on a busy page: aim again while far off, then wait the last
        // milliseconds out on the clock (a timer that late would be heard as a gap).
        if (left - lead > FINAL_WAIT_SECONDS) return planHandover(el)
        const until = performance.now() + (left - lead) * 1000
        while (performance.now() < until) {}
        handOver(Math.min(left, lead))
      },
      Math.max(0, wait > 1 ? wait * 1000 - 500 : (wait - FINAL_WAIT_SECONDS / 2) * 1000),
    )
  }

  /**
   * The spare becomes current and starts; the engine moves on as at the track's end. With a
   * crossfade (`left` seconds of the old track to go) the old one fades out as the new fades in.
   * False when the spare does not hold what follows.
   */
  function handOver(left: number, atEnd = false): boolean {
    const old = element
    const next = spareElement()
    const event = endedEvent()
    if (!old || !next?.dataset.url || gaplessNext(event, atEnd) !== next.dataset.url) return false
    const outGain = replayGainFactor(currentTrack(snapshot.engine)?.replayGain, playerSettings.get().replayGain)
    const fadeSeconds = crossfadeSeconds(old.duration) > 0 ? left : 0
    // The ending play was heard up to here; the next element's time is the next play's.
    stopMeter(old.currentTime)
    endFade()
    if (fadeSeconds > 0) {
      fade = { outGain, start: performance.now(), ms: fadeSeconds * 1000, timer: setInterval(stepFade, FADE_STEP_MS) }
    }
    element = next
    retiring = old
    handingOver = next.dataset.url
    delete next.dataset.url
    // The new element takes the old one's place (and name) at once; the old leaves when it ends.
    takePlace(next, old)
    // Sound first: the engine's bookkeeping below (and its own play()) would only delay it.
    wakeGraph()
    next.play().catch(() => {})
    send(event)
    handingOver = null
    // An element that has ended already sounds nothing more: it retires now.
    if (atEnd) retire(old)
    const t = currentTrack(snapshot.engine)
    if (t) send({ type: 'duration', url: t.url, seconds: next.duration })
    return true
  }

  /** One step of the crossfade's ramp; at its end the old element has faded out. */
  function stepFade() {
    if (fade && performance.now() - fade.start >= fade.ms) return endFade()
    applyVolume()
  }

  /** The old element has sounded its last: it leaves the page and waits to be the next spare. */
  function retire(old: HTMLVideoElement) {
    if (retiring !== old) return
    if (fade) {
      clearInterval(fade.timer)
      fade = null
    }
    retiring = null
    applyVolume() // a crossfade cut short by the old track's end: the new one at its full share
    old.remove()
    old.removeAttribute('src')
    old.load()
  }

  function apply(effect: Effect) {
    const el = element
    switch (effect.type) {
      case 'load':
        counters = freshCounters()
        endRoll = null
        startAt = effect.at ?? 0
        emit({ currentTime: startAt, duration: 0 })
        if (!el) return
        if (handingOver === effect.url) {
          emit({ duration: Number.isFinite(el.duration) ? el.duration : 0 })
          applyVolume()
          void startElement()
          return
        }
        endFade()
        clearSpare()
        {
          const src = mediaUrlOf(effect.url)
          const track = currentTrack(snapshot.engine)
          if (src) switchOutput(outputFor(src, track ? isVideoTrack(snapshot.engine, track) : false))
          const target = element ?? el
          // A replaced folder's file: nothing to load (the new list's load follows).
          if (!src) target.removeAttribute('src')
          else target.src = src
          target.load()
          if (src && effect.play) void startElement()
        }
        return
      case 'unload':
        counters = freshCounters()
        endRoll = null
        endFade()
        clearSpare()
        emit({ currentTime: 0, duration: 0 })
        if (!el) return
        el.removeAttribute('src')
        el.load()
        return
      case 'play':
        void startElement()
        return
      case 'pause':
        endFade()
        el?.pause()
        return
      case 'seek':
        if (el) {
          stopMeter(el.currentTime)
          el.currentTime = effect.to
        }
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

  /** Creates the media elements and wires their events (once, in the browser). */
  function mediaElement(): HTMLVideoElement {
    if (element) return element
    // Nothing is routed before a track asks for it: the AudioContext is made with the first one.
    element = pairFor('element')[0]
    element.dataset.testid = 'media'
    playerSettings.subscribe(applyVolume)
    // Leaving the page reports the play as left; logging out clears the queue.
    window.addEventListener('pagehide', () => {
      report('skip', true)
      keeper?.observe(snapshot.engine, element?.currentTime ?? 0, { force: true })
    })
    window.addEventListener(LOGOUT_EVENT, () => {
      emit({ localResume: null })
      send({ type: 'clear' })
    })
    resumeFromStorage()
    return element
  }

  /** One of the two elements; only the current one's events reach the engine. */
  function makeElement(): HTMLVideoElement {
    const el = document.createElement('video')
    el.playsInline = true
    el.preload = 'metadata'
    const on = (type: string, fn: () => void) =>
      el.addEventListener(type, () => {
        if (el === element) fn()
      })
    el.addEventListener('pause', () => retire(el))
    el.addEventListener('ended', () => retire(el))
    // The spare is ready: the hand-over can be timed (a seek near the end may be waiting for it).
    el.addEventListener('canplay', () => el === spareElement() && replanHandover())
    on('play', () => {
      send({ type: 'elementPlay' })
      replanHandover()
    })
    on('playing', () => {
      counters.started = true
      counters.meter = meterStart(counters.meter, el.currentTime)
      send({ type: 'elementPlaying' })
    })
    // The pause before 'ended' is not a listener's pause.
    on('pause', () => {
      stopMeter(el.currentTime)
      send({ type: 'elementPause', ended: el.ended })
    })
    on('timeupdate', () => {
      const t = el.currentTime
      counters.lastTime = t
      emit({ currentTime: t })
      keeper?.observe(snapshot.engine, t)
      planHandover(el)
    })
    // A seek by the element's own controls: by now the time is the target, so the stretch ends
    // where the last timeupdate saw it (seeks made here stopped the meter exactly, before).
    on('seeking', () => stopMeter(counters.lastTime))
    on('seeked', () => {
      counters.lastTime = el.currentTime
      if (!el.paused) counters.meter = meterStart(counters.meter, el.currentTime)
      replanHandover()
    })
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
    on('waiting', () => {
      stopMeter(el.currentTime)
      if (counters.started) counters.buffers++
    })
    on('stalled', () => counters.started && counters.buffers++)
    on('resize', () => {
      if (counters.lastHeight && el.videoHeight < counters.lastHeight) counters.drops++
      counters.lastHeight = el.videoHeight
    })
    // A hand-over its timer missed (a main thread busy elsewhere) still uses the preloaded spare:
    // late by that much, not by a whole new load.
    on('ended', () => handOver(0, true) || send(endedEvent()))
    on('error', () => send({ type: 'mediaError', code: el.error?.code }))
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
    /** A view's listener on the current media element, whichever of the two that is. */
    onMedia(type: string, fn: (e: Event) => void): () => void {
      mediaElement()
      const listener = { type, fn: (e: Event) => e.currentTarget === element && fn(e) }
      viewListeners.add(listener)
      const made = Object.values(pairs).flat()
      for (const el of made) el.addEventListener(type, listener.fn)
      return () => {
        viewListeners.delete(listener)
        for (const el of Object.values(pairs).flat()) el.removeEventListener(type, listener.fn)
      }
    },
    /** How many promotions an advert can pick from, and the chance of one at a track end (0–1). */
    setAdverts(count: number, chance: number) {
      promotions = count
      advertChance = chance
    },
    closeAdvert() {
      if (advertTimer) clearTimeout(advertTimer)
      advertTimer = null
      send({ type: 'advertClosed' })
    },
    seekTo(t: number) {
      const el = element
      const track = currentTrack(snapshot.engine)
      if (!el || !track || isLive(track)) return
      const max = Number.isFinite(el.duration) ? el.duration : Number.MAX_SAFE_INTEGER
      stopMeter(el.currentTime)
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
