// The player's home above the routes (mounted once by the root layout, in the browser only): the
// media element's resting place, the listening tracker's wiring, the advert between tracks, the
// OS media keys, and the player bar every page shows while something is loaded
// with the track and Previous, Play/Pause and Next. Nothing here unmounts when the route changes, so neither does the music.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { css } from 'styled-system/css'
import { useTRPCClient } from '~/client/trpc'
import { authStore, LOGOUT_EVENT, useAuth } from '~/client/features/auth/auth-store'
import { deviceName } from '~/shared/player/device'
import type { SavedQueue } from '~/shared/player/play-queue'
import { displayTitle, makeTrack, type Track } from '~/shared/player/track'
import { currentTrack } from './engine'
import { PlayerBar } from './player-bar'
import { pageTracker } from './listening-tracker'
import { localLibrary } from './local-library'
import { MEDIA_HOST_ID, player, SEEK_STEP, usePlayer } from './player-store'
import { createDurationProber, probeDuration } from './duration-probe'
import { AdvertModal, useAdvertChance, usePromotions } from './promotions'
import { createQueueSync, type QueueSync } from './queue-sync'
import { keepPodcastProgress } from '~/client/features/podcasts/progress-keeper'

/** Renders in the browser only: the server has no player to show. */
export function PlayerHost() {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return mounted ? <Host /> : null
}

function Host() {
  const trpcClient = useTRPCClient()
  const holder = useRef<HTMLDivElement>(null)
  const { engine } = usePlayer()
  const promotions = usePromotions()
  const advertChance = useAdvertChance()

  useEffect(() => {
    const el = player().mediaElement()
    if (!el.parentElement) holder.current?.appendChild(el)
  }, [])

  useEffect(() => {
    const tracker = pageTracker()
    tracker.connect({
      createPlay: (input) => trpcClient.playlist.plays.create.mutate(input),
      updatePlay: (input, options) => (options?.keepalive ? updateWithKeepalive(input) : trpcClient.playlist.plays.update.mutate(input)),
      createInteraction: (input) => trpcClient.playlist.interactions.create.mutate(input),
    })
    tracker.rearm()
  }, [trpcClient])

  // The member's place in a podcast episode, kept on the server for every device and app.
  useEffect(() => keepPodcastProgress((input) => trpcClient.podcasts.progress.mutate(input)), [trpcClient])

  useEffect(() => player().setAdverts(promotions.length, advertChance), [promotions.length, advertChance])

  // Tracks listed without a length (remote folders) get it before they play.
  useEffect(() => {
    const prober = createDurationProber({ probe: probeDuration, report: (url, seconds) => player().send({ type: 'duration', url, seconds }) })
    return player().subscribe(() => prober.observe(player().get().engine))
  }, [])

  // Tags read after a local folder was picked refresh the queue's titles, on whatever page.
  useEffect(
    () =>
      localLibrary.subscribe(() => {
        const { engine } = player().get()
        const { tracks } = localLibrary.get()
        if (engine.context?.source !== 'local' || tracks.length !== engine.tracks.length) return
        if (tracks.every((t, i) => t.url === engine.tracks[i].url)) player().send({ type: 'replace', tracks, context: engine.context, autoPlay: false })
      }),
    [],
  )

  // Logging out forgets the picked folder too (the player clears its own queue).
  useEffect(() => {
    const onLogout = () => localLibrary.clear()
    window.addEventListener(LOGOUT_EVENT, onLogout)
    return () => window.removeEventListener(LOGOUT_EVENT, onLogout)
  }, [])

  useMediaSession(currentTrack(engine), engine.playing)
  const sync = useQueueSync()

  const advert = engine.advert ? (promotions[engine.advert.promotion] ?? null) : null
  return (
    <>
      <div id={MEDIA_HOST_ID} ref={holder} hidden />
      <PlayerBar />
      {sync && <ResumeOffer sync={sync} />}
      <AdvertModal promotion={advert} onClose={() => player().closeAdvert()} />
    </>
  )
}

/** A member's queue saved on the server and offered back from other devices (queue-sync.ts). */
function useQueueSync(): QueueSync | null {
  const trpcClient = useTRPCClient()
  const auth = useAuth()
  const [sync, setSync] = useState<QueueSync | null>(null)
  const member = auth.ready && auth.isAuthenticated ? auth.user?.id : undefined
  useEffect(() => {
    if (!member) return setSync(null)
    const made = createQueueSync({
      api: { load: () => trpcClient.playlist.queue.get.query(), save: (q) => trpcClient.playlist.queue.save.mutate(q) },
      storage: localStorage,
      device: deviceName(navigator.userAgent),
      current: () => player().get().engine,
    })
    setSync(made)
    const observe = () => made.observe(player().get().engine, player().get().currentTime)
    const unsubscribe = player().subscribe(observe)
    const check = () => document.visibilityState === 'visible' && void made.check()
    void made.check()
    document.addEventListener('visibilitychange', check)
    return () => {
      unsubscribe()
      made.stop()
      document.removeEventListener('visibilitychange', check)
    }
  }, [member, trpcClient])
  return sync
}

/** "Resume from <device>": another device saved a newer queue; taking it plays it here. */
function ResumeOffer({ sync }: { sync: QueueSync }) {
  const offer = useSyncExternalStore(sync.subscribe, sync.offer, () => null)
  if (!offer) return null
  const track = offer.tracks[offer.index] ?? offer.tracks[0]
  const resume = () => {
    const q: SavedQueue | null = sync.take()
    if (!q) return
    const tracks = q.tracks.map((t) => makeTrack(t))
    player().send({
      type: 'restore',
      queue: { tracks, context: { source: 'remote', label: `From ${q.device}` }, index: q.index, positionSec: q.positionSec },
      play: true,
    })
  }
  return (
    <section
      aria-label="Resume from another device"
      data-testid="resume-offer"
      className={css({
        position: 'fixed',
        zIndex: 60,
        right: { base: '2', md: '6' },
        left: { base: '2', md: 'auto' },
        // Just above the player bar, whatever its height (player-bar.tsx sets the variable).
        bottom: 'calc(var(--player-bar-height, 0px) + 0.75rem)',
        maxW: { md: 'md' },
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'xl',
        boxShadow: 'xl',
        p: '4',
        display: 'flex',
        flexDirection: 'column',
        gap: '3',
      })}
    >
      <p className={css({ fontSize: 'sm' })}>
        <span className={css({ fontWeight: 'semibold' })}>{offer.device}</span> has a newer queue: “{displayTitle(makeTrack(track))}”
        {offer.tracks.length > 1 ? ` and ${offer.tracks.length - 1} more` : ''}.
      </p>
      {/* Phones stack the two buttons full width (the long "Resume from …" pushed "Not now" to the edge). */}
      <div className={css({ display: 'flex', flexDirection: { base: 'column-reverse', sm: 'row' }, gap: '2', justifyContent: 'flex-end' })}>
        <button
          type="button"
          onClick={() => sync.dismiss()}
          className={css({
            h: '11',
            px: '4',
            whiteSpace: 'nowrap',
            borderRadius: 'lg',
            fontSize: 'sm',
            color: 'fg.muted',
            cursor: 'pointer',
            _hover: { bg: 'bg.subtle', color: 'fg.default' },
          })}
        >
          Not now
        </button>
        <button
          type="button"
          onClick={resume}
          className={css({
            h: '11',
            px: '4',
            whiteSpace: 'nowrap',
            borderRadius: 'lg',
            fontSize: 'sm',
            fontWeight: 'semibold',
            color: 'white',
            bgGradient: 'to-br',
            gradientFrom: 'accent.default',
            gradientTo: 'accent.pink',
            cursor: 'pointer',
          })}
        >
          Resume from {offer.device}
        </button>
      </div>
    </section>
  )
}

/** PUT /api/playlist/plays/{id} with fetch keepalive: the request survives the page closing. */
function updateWithKeepalive({ playEventId, ...update }: { playEventId: string } & Record<string, unknown>): Promise<unknown> {
  const token = authStore.get().token
  if (!token) return Promise.resolve()
  return fetch(`/api/playlist/plays/${encodeURIComponent(playEventId)}`, {
    method: 'PUT',
    keepalive: true,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(update),
  })
}

/** OS media keys and the lock screen (title, artist, album, artwork). */
function useMediaSession(track: Track | undefined, playing: boolean) {
  const supported = typeof navigator !== 'undefined' && 'mediaSession' in navigator

  useEffect(() => {
    if (!supported) return
    const ms = navigator.mediaSession
    const send = player().send
    const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
      try {
        ms.setActionHandler(action, handler)
      } catch {}
    }
    set('play', () => send({ type: 'togglePlay' }))
    set('pause', () => send({ type: 'togglePlay' }))
    set('previoustrack', () => send({ type: 'previous' }))
    set('nexttrack', () => send({ type: 'next' }))
    set('stop', () => send({ type: 'stop' }))
    set('seekbackward', (d) => player().seekBy(-(d.seekOffset ?? SEEK_STEP)))
    set('seekforward', (d) => player().seekBy(d.seekOffset ?? SEEK_STEP))
    set('seekto', (d) => d.seekTime !== undefined && player().seekTo(d.seekTime))
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
