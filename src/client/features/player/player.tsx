// The player (§2 "Player screen", §4 "Playback"): one media element for audio and video, the
// control bar, the track lists, adverts between tracks, media-error fallbacks, keyboard shortcuts,
// the Media Session API, and members' listening events. Any list of playable URLs works: object
// URLs of a local folder, a remote listing, or signed /media URLs of a member's folder.
import { useEffect, useMemo, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { useTRPCClient } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import { inferArtist, inferYear } from '~/shared/player/file-name'
import { AD_CHANCE, isIgnorablePlayRejection, PLAYBACK_ERROR_HINT, playbackErrorText, shouldShowAd } from '~/shared/player/errors'
import { leaveReport, PROGRESS_REPORT_MS, round2 } from '~/shared/player/listening'
import { makeOrder, nextIndex, previousIndex, visibleNeighbours } from '~/shared/player/order'
import { DEFAULT_MIME, displayTitle, formatTime, isVideo, type Track } from '~/shared/player/track'
import type { PlaySource } from '~/shared/validators'
import { Icon } from './icons'
import { installTracker, recordInteraction, startPlay, type PlayHandle } from './listening-tracker'
import { PlayerControls } from './player-controls'
import { SimplePlaylist, TrackList } from './player-lists'
import { AdvertModal, AD_SECONDS, usePromotions, type Promotion } from './promotions'
import { patchStoredMime } from './stored-playlists'
import { mediaUrlOf, trackIdOf } from './track-identity'
import { usePlayerKeys } from './use-player-keys'
import { useLikes } from './use-likes'

export type { Track } from '~/shared/player/track'

export type PlayerProps = {
  tracks: Track[]
  source: 'local' | 'remote' | 'folder'
  /** The member's folder id (folder source), recorded with play events. */
  playlistId?: string
  /** The label badge (folder or playlist name). */
  label?: string
  /** Start the first track as soon as a new list arrives (default true). */
  autoPlay?: boolean
}

export const DEFAULT_VOLUME = 0.8
export const SEEK_STEP = 10
const MOBILE_WIDTH = 768
const MOBILE_HINT_MS = 3000

type Counters = { listened: number; lastTime: number; buffers: number; drops: number; lastHeight: number; started: boolean }
const freshCounters = (): Counters => ({ listened: 0, lastTime: 0, buffers: 0, drops: 0, lastHeight: 0, started: false })

/** Tests force or forbid adverts with window.__vibesAdChance (read at each decision). */
function adChance(): number {
  const forced = (window as unknown as { __vibesAdChance?: unknown }).__vibesAdChance
  return typeof forced === 'number' ? forced : AD_CHANCE
}

function sameUrls(a: readonly Track[], b: readonly Track[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i].url !== b[i].url) return false
  return true
}

export function Player({ tracks, source, playlistId, label, autoPlay = true }: PlayerProps) {
  const trpcClient = useTRPCClient()
  const likes = useLikes()
  const promotions = usePromotions()
  const media = useRef<HTMLVideoElement>(null)
  const mediaBox = useRef<HTMLDivElement>(null)

  // Mime fixes from the media fallback, applied over whatever list the parent passes.
  const mimeOverrides = useRef(new Map<string, string>())
  const [overrideVersion, setOverrideVersion] = useState(0)
  const list = useMemo(
    () => (mimeOverrides.current.size === 0 ? tracks : tracks.map((t) => (mimeOverrides.current.has(t.url) ? { ...t, mime: mimeOverrides.current.get(t.url)! } : t))),
    [tracks, overrideVersion],
  )
  const [durations, setDurations] = useState<Record<number, number>>({})

  // A list that does not start by itself still shows its first track, ready to play.
  const [index, setIndex] = useState(() => (tracks.length > 0 ? 0 : -1))
  const [loadSeq, setLoadSeq] = useState(0)
  const [playing, setPlaying] = useState(false)
  const [currentTime, setCurrentTime] = useState(0)
  const [duration, setDuration] = useState(0)
  const [volume, setVolumeState] = useState(DEFAULT_VOLUME)
  const [muted, setMuted] = useState(false)
  const savedVolume = useRef(DEFAULT_VOLUME)
  const [shuffle, setShuffle] = useState(false)
  const [order, setOrder] = useState(() => makeOrder(tracks.length, false))
  const [repeat, setRepeat] = useState(false)
  const [showPlaylist, setShowPlaylist] = useState(false)
  const [ad, setAd] = useState<Promotion | null>(null)
  const [playerError, setPlayerError] = useState<string | null>(null)
  const [playMessage, setPlayMessage] = useState<string | null>(null)
  const [fullscreen, setFullscreen] = useState<{ on: boolean; orientation: 'portrait' | 'landscape' }>({ on: false, orientation: 'landscape' })
  const [hint, setHint] = useState(false)

  const wantPlay = useRef(autoPlay && tracks.length > 0)
  const pendingSource = useRef<PlaySource | null>(autoPlay && tracks.length > 0 ? 'playlist' : null)
  const play = useRef<PlayHandle | null>(null)
  const counters = useRef<Counters>(freshCounters())
  const fellBack = useRef(new Set<string>())
  const adTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const afterAd = useRef<number>(-1)
  const prevTracks = useRef(tracks)

  /** Video by the spec's rule, unless the media fallback turned the track into audio/mpeg. */
  const videoOf = (t: Track) => (mimeOverrides.current.has(t.url) ? t.mime.toLowerCase().startsWith('video') : isVideo(t))
  const current: Track | undefined = index >= 0 ? list[index] : undefined
  const currentVideo = current ? videoOf(current) : false
  const currentTitle = current ? displayTitle(current) : 'No Track Selected'

  useEffect(() => {
    installTracker({
      createPlay: (input) => trpcClient.playlist.plays.create.mutate(input),
      updatePlay: (input) => trpcClient.playlist.plays.update.mutate(input),
      createInteraction: (input) => trpcClient.playlist.interactions.create.mutate(input),
    })
  }, [trpcClient])

  // ---- listening reports ----------------------------------------------------------------------

  const elapsed = () => round2(counters.current.listened)
  const knownDuration = () => {
    const d = media.current?.duration
    return d && Number.isFinite(d) ? d : (current?.duration ?? 0)
  }
  const counterFields = () => ({ listenDuration: elapsed(), bufferCount: counters.current.buffers, qualityDrops: counters.current.drops })

  /** Reports how the current play ended and forgets it (durably when the page is going away). */
  function leaveCurrent(kind: 'skip' | 'ended', exiting = false) {
    const h = play.current
    if (!h) return
    const el = media.current
    const report = kind === 'ended' ? { completed: true, skipped: false } : leaveReport(counters.current.listened, knownDuration(), el?.currentTime ?? 0)
    const update = { ...counterFields(), ...report, endedAt: Date.now() }
    if (exiting) h.exitUpdate(update)
    else void h.update(update)
    h.close()
    play.current = null
  }

  function beginPlayEvent(sourceKind: PlaySource) {
    if (!current) return
    const playOrder = order.map((i) => list[i]).filter(Boolean)
    const title = displayTitle(current)
    // Untagged tracks still tell what they can (§5 "Metadata inference").
    const inferred = current.artist ? null : inferArtist(title)
    play.current = startPlay({
      trackId: trackIdOf(current.url),
      url: current.url,
      title,
      duration: knownDuration(),
      artist: current.artist || inferred?.artist,
      album: current.album === 'Unknown Album' ? undefined : current.album,
      genre: current.genre,
      year: current.year ?? inferYear(title),
      source: sourceKind,
      playlistId: playlistId ?? (source === 'folder' ? undefined : source),
      list: playOrder,
      idOf: trackIdOf,
    })
  }

  // ---- choosing tracks --------------------------------------------------------------------------

  function go(target: number, sourceKind: PlaySource, opts: { manual?: boolean } = {}) {
    if (target < 0 || target >= list.length) return
    leaveCurrent('skip')
    if (opts.manual && shuffle) {
      setShuffle(false)
      setOrder(makeOrder(list.length, false))
    }
    setPlayerError(null)
    setPlayMessage(null)
    pendingSource.current = sourceKind
    wantPlay.current = true
    setIndex(target)
    setLoadSeq((s) => s + 1)
  }

  const sourceForStep = (): PlaySource => (shuffle ? 'shuffle' : 'playlist')
  const next = () => list.length > 0 && go(nextIndex(order, index), sourceForStep())
  const previous = () => list.length > 0 && go(previousIndex(order, index), sourceForStep())

  // A new list from the parent: start over (tag updates of the same files only refresh titles).
  useEffect(() => {
    const before = prevTracks.current
    prevTracks.current = tracks
    if (before === tracks || sameUrls(before, tracks)) return
    leaveCurrent('skip')
    mimeOverrides.current = new Map()
    fellBack.current = new Set()
    setDurations({})
    setShuffle(false)
    setOrder(makeOrder(tracks.length, false))
    setPlayerError(null)
    setPlayMessage(null)
    const start = autoPlay && tracks.length > 0
    wantPlay.current = start
    pendingSource.current = start ? 'playlist' : null
    setIndex(tracks.length > 0 ? 0 : -1)
    setLoadSeq((s) => s + 1)
  }, [tracks])

  // Load the current track whenever it (or its mime, after a fallback) changes.
  useEffect(() => {
    const el = media.current
    if (!el) return
    counters.current = freshCounters()
    setCurrentTime(0)
    setDuration(0)
    if (!current) {
      el.removeAttribute('src')
      el.load()
      setPlaying(false)
      return
    }
    el.src = mediaUrlOf(current.url)
    el.load()
    if (wantPlay.current) void startElement()
  }, [current?.url, current?.mime, loadSeq])

  async function startElement() {
    const el = media.current
    if (!el) return
    try {
      await el.play()
    } catch (error) {
      if (isIgnorablePlayRejection(error)) {
        if ((error as Error).name === 'NotAllowedError') wantPlay.current = false
        return
      }
      if ((error as Error).name === 'NotSupportedError') return // the element's error event handles it
      setPlayMessage(`Error playing audio: ${(error as Error).message}`)
    }
  }

  // ---- media fallbacks and errors (§4, §8) ------------------------------------------------------

  function setTrackMime(url: string, mime: string) {
    mimeOverrides.current.set(url, mime)
    patchStoredMime(url, mime)
    setOverrideVersion((v) => v + 1)
    setLoadSeq((s) => s + 1)
  }

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

  function showPlaybackError(code: number | undefined) {
    leaveCurrent('skip')
    wantPlay.current = false
    setPlaying(false)
    setPlayerError(playbackErrorText(code))
  }

  async function onMediaError() {
    const el = media.current
    const track = current
    const code = el?.error?.code
    if (!el || !track || !code || code === 1) return // aborts are not errors
    if (!fellBack.current.has(track.url)) {
      fellBack.current.add(track.url)
      if (isVideo(track) && track.mime !== DEFAULT_MIME) {
        // A video that will not play may still have a playable audio track.
        setTrackMime(track.url, DEFAULT_MIME)
        return
      }
      if (track.mime !== DEFAULT_MIME) {
        const ok = await testLoad(track.url)
        if (!ok) {
          setTrackMime(track.url, DEFAULT_MIME)
          return
        }
      }
    }
    showPlaybackError(code)
  }

  // ---- element events ---------------------------------------------------------------------------

  // Handlers read the latest render through this ref, so listeners are attached once.
  const latest = useRef({ onEnded: () => {}, onMediaError: () => {}, beginPlayEvent, currentVideo })
  latest.current = { onEnded, onMediaError: () => void onMediaError(), beginPlayEvent, currentVideo }

  useEffect(() => {
    const el = media.current
    if (!el) return
    const on = (type: string, fn: () => void) => {
      el.addEventListener(type, fn)
      return () => el.removeEventListener(type, fn)
    }
    const offs = [
      on('play', () => setPlaying(true)),
      on('playing', () => {
        setPlayMessage(null)
        counters.current.started = true
        if (pendingSource.current) {
          const kind = pendingSource.current
          pendingSource.current = null
          latest.current.beginPlayEvent(kind)
        }
        maybeShowHint()
      }),
      on('pause', () => {
        setPlaying(false)
        // The pause before 'ended' is not a user pause.
        if (!el.ended && play.current) void play.current.update({ ...counterFieldsOf(counters.current), completed: false })
      }),
      on('timeupdate', () => {
        const t = el.currentTime
        const c = counters.current
        const delta = t - c.lastTime
        if (!el.paused && delta > 0 && delta < 1.5) c.listened += delta
        c.lastTime = t
        setCurrentTime(t)
      }),
      on('seeked', () => (counters.current.lastTime = el.currentTime)),
      on('durationchange', () => {
        const d = el.duration
        setDuration(Number.isFinite(d) ? d : 0)
      }),
      on('loadedmetadata', () => {
        const d = el.duration
        if (Number.isFinite(d) && d > 0) {
          const i = indexRef.current
          setDurations((m) => (m[i] === d ? m : { ...m, [i]: d }))
        }
      }),
      on('waiting', () => counters.current.started && counters.current.buffers++),
      on('stalled', () => counters.current.started && counters.current.buffers++),
      on('resize', () => {
        const c = counters.current
        if (c.lastHeight && el.videoHeight < c.lastHeight) c.drops++
        c.lastHeight = el.videoHeight
      }),
      on('ended', () => latest.current.onEnded()),
      on('error', () => latest.current.onMediaError()),
    ]
    return () => offs.forEach((off) => off())
  }, [])

  const indexRef = useRef(index)
  indexRef.current = index

  function onEnded() {
    const el = media.current
    if (!el) return
    if (repeat) {
      const h = play.current
      if (h) {
        void h.update({ ...counterFields(), completed: true, skipped: false, repeated: true, endedAt: Date.now() })
        h.close()
        play.current = null
      }
      if (current) recordInteraction(trackIdOf(current.url), 'repeat')
      counters.current = freshCounters()
      pendingSource.current = 'repeat'
      el.currentTime = 0
      void startElement()
      return
    }
    leaveCurrent('ended')
    const target = nextIndex(order, index)
    if (promotions.length > 0 && shouldShowAd(repeat, adChance(), Math.random())) {
      wantPlay.current = false
      afterAd.current = target
      setAd(promotions[Math.floor(Math.random() * promotions.length)])
      adTimer.current = setTimeout(closeAd, AD_SECONDS * 1000)
      return
    }
    go(target, sourceForStep())
  }

  const closeAdRef = useRef(() => {})
  closeAdRef.current = () => {
    if (adTimer.current) clearTimeout(adTimer.current)
    adTimer.current = null
    setAd(null)
    const target = afterAd.current
    afterAd.current = -1
    if (target >= 0) go(target, sourceForStep())
  }
  function closeAd() {
    closeAdRef.current()
  }
  useEffect(() => () => void (adTimer.current && clearTimeout(adTimer.current)), [])

  // Progress every 30 s while playing.
  useEffect(() => {
    if (!playing) return
    const timer = setInterval(() => play.current && void play.current.update(counterFieldsOf(counters.current)), PROGRESS_REPORT_MS)
    return () => clearInterval(timer)
  }, [playing])

  // Leaving the page or unmounting reports the play as left.
  useEffect(() => {
    const onHide = () => leaveCurrentRef.current('skip', true)
    window.addEventListener('pagehide', onHide)
    return () => {
      window.removeEventListener('pagehide', onHide)
      leaveCurrentRef.current('skip')
    }
  }, [])
  const leaveCurrentRef = useRef(leaveCurrent)
  leaveCurrentRef.current = leaveCurrent

  // ---- controls -----------------------------------------------------------------------------------

  function togglePlay() {
    const el = media.current
    if (!el) return
    if (!current) {
      if (list.length > 0) go(order[0] ?? 0, sourceForStep())
      return
    }
    if (el.paused) {
      wantPlay.current = true
      if (!play.current && !pendingSource.current) pendingSource.current = 'direct'
      setPlayerError(null)
      void startElement()
    } else {
      wantPlay.current = false
      el.pause()
    }
  }

  function stop() {
    const el = media.current
    if (!el) return
    wantPlay.current = false
    el.pause()
    el.currentTime = 0
    setCurrentTime(0)
  }

  function seekTo(t: number) {
    const el = media.current
    if (!el || !current) return
    const max = Number.isFinite(el.duration) ? el.duration : Number.MAX_SAFE_INTEGER
    el.currentTime = Math.min(Math.max(0, t), max)
    setCurrentTime(el.currentTime)
  }
  const seekBy = (delta: number) => seekTo((media.current?.currentTime ?? 0) + delta)

  function setVolume(v: number) {
    const value = Math.min(1, Math.max(0, Math.round(v * 100) / 100))
    setVolumeState(value)
    if (muted && value > 0) setMuted(false)
  }

  function toggleMute() {
    if (muted) {
      setMuted(false)
      setVolumeState(savedVolume.current > 0 ? savedVolume.current : DEFAULT_VOLUME)
    } else {
      savedVolume.current = volume
      setMuted(true)
    }
  }

  useEffect(() => {
    const el = media.current
    if (!el) return
    el.volume = volume
    el.muted = muted
  }, [volume, muted])

  function toggleShuffle() {
    const on = !shuffle
    setShuffle(on)
    setOrder(makeOrder(list.length, on))
  }

  function toggleLike() {
    if (!current) return
    const title = displayTitle(current)
    const liked = likes.toggle(title, current.url)
    if (play.current) void play.current.update({ ...counterFields(), liked })
    if (liked) recordInteraction(trackIdOf(current.url), 'like')
  }

  async function share() {
    if (!current) return
    const title = displayTitle(current)
    const text = `Listening to "${title}"${current.artist ? ` by ${current.artist}` : ''} on Vibes`
    const url = /^https?:/.test(current.url) ? current.url : window.location.origin
    try {
      if (typeof navigator.share === 'function') await navigator.share({ title, text, url })
      else {
        await navigator.clipboard.writeText(`${text} ${url}`)
        toast({ title: 'Copied to clipboard', description: 'Share it anywhere you like.', type: 'success' })
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') return // the share sheet was dismissed
      toast({ title: 'Share failed', description: 'Could not share or copy this track.', type: 'error' })
      return
    }
    if (play.current) void play.current.update({ ...counterFields(), shared: true })
    recordInteraction(trackIdOf(current.url), 'share')
  }

  async function toggleFullscreen() {
    const box = mediaBox.current
    if (!box) return
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else await box.requestFullscreen()
    } catch {}
  }

  useEffect(() => {
    const orientation = (): 'portrait' | 'landscape' => (window.matchMedia?.('(orientation: portrait)').matches ? 'portrait' : 'landscape')
    const update = () => {
      const on = document.fullscreenElement === mediaBox.current && mediaBox.current !== null
      setFullscreen({ on, orientation: orientation() })
      if (on) maybeShowHint()
    }
    document.addEventListener('fullscreenchange', update)
    window.addEventListener('orientationchange', update)
    window.addEventListener('resize', update)
    return () => {
      document.removeEventListener('fullscreenchange', update)
      window.removeEventListener('orientationchange', update)
      window.removeEventListener('resize', update)
    }
  }, [])

  const hintTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  function maybeShowHint() {
    const el = media.current
    if (!el || window.innerWidth >= MOBILE_WIDTH || !latest.current.currentVideo) return
    setHint(true)
    if (hintTimer.current) clearTimeout(hintTimer.current)
    hintTimer.current = setTimeout(() => setHint(false), MOBILE_HINT_MS)
  }
  useEffect(() => () => void (hintTimer.current && clearTimeout(hintTimer.current)), [])

  const actions = { togglePlay, next, previous, stop, seekBy, toggleMute, toggleShuffle, toggleRepeat: () => setRepeat((r) => !r), setVolume, volume: muted ? 0 : volume }
  usePlayerKeys(list.length > 0 && !ad, actions)
  useMediaSession(current, playing, actions, seekTo)

  // ---- render -------------------------------------------------------------------------------------

  const neighbours = visibleNeighbours(order, index, shuffle)
  const liked = current ? likes.isLiked(displayTitle(current)) : false
  const seekMax = duration > 0 ? duration : 100
  const displayList = useMemo(() => (Object.keys(durations).length === 0 ? list : list.map((t, i) => (durations[i] && !t.duration ? { ...t, duration: durations[i] } : t))), [list, durations])

  return (
    <section aria-label="Player" data-source={source} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={card}>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', minH: '6' })}>
          {playing && <span className={cx(badge, css({ bg: 'success.muted', color: 'success.fg' }))}>PLAYING</span>}
          {currentVideo && <span className={cx(badge, css({ bg: 'accent.muted', color: 'accent.default' }))}>VIDEO</span>}
          {(label || list.length > 0) && <span className={cx(badge, css({ bg: 'bg.subtle', color: 'fg.muted' }))}>{label || (source === 'local' ? 'Local Files' : source === 'remote' ? 'Remote' : 'Folder')}</span>}
        </div>

        <div className={css({ mt: '3' })}>
          <h2 data-testid="track-title" className={css({ fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'bold', lineClamp: '2', wordBreak: 'break-word' })}>
            {currentTitle}
          </h2>
          {/* Screen readers hear each change of track (the title above is not a live region). */}
          <p aria-live="polite" data-testid="track-announcement" className={css({ srOnly: true })}>
            {current ? `Current track: ${currentTitle}${current.artist ? ` by ${current.artist}` : ''}` : ''}
          </p>
          {current && (
            <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
              {[current.artist, current.album !== 'Unknown Album' ? current.album : '', current.year].filter(Boolean).join(' · ') || 'Unknown Artist'}
            </p>
          )}
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: { base: '1', md: '6' }, flexDirection: { base: 'column', md: 'row' }, mt: '2', fontSize: 'xs', color: 'fg.subtle' })}>
            {neighbours.previous !== null && (
              <p data-testid="previous-title">
                Previous: <span className={css({ color: 'fg.muted' })}>{displayTitle(list[neighbours.previous])}</span>
              </p>
            )}
            {neighbours.next !== null && (
              <p data-testid="next-title">
                Next: <span className={css({ color: 'fg.muted' })}>{displayTitle(list[neighbours.next])}</span>
              </p>
            )}
          </div>
        </div>

        {playerError ? (
          <div role="alert" className={css({ mt: '4', p: '6', borderRadius: 'xl', bg: 'danger.muted', borderWidth: '1px', borderColor: 'danger.default', textAlign: 'center' })}>
            <p className={css({ fontWeight: 'semibold', color: 'danger.fg' })}>{playerError}</p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{PLAYBACK_ERROR_HINT}</p>
            <div className={css({ display: 'flex', gap: '2', justifyContent: 'center', mt: '4' })}>
              {list.length > 1 && <Button onClick={next}>Next Track</Button>}
              <Button variant="outline" onClick={() => setPlayerError(null)}>
                Dismiss
              </Button>
            </div>
          </div>
        ) : null}

        <div
          ref={mediaBox}
          data-fullscreen={fullscreen.on ? fullscreen.orientation : undefined}
          className={css({
            mt: '4',
            position: 'relative',
            borderRadius: 'xl',
            overflow: 'hidden',
            bg: 'black',
            display: playerError ? 'none' : 'block',
            '&[data-fullscreen]': { borderRadius: '0', display: 'grid', placeItems: 'center' },
          })}
        >
          <video
            ref={media}
            data-testid="media"
            data-kind={currentVideo ? 'video' : 'audio'}
            playsInline
            preload="metadata"
            // In fullscreen the browser's own controls come up on a tap (the mobile hint says so).
            controls={fullscreen.on && currentVideo}
            onClick={() => currentVideo && !fullscreen.on && togglePlay()}
            className={css({
              w: 'full',
              maxH: { base: '56vh', md: '60vh' },
              bg: 'black',
              display: 'block',
              '&[data-kind=audio]': { display: 'none' },
              '[data-fullscreen] > &': { h: '100vh', maxH: 'none', objectFit: 'contain' },
            })}
            aria-label={currentVideo ? `Video: ${currentTitle}` : undefined}
          />
          {!currentVideo && <AudioArt track={current} playing={playing} empty={list.length === 0} />}
          {currentVideo && (
            <button type="button" aria-label="Fullscreen" aria-pressed={fullscreen.on} onClick={() => void toggleFullscreen()} className={css({ position: 'absolute', top: '2', right: '2', w: '10', h: '10', display: 'grid', placeItems: 'center', borderRadius: 'full', bg: 'black/55', color: 'white', cursor: 'pointer', _hover: { bg: 'black/75' } })}>
              <Icon name={fullscreen.on ? 'exitFullscreen' : 'fullscreen'} size={18} />
            </button>
          )}
          {hint && (
            <p role="status" className={css({ position: 'absolute', bottom: '3', left: '50%', transform: 'translateX(-50%)', bg: 'black/75', color: 'white', fontSize: 'xs', px: '3', py: '1.5', borderRadius: 'full', whiteSpace: 'nowrap' })}>
              Tap video to show controls or use exit button
            </p>
          )}
        </div>

        {playMessage && (
          <p role="alert" className={css({ mt: '2', fontSize: 'sm', color: 'danger.fg' })}>
            {playMessage}
          </p>
        )}

        <div className={css({ mt: '4', display: playerError ? 'none' : 'block' })}>
          <input
            type="range"
            aria-label="Seek"
            min={0}
            max={seekMax}
            step={0.1}
            value={Math.min(currentTime, seekMax)}
            disabled={!current}
            onChange={(e) => seekTo(Number(e.target.value))}
            aria-valuetext={`${formatTime(currentTime)} of ${formatTime(duration)}`}
            className={css({ w: 'full', accentColor: 'var(--colors-accent-default)', cursor: 'pointer', _disabled: { cursor: 'not-allowed', opacity: 0.5 } })}
          />
          <div className={css({ display: 'flex', justifyContent: 'space-between', fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
            <span data-testid="time-current">{formatTime(currentTime)}</span>
            <span data-testid="time-duration">{formatTime(duration)}</span>
          </div>
        </div>

        <PlayerControls
          hidden={!!playerError}
          hasTrack={!!current}
          hasTracks={list.length > 0}
          playing={playing}
          shuffle={shuffle}
          repeat={repeat}
          liked={liked}
          muted={muted}
          volume={muted ? 0 : volume}
          showPlaylist={showPlaylist}
          onShuffle={toggleShuffle}
          onPrevious={previous}
          onPlay={togglePlay}
          onNext={next}
          onStop={stop}
          onRepeat={() => setRepeat((r) => !r)}
          onLike={toggleLike}
          onShare={() => void share()}
          onMute={toggleMute}
          onVolume={setVolume}
          onRewind={() => seekBy(-SEEK_STEP)}
          onForward={() => seekBy(SEEK_STEP)}
          onTogglePlaylist={() => setShowPlaylist((s) => !s)}
        />
      </div>

      {showPlaylist && <SimplePlaylist tracks={displayList} activeIndex={index} isVideo={videoOf} onSelect={(i) => go(i, 'direct', { manual: true })} />}

      <TrackList tracks={displayList} activeIndex={index} playing={playing} isVideo={videoOf} isLiked={likes.isLiked} onSelect={(i) => go(i, 'direct', { manual: true })} />

      <AdvertModal promotion={ad} onClose={closeAd} />
    </section>
  )
}

function counterFieldsOf(c: Counters) {
  return { listenDuration: round2(c.listened), bufferCount: c.buffers, qualityDrops: c.drops }
}

const card = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', p: { base: '4', md: '6' } })
const badge = css({ fontSize: '2xs', fontWeight: 'bold', letterSpacing: 'wider', px: '2', py: '0.5', borderRadius: 'full', textTransform: 'uppercase', maxW: '60', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })

function AudioArt({ track, playing, empty }: { track: Track | undefined; playing: boolean; empty: boolean }) {
  return (
    <div className={css({ aspectRatio: { base: '16/10', md: '21/8' }, display: 'grid', placeItems: 'center', bgGradient: 'to-br', gradientFrom: '#1e1b4b', gradientTo: '#4a044e', position: 'relative' })}>
      {track?.cover ? (
        <img src={track.cover} alt={`Cover of ${displayTitle(track)}`} className={css({ h: '80%', aspectRatio: '1', objectFit: 'cover', borderRadius: 'lg', boxShadow: '2xl' })} />
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', color: 'white/80', textAlign: 'center', px: '4' })}>
          <span className={css({ w: '20', h: '20', borderRadius: 'full', display: 'grid', placeItems: 'center', bg: 'white/10', animation: playing ? 'pulse 2s ease-in-out infinite' : undefined })}>
            <Icon name="music" size={36} />
          </span>
          {empty && (
            <>
              <p className={css({ fontWeight: 'semibold' })}>Your playlist is empty</p>
              <p className={css({ fontSize: 'sm', color: 'white/60' })}>Select a media folder to start listening.</p>
            </>
          )}
        </div>
      )}
    </div>
  )
}

type SessionActions = { togglePlay: () => void; next: () => void; previous: () => void; stop: () => void; seekBy: (d: number) => void }

/** OS media keys and the lock screen (title, artist, album, artwork). */
function useMediaSession(track: Track | undefined, playing: boolean, actions: SessionActions, seekTo: (t: number) => void) {
  const ref = useRef({ actions, seekTo })
  ref.current = { actions, seekTo }
  const supported = typeof navigator !== 'undefined' && 'mediaSession' in navigator

  useEffect(() => {
    if (!supported) return
    const ms = navigator.mediaSession
    const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
      try {
        ms.setActionHandler(action, handler)
      } catch {}
    }
    set('play', () => ref.current.actions.togglePlay())
    set('pause', () => ref.current.actions.togglePlay())
    set('previoustrack', () => ref.current.actions.previous())
    set('nexttrack', () => ref.current.actions.next())
    set('stop', () => ref.current.actions.stop())
    set('seekbackward', (d) => ref.current.actions.seekBy(-(d.seekOffset ?? SEEK_STEP)))
    set('seekforward', (d) => ref.current.actions.seekBy(d.seekOffset ?? SEEK_STEP))
    set('seekto', (d) => d.seekTime !== undefined && ref.current.seekTo(d.seekTime))
    return () => {
      for (const a of ['play', 'pause', 'previoustrack', 'nexttrack', 'stop', 'seekbackward', 'seekforward', 'seekto'] as MediaSessionAction[]) set(a, null)
    }
  }, [supported])

  const title = track ? displayTitle(track) : ''
  useEffect(() => {
    if (!supported || typeof MediaMetadata === 'undefined') return
    navigator.mediaSession.metadata = track
      ? new MediaMetadata({
          title,
          artist: track.artist,
          album: track.album,
          artwork: track.cover ? [{ src: track.cover, sizes: '512x512' }] : [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
        })
      : null
  }, [supported, track, title])

  useEffect(() => {
    if (supported) navigator.mediaSession.playbackState = track ? (playing ? 'playing' : 'paused') : 'none'
  }, [supported, playing, track])
}
