// The full player view: titles and neighbours, the media area, the playlist
// panel and "Up Next"; its progress bar and control bar are the player bar's (player-bar.tsx),
// fixed below it on every page, so they are in view however tall the art is. It renders the one player's state
// (player-store.ts, driven by the pure engine in engine.ts) and sends it the listener's choices;
// the media element itself belongs to the player and is only borrowed here to show video, so
// leaving this screen never stops what plays.
import { type ComponentType, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { PLAYBACK_ERROR_HINT } from '~/shared/player/errors'
import { visibleNeighbours } from '~/shared/player/order'
import { displayTitle, type Track } from '~/shared/player/track'
import { currentTrack, isVideoTrack } from './engine'
import { Icon } from '~/client/ui/icon'
import { PlaybackSettings } from './playback-settings'
import { SimplePlaylist, TrackList } from './player-lists'
import { MEDIA_HOST_ID, player, setFullView, usePlayer } from './player-store'
import { playlistPanel as panelStore, usePlaylistPanel } from './playlist-panel'
import { useLikes } from './use-likes'
import type { MemberPlaylistProps } from './liked-songs'
import type { LyricsPanelProps } from './lyrics-panel'
import { stack } from 'styled-system/patterns'
import { card } from '~/client/ui/card'

export type { Track } from '~/shared/player/track'

const MOBILE_WIDTH = 768
const MOBILE_HINT_MS = 3000

/**
 * `MemberPlaylist`: members' playlist panel (with "Liked songs"), and `Lyrics`, the lyrics panel,
 * both lazily loaded by the screen that already loads the Remote URL form that way, so this chunk
 * carries no loader of its own (the page's JavaScript budget; decision 022). Without the first
 * members get the plain panel; without the second there is no lyrics panel.
 */
export function Player({ MemberPlaylist, Lyrics }: { MemberPlaylist?: ComponentType<MemberPlaylistProps>; Lyrics?: ComponentType<LyricsPanelProps> }) {
  const { engine } = usePlayer()
  const likes = useLikes()
  const mediaBox = useRef<HTMLDivElement>(null)
  const showPlaylist = usePlaylistPanel()
  const [fullscreen, setFullscreen] = useState<{ on: boolean; orientation: 'portrait' | 'landscape' }>({ on: false, orientation: 'landscape' })
  const [hint, setHint] = useState(false)

  const send = player().send
  const list = engine.tracks
  const index = engine.index
  const playing = engine.playing
  const current: Track | undefined = currentTrack(engine)
  const videoOf = (t: Track) => isVideoTrack(engine, t)
  const currentVideo = current ? videoOf(current) : false
  const currentTitle = current ? displayTitle(current) : 'No Track Selected'
  const source = engine.context?.source ?? 'local'
  const label = engine.context?.label
  const playerError = engine.error
  const playMessage = engine.message

  useEffect(() => {
    setFullView(1)
    return () => {
      setFullView(-1)
      panelStore.set(false)
    }
  }, [])

  const next = () => send({ type: 'next' })
  const togglePlay = () => send({ type: 'togglePlay' })
  const select = (i: number) => send({ type: 'select', index: i })
  const queueActions = {
    reorder: (from: number, to: number) => send({ type: 'reorder', from, to }),
    remove: (i: number) => send({ type: 'remove', index: i }),
    clear: () => send({ type: 'clear' }),
  }

  async function toggleFullscreen() {
    const box = mediaBox.current
    if (!box) return
    try {
      if (document.fullscreenElement) await document.exitFullscreen()
      else await box.requestFullscreen()
    } catch {}
  }

  const hintTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const videoNow = useRef(currentVideo)
  videoNow.current = currentVideo
  function maybeShowHint() {
    if (window.innerWidth >= MOBILE_WIDTH || !videoNow.current) return
    setHint(true)
    if (hintTimer.current) clearTimeout(hintTimer.current)
    hintTimer.current = setTimeout(() => setHint(false), MOBILE_HINT_MS)
  }
  useEffect(() => () => void (hintTimer.current && clearTimeout(hintTimer.current)), [])

  // On phones a playing video shows the tap hint for 3 s.
  // biome-ignore lint/correctness/useExhaustiveDependencies: subscribed once; the handler reads current state through refs
  useEffect(() => player().onMedia('playing', maybeShowHint), [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: subscribed once; the handler reads current state through refs
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

  // ---- render -------------------------------------------------------------------------------------

  const neighbours = visibleNeighbours(engine.order, index, engine.shuffle)
  const displayList = list
  const playlistPanel = (
    <SimplePlaylist
      tracks={displayList}
      activeIndex={index}
      isVideo={videoOf}
      onSelect={select}
      onPlayNext={(t) => send({ type: 'playNext', tracks: [t] })}
      onAddToQueue={(t) => send({ type: 'append', tracks: [t] })}
    />
  )

  return (
    <section aria-label="Player" data-source={source} className={stack({ gap: '4' })}>
      <div className={card({ size: 'lg' })}>
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', minH: '6' })}>
          {playing && <span className={cx(badge, css({ bg: 'success.muted', color: 'success.fg' }))}>PLAYING</span>}
          {currentVideo && <span className={cx(badge, css({ bg: 'accent.muted', color: 'accent.text' }))}>VIDEO</span>}
          {(label || list.length > 0) && (
            <span className={cx(badge, css({ bg: 'bg.subtle', color: 'fg.muted' }))}>
              {label || (source === 'local' ? 'Local Files' : source === 'remote' ? 'Remote' : 'Folder')}
            </span>
          )}
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
          <div
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              gap: { base: '1', md: '6' },
              flexDirection: { base: 'column', md: 'row' },
              mt: '2',
              fontSize: 'xs',
              color: 'fg.subtle',
            })}
          >
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
          <div
            role="alert"
            className={css({ mt: '4', p: '6', borderRadius: 'xl', bg: 'danger.muted', borderWidth: '1px', borderColor: 'danger.default', textAlign: 'center' })}
          >
            <p className={css({ fontWeight: 'semibold', color: 'danger.fg' })}>{playerError}</p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{PLAYBACK_ERROR_HINT}</p>
            <div className={css({ display: 'flex', gap: '2', justifyContent: 'center', mt: '4' })}>
              {list.length > 1 && <Button onClick={next}>Next Track</Button>}
              <Button variant="outline" onClick={() => send({ type: 'dismissError' })}>
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
          <MediaSlot video={currentVideo} title={currentTitle} fullscreen={fullscreen.on} onTap={() => currentVideo && !fullscreen.on && togglePlay()} />
          {!currentVideo && <AudioArt track={current} playing={playing} empty={list.length === 0} />}
          {currentVideo && (
            <button
              type="button"
              aria-label="Fullscreen"
              aria-pressed={fullscreen.on}
              onClick={() => void toggleFullscreen()}
              className={css({
                position: 'absolute',
                top: '2',
                right: '2',
                w: '10',
                h: '10',
                display: 'grid',
                placeItems: 'center',
                borderRadius: 'full',
                bg: 'black/55',
                color: 'white',
                cursor: 'pointer',
                _hover: { bg: 'black/75' },
              })}
            >
              <Icon name={fullscreen.on ? 'exitFullscreen' : 'fullscreen'} size={18} />
            </button>
          )}
          {hint && (
            <p
              role="status"
              className={css({
                position: 'absolute',
                bottom: '3',
                left: '50%',
                transform: 'translateX(-50%)',
                bg: 'black/75',
                color: 'white',
                fontSize: 'xs',
                px: '3',
                py: '1.5',
                borderRadius: 'full',
                whiteSpace: 'nowrap',
              })}
            >
              Tap video to show controls or use exit button
            </p>
          )}
        </div>

        {playMessage && (
          <p role="alert" className={css({ mt: '2', fontSize: 'sm', color: 'danger.fg' })}>
            {playMessage}
          </p>
        )}
      </div>

      {current && Lyrics && (
        <Suspense fallback={null}>
          <Lyrics track={current} />
        </Suspense>
      )}

      {showPlaylist &&
        (likes.member && MemberPlaylist ? (
          <Suspense fallback={playlistPanel}>
            <MemberPlaylist tracks={displayList} likes={likes.likes} activeIndex={index} onSelect={select}>
              {playlistPanel}
            </MemberPlaylist>
          </Suspense>
        ) : (
          playlistPanel
        ))}

      <TrackList
        tracks={displayList}
        order={engine.order}
        activeIndex={index}
        playing={playing}
        isVideo={videoOf}
        isLiked={likes.isLiked}
        onSelect={select}
        queue={queueActions}
      />
      <PlaybackSettings />
    </section>
  )
}

const badge = css({
  fontSize: '2xs',
  fontWeight: 'bold',
  letterSpacing: 'wider',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  textTransform: 'uppercase',
  maxW: '60',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
})

/** Cover art, or — for a track without art — a short strip with the music mark (no large empty box). */
function AudioArt({ track, playing, empty }: { track: Track | undefined; playing: boolean; empty: boolean }) {
  return (
    <div
      data-testid="art-panel"
      data-art={track?.cover ? 'cover' : empty ? 'empty' : 'none'}
      className={css({
        aspectRatio: { base: '16/10', md: '21/8' },
        // At most a third of the viewport: the title above and the player bar below stay in view.
        maxH: '33vh',
        w: 'full',
        '&[data-art=none]': { aspectRatio: 'auto', h: '28' },
        display: 'grid',
        placeItems: 'center',
        bgGradient: 'to-br',
        gradientFrom: '#1e1b4b',
        gradientTo: '#4a044e',
        position: 'relative',
      })}
    >
      {track?.cover ? (
        <img
          src={track.cover}
          alt={`Cover of ${displayTitle(track)}`}
          className={css({ h: '80%', aspectRatio: '1', objectFit: 'cover', borderRadius: 'lg', boxShadow: '2xl' })}
        />
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', color: 'white/80', textAlign: 'center', px: '4' })}>
          <span
            className={css({
              w: '20',
              h: '20',
              borderRadius: 'full',
              display: 'grid',
              placeItems: 'center',
              bg: 'white/10',
              animation: playing ? 'pulse 2s ease-in-out infinite' : undefined,
            })}
          >
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

const mediaClass = css({
  w: 'full',
  maxH: { base: '45vh', md: '50vh' },
  bg: 'black',
  display: 'block',
  '&[data-kind=audio]': { display: 'none' },
  '[data-fullscreen] > * > &': { h: '100vh', maxH: 'none', objectFit: 'contain' },
})

/**
 * Shows the player's media element here while this screen is open and hands it back to the
 * page-wide host when it closes. Moving a playing element keeps it playing (it never leaves the
 * document for longer than the move).
 */
function MediaSlot({ video, title, fullscreen, onTap }: { video: boolean; title: string; fullscreen: boolean; onTap: () => void }) {
  const slot = useRef<HTMLDivElement>(null)
  const tap = useRef(onTap)
  tap.current = onTap
  useLayoutEffect(() => {
    const el = player().mediaElement()
    el.className = mediaClass
    slot.current?.appendChild(el)
    const offClick = player().onMedia('click', () => tap.current())
    return () => {
      offClick()
      // The current element: a gapless hand-over may have swapped it since this screen opened.
      const el = player().mediaElement()
      el.removeAttribute('aria-label')
      el.controls = false
      document.getElementById(MEDIA_HOST_ID)?.appendChild(el)
    }
  }, [])
  useLayoutEffect(() => {
    const el = player().mediaElement()
    el.dataset.kind = video ? 'video' : 'audio'
    // In fullscreen the browser's own controls come up on a tap (the mobile hint says so).
    el.controls = fullscreen && video
    if (video) el.setAttribute('aria-label', `Video: ${title}`)
    else el.removeAttribute('aria-label')
  }, [video, title, fullscreen])
  return <div ref={slot} />
}
