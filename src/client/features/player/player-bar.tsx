// The one player bar (decision 050): fixed to the bottom of every page while a track is loaded,
// and always under the full player on / and /player, which has no control bar of its own. It holds
// the control bar — shuffle, previous, play/pause, next, stop, repeat, like, share, mute,
// volume with its quick-set dots and show-playlist — plus ±10 s, the seek bar with elapsed and
// total time, the member's bookmark ("Resume from m:ss", "Bookmark position" on long library
// tracks: track-bookmark.ts), and the queue drawer. Desktop (lg and up) shows it all in one strip; phones get a
// mini-player (art, title, previous, play, next) that "More controls" expands, with 44 px targets.
// The keyboard shortcuts live here too, so they answer on every page, and `?` lists them.
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { Link } from '@tanstack/react-router'
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import { css, cx } from 'styled-system/css'
import { Icon, type IconName } from '~/client/ui/icon'
import { Modal, modalFooter } from '~/client/ui/modal'
import { Button } from '~/client/ui/button'
import { useAuth } from '~/client/features/auth/auth-store'
import { PlaylistPicker } from '~/client/features/playlists/playlist-picker'
import { plural } from '~/shared/plural'
import { displayTitle, formatTime, isLive, type Track } from '~/shared/player/track'
import { useStationTitle } from '~/client/features/radio/now-playing'
import { currentTrack, isVideoTrack, type RepeatMode } from './engine'
import { PlayButton } from './play-button'
import { TrackList } from './player-lists'
import { fullPlayerShown, player, SEEK_STEP, usePlayer } from './player-store'
import { playlistPanel, usePlaylistPanel } from './playlist-panel'
import { useTrackActions } from './track-actions'
import { useTrackBookmark } from './track-bookmark'
import { useLikes } from './use-likes'
import { PLAYER_SHORTCUTS, usePlayerKeys } from './use-player-keys'
import { VolumeSlider } from './volume-slider'

/** The bar's height, for what must stay clear of it (the page's end, the resume card). */
const BAR_HEIGHT_VAR = '--player-bar-height'

const iconButton = css({
  w: { base: '11', lg: '10' },
  h: { base: '11', lg: '10' },
  flexShrink: 0,
  position: 'relative',
  display: 'grid',
  placeItems: 'center',
  borderRadius: 'full',
  color: 'fg.muted',
  cursor: 'pointer',
  transition: 'background 0.15s, color 0.15s',
  _hover: { _enabled: { bg: 'bg.subtle', color: 'fg.default' } },
  _disabled: { opacity: 0.4, cursor: 'not-allowed' },
  '&[aria-pressed=true]': { color: 'accent.default', bg: 'accent.muted' },
})

/** Shown on phones only once the bar is expanded; always on desktop. */
const expandedOnly = css({ display: { base: 'none', lg: 'flex' }, '[data-expanded] &': { display: 'flex' } })
const expandedOnlyButton = css({ display: { base: 'none', lg: 'grid' }, '[data-expanded] &': { display: 'grid' } })

const REPEAT_TITLES: Record<RepeatMode, string> = {
  all: 'Repeat: all (the list starts again)',
  one: 'Repeat: this track',
  off: 'Repeat: off (stops after the last track)',
}

/** The mode's badge is CSS content, so the button's accessible name stays exactly "Repeat" (label in name). */
const repeatBadge = css({
  '&[data-repeat=all]::after, &[data-repeat=one]::after': {
    position: 'absolute',
    bottom: '0',
    right: '0',
    minW: '4',
    px: '0.5',
    borderRadius: 'full',
    // Inverse colours: readable (axe contrast) on the pressed button's tint and on plain surface.
    bg: 'fg.default',
    color: 'bg.surface',
    fontSize: '2xs',
    fontWeight: 'bold',
    lineHeight: '1rem',
  },
  '&[data-repeat=all]::after': { content: '"all"' },
  '&[data-repeat=one]::after': { content: '"1"' },
})

function IconButton(p: { label: string; icon: IconName; onClick: () => void; pressed?: boolean; disabled?: boolean; filled?: boolean; className?: string }) {
  return (
    <button
      type="button"
      aria-label={p.label}
      title={p.label}
      aria-pressed={p.pressed}
      disabled={p.disabled}
      onClick={p.onClick}
      className={cx(iconButton, p.className)}
    >
      <Icon name={p.icon} filled={p.filled} />
    </button>
  )
}

const grid = css({
  maxW: '7xl',
  mx: 'auto',
  px: { base: '2', lg: '6' },
  py: { base: '1.5', lg: '2' },
  display: 'grid',
  alignItems: 'center',
  columnGap: { base: '1', lg: '6' },
  rowGap: '1',
  // Phone, folded: the track, then previous/play/next and the expand toggle.
  gridTemplateColumns: 'minmax(0, 1fr) auto auto',
  gridTemplateAreas: '"info transport toggle"',
  '&[data-expanded]': {
    gridTemplateAreas: '"info info toggle" "seek seek seek" "transport transport transport" "extras extras extras"',
  },
  lg: {
    gridTemplateColumns: 'minmax(0, 1fr) minmax(24rem, auto) minmax(0, 1fr)',
    gridTemplateAreas: '"info transport extras" "info seek extras"',
    '&[data-expanded]': { gridTemplateAreas: '"info transport extras" "info seek extras"' },
  },
})

/** The bookmark's "Resume from": beside the title on desktop; on phones a card just above the bar, where the folded bar has no room. */
const resumeOffer = css({
  display: 'flex',
  alignItems: 'center',
  flexShrink: 0,
  position: { base: 'absolute', lg: 'static' },
  bottom: { base: '100%', lg: 'auto' },
  left: { base: '2', lg: 'auto' },
  mb: { base: '2', lg: '0' },
  p: { base: '1', lg: '0' },
  bg: { base: 'bg.surface', lg: 'transparent' },
  borderWidth: { base: '1px', lg: '0' },
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: { base: 'lg', lg: 'none' },
})

/** Where a live station's seek bar would be: a line with a red dot (nothing to seek). */
const liveLine = css({ flex: '1', minW: 0, h: '1', borderRadius: 'full', bg: 'border.default', position: 'relative', display: 'flex', alignItems: 'center' })
const liveDot = css({ position: 'absolute', right: 0, w: '2.5', h: '2.5', borderRadius: 'full', bg: 'danger.fg' })

export function PlayerBar() {
  const { engine, currentTime, duration } = usePlayer()
  const fullShown = useSyncExternalStore(fullPlayerShown.subscribe, fullPlayerShown.get, () => false)
  const showPlaylist = usePlaylistPanel()
  const { liked, toggleLike, share } = useTrackActions()
  const bookmark = useTrackBookmark()
  const [expandedChoice, setExpanded] = useState<boolean | null>(null)
  const [queueOpen, setQueueOpen] = useState(false)
  const [helpOpen, setHelpOpen] = useState(false)
  const section = useRef<HTMLElement>(null)

  const send = player().send
  const track = currentTrack(engine)
  // A live station: no length, no seeking; what it plays now comes from the server.
  const live = !!track && isLive(track)
  const stationTitle = useStationTitle(track, engine.playing)
  const hasTracks = engine.tracks.length > 0
  const volume = engine.muted ? 0 : engine.volume
  usePlayerKeys(hasTracks && !engine.advert, {
    togglePlay: () => send({ type: 'togglePlay' }),
    next: () => send({ type: 'next' }),
    previous: () => send({ type: 'previous' }),
    seekBy: (d) => player().seekBy(d),
    toggleMute: () => send({ type: 'toggleMute' }),
    toggleShuffle: () => send({ type: 'toggleShuffle' }),
    toggleRepeat: () => send({ type: 'toggleRepeat' }),
    stepVolume: (by) => send({ type: 'stepVolume', by }),
    showHelp: () => setHelpOpen(true),
  })

  const shown = !!track || fullShown
  // Keeps the page's end and the resume card clear of the bar, whatever its height.
  useLayoutEffect(() => {
    const root = document.documentElement
    const el = section.current
    if (!shown || !el) {
      root.style.setProperty(BAR_HEIGHT_VAR, '0px')
      return
    }
    const observer = new ResizeObserver(() => root.style.setProperty(BAR_HEIGHT_VAR, `${el.offsetHeight}px`))
    observer.observe(el)
    return () => {
      observer.disconnect()
      root.style.setProperty(BAR_HEIGHT_VAR, '0px')
    }
  }, [shown])

  const help = <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
  if (!shown) return help

  // Phones: the full player's bar opens expanded (its controls are the screen's); elsewhere folded.
  const expanded = expandedChoice ?? (fullShown && !!track)
  const title = track ? displayTitle(track) : 'No Track Selected'
  const seekMax = duration > 0 ? duration : 100
  const total = duration > 0 ? duration : (track?.duration ?? 0)
  const error = engine.error
  const ctx = engine.context

  return (
    <>
      <div aria-hidden className={css({ h: `var(${BAR_HEIGHT_VAR}, 0px)`, flexShrink: 0 })} />
      <section
        ref={section}
        aria-label="Now playing"
        data-testid="now-playing"
        className={css({
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          zIndex: 50,
          bg: 'bg.surface',
          borderTopWidth: '1px',
          borderColor: 'border.default',
          boxShadow: '0 -8px 24px rgba(0,0,0,0.35)',
          pb: 'env(safe-area-inset-bottom)',
        })}
      >
        <div className={grid} data-expanded={expanded || undefined}>
          <div className={css({ gridArea: 'info', display: 'flex', alignItems: 'center', gap: '3', minW: 0 })}>
            {fullShown ? (
              <BarArt track={track} />
            ) : ctx?.source === 'folder' && ctx.playlistId ? (
              <Link to="/player" search={{ fid: ctx.playlistId }} aria-label="Open player" title="Open player" className={artLink}>
                <BarArt track={track} />
              </Link>
            ) : (
              <Link to="/" aria-label="Open player" title="Open player" className={artLink}>
                <BarArt track={track} />
              </Link>
            )}
            <div className={css({ flex: '1', minW: 0 })}>
              <p data-testid="bar-title" className={css({ fontWeight: 'semibold', fontSize: 'sm', truncate: true })}>
                {title}
              </p>
              {error ? (
                <p className={css({ fontSize: 'xs', color: 'danger.fg', truncate: true })}>Playback error</p>
              ) : (
                <p data-testid="bar-subtitle" className={css({ fontSize: 'xs', color: 'fg.muted', truncate: true })}>
                  {live ? stationTitle || 'Live radio' : track ? track.artist || 'Unknown Artist' : 'Pick a folder to start'}
                </p>
              )}
            </div>
            {bookmark.resumeAt !== null && (
              <span className={resumeOffer}>
                <Button size="sm" variant="outline" onClick={bookmark.resume} className={css({ h: { base: '11', lg: '8' } })}>
                  Resume from {formatTime(bookmark.resumeAt)}
                </Button>
                <button type="button" aria-label="Dismiss resume" onClick={bookmark.dismiss} className={cx(iconButton, css({ lg: { w: '8', h: '8' } }))}>
                  <Icon name="close" size={16} />
                </button>
              </span>
            )}
          </div>

          {/* A player error replaces the controls (the full player shows it with its choices). */}
          {!error && (
            <>
              <div
                role="toolbar"
                aria-label="Playback controls"
                className={css({
                  gridArea: 'transport',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  gap: { base: '0.5', lg: '1' },
                })}
              >
                <IconButton
                  label="Shuffle"
                  icon="shuffle"
                  pressed={engine.shuffle}
                  onClick={() => send({ type: 'toggleShuffle' })}
                  disabled={!hasTracks}
                  className={expandedOnlyButton}
                />
                <IconButton
                  label="Rewind 10 seconds"
                  icon="rewind"
                  onClick={() => player().seekBy(-SEEK_STEP)}
                  disabled={!track || live}
                  className={expandedOnlyButton}
                />
                <IconButton label="Previous" icon="previous" onClick={() => send({ type: 'previous' })} disabled={!hasTracks} />
                <PlayButton size="bar" playing={engine.playing} onClick={() => send({ type: 'togglePlay' })} disabled={!hasTracks} />
                <IconButton label="Next" icon="next" onClick={() => send({ type: 'next' })} disabled={!hasTracks} />
                <IconButton
                  label="Forward 10 seconds"
                  icon="forward"
                  onClick={() => player().seekBy(SEEK_STEP)}
                  disabled={!track || live}
                  className={expandedOnlyButton}
                />
                <IconButton label="Stop" icon="stop" onClick={() => send({ type: 'stop' })} disabled={!track} className={expandedOnlyButton} />
                <button
                  type="button"
                  aria-label="Repeat"
                  title={REPEAT_TITLES[engine.repeat]}
                  aria-pressed={engine.repeat !== 'off'}
                  data-repeat={engine.repeat}
                  disabled={!hasTracks}
                  onClick={() => send({ type: 'toggleRepeat' })}
                  className={cx(iconButton, repeatBadge, expandedOnlyButton)}
                >
                  <Icon name="repeat" />
                </button>
              </div>

              <div className={cx(expandedOnly, css({ gridArea: 'seek', alignItems: 'center', gap: '2', px: { base: '1', lg: '0' } }))}>
                <span data-testid="time-current" className={timeText}>
                  {formatTime(currentTime)}
                </span>
                {live ? (
                  <span className={liveLine} aria-hidden>
                    <span className={liveDot} />
                  </span>
                ) : (
                  <input
                    type="range"
                    aria-label="Seek"
                    min={0}
                    max={seekMax}
                    step={0.1}
                    value={Math.min(currentTime, seekMax)}
                    disabled={!track}
                    onChange={(e) => player().seekTo(Number(e.target.value))}
                    aria-valuetext={`${formatTime(currentTime)} of ${formatTime(total)}`}
                    className={css({
                      flex: '1',
                      minW: 0,
                      h: { base: '11', lg: '6' },
                      accentColor: 'var(--colors-accent-default)',
                      cursor: 'pointer',
                      _disabled: { cursor: 'not-allowed', opacity: 0.5 },
                    })}
                  />
                )}
                <span data-testid="time-duration" className={timeText}>
                  {live ? 'Live' : formatTime(duration)}
                </span>
              </div>

              <div
                className={cx(
                  expandedOnly,
                  css({ gridArea: 'extras', alignItems: 'center', justifyContent: { base: 'space-between', lg: 'flex-end' }, gap: { base: '0.5', lg: '1' } }),
                )}
              >
                <IconButton
                  label="Like"
                  icon="heart"
                  pressed={liked}
                  filled={liked}
                  onClick={toggleLike}
                  disabled={!track || live}
                  className={css({ '&[aria-pressed=true]': { color: 'accent.pink', bg: 'transparent' } })}
                />
                {/* A station is not a track of the library: it can be neither liked nor shared. */}
                <IconButton label="Share" icon="share" onClick={() => void share()} disabled={!track || live} />
                {bookmark.canSave && <IconButton label="Bookmark position" icon="bookmark" onClick={bookmark.save} />}
                <IconButton label={engine.muted ? 'Unmute' : 'Mute'} icon={volume === 0 ? 'muted' : 'volume'} onClick={() => send({ type: 'toggleMute' })} />
                <VolumeSlider
                  value={volume}
                  onChange={(v) => send({ type: 'setVolume', volume: v })}
                  className={css({ w: { base: 'auto', lg: '32' }, flex: { base: '1', lg: 'none' }, minW: '28', mx: '2' })}
                />
                <IconButton label="Queue" icon="list" pressed={queueOpen} onClick={() => setQueueOpen(true)} disabled={!hasTracks} />
                {fullShown && (
                  <IconButton
                    label="Show playlist"
                    icon="playlist"
                    pressed={showPlaylist}
                    onClick={() => playlistPanel.set(!showPlaylist)}
                    disabled={!hasTracks}
                  />
                )}
              </div>
            </>
          )}

          <button
            type="button"
            aria-label="More controls"
            title={expanded ? 'Fewer controls' : 'More controls'}
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
            className={cx(iconButton, css({ gridArea: 'toggle', display: { base: 'grid', lg: 'none' } }))}
          >
            <Icon name={expanded ? 'down' : 'up'} />
          </button>
        </div>
      </section>
      <QueueDrawer open={queueOpen} onOpenChange={setQueueOpen} />
      {help}
    </>
  )
}

const timeText = css({ fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums', minW: '9', textAlign: 'center' })
const artLink = css({ flexShrink: 0, borderRadius: 'md', _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' } })

function BarArt({ track }: { track: Track | undefined }) {
  const box = css({
    w: { base: '11', lg: '14' },
    h: { base: '11', lg: '14' },
    flexShrink: 0,
    borderRadius: 'md',
    overflow: 'hidden',
    display: 'grid',
    placeItems: 'center',
    bgGradient: 'to-br',
    gradientFrom: '#1e1b4b',
    gradientTo: '#4a044e',
    color: 'white/80',
  })
  return (
    <div className={box}>
      {track?.cover ? <img src={track.cover} alt="" className={css({ w: 'full', h: 'full', objectFit: 'cover' })} /> : <Icon name="music" size={20} />}
    </div>
  )
}

/** "Up Next" in a drawer: from the right on desktop, from the bottom on phones. */
function QueueDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop className={css({ position: 'fixed', inset: '0', bg: 'rgba(0,0,0,0.6)', zIndex: 60 })} />
        <Dialog.Positioner
          className={css({
            position: 'fixed',
            inset: '0',
            zIndex: 60,
            display: 'flex',
            alignItems: { base: 'flex-end', lg: 'stretch' },
            justifyContent: { base: 'stretch', lg: 'flex-end' },
          })}
        >
          <Dialog.Content
            className={css({
              w: { base: 'full', lg: 'md' },
              maxH: { base: '85vh', lg: 'none' },
              bg: 'bg.surface',
              borderColor: 'border.default',
              borderTopWidth: { base: '1px', lg: '0' },
              borderLeftWidth: { base: '0', lg: '1px' },
              borderTopRadius: { base: '2xl', lg: 'none' },
              boxShadow: '2xl',
              p: '4',
              pb: 'calc(1rem + env(safe-area-inset-bottom))',
              display: 'flex',
              flexDirection: 'column',
              gap: '3',
              overflow: 'auto',
            })}
          >
            <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}>
              <Dialog.Title className={css({ fontSize: 'lg', fontWeight: 'bold', flex: '1' })}>Queue</Dialog.Title>
              <SaveQueueButton />
              <Dialog.CloseTrigger aria-label="Close queue" className={iconButton}>
                <Icon name="close" />
              </Dialog.CloseTrigger>
            </div>
            <QueueList />
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

/**
 * "Save as playlist": the queue's library tracks (their /media/ URLs) into a new playlist, or
 * added to one. Tracks from a remote folder or the member's own device are not in the library
 * and are left out; the dialog says how many.
 */
function SaveQueueButton() {
  const { engine } = usePlayer()
  const member = useAuth().isAuthenticated
  const [open, setOpen] = useState(false)
  if (!member) return null
  const urls = engine.tracks.map((t) => t.url).filter((url) => url.startsWith('/media/'))
  const left = engine.tracks.length - urls.length
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} disabled={urls.length === 0} className={css({ minH: '11' })}>
        <Icon name="playlist" size={16} /> Save as playlist
      </Button>
      {open && (
        <PlaylistPicker
          open
          onOpenChange={setOpen}
          startNew
          tracks={{ trackUrls: urls }}
          what={`${plural(urls.length, 'track')} from the queue${left > 0 ? ` (${left} not from the library left out)` : ''}`}
        />
      )}
    </>
  )
}

function QueueList() {
  const { engine } = usePlayer()
  const likes = useLikes()
  const send = player().send
  return (
    <TrackList
      ids={{ heading: 'drawer-up-next', row: 'drawer-queue-row' }}
      maxHeight="60vh"
      tracks={engine.tracks}
      order={engine.order}
      activeIndex={engine.index}
      playing={engine.playing}
      isVideo={(t) => isVideoTrack(engine, t)}
      isLiked={likes.isLiked}
      onSelect={(i) => send({ type: 'select', index: i })}
      queue={{
        reorder: (from, to) => send({ type: 'reorder', from, to }),
        remove: (i) => send({ type: 'remove', index: i }),
        clear: () => send({ type: 'clear' }),
      }}
    />
  )
}

/** `?`: every keyboard shortcut, from the table the keyboard handler uses. */
function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="They work on every page while something is loaded (not while typing)."
    >
      <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse' })}>
        <tbody>
          {PLAYER_SHORTCUTS.map((s) => (
            <tr key={s.label} className={css({ borderBottomWidth: '1px', borderColor: 'border.default', _last: { borderBottomWidth: '0' } })}>
              <th scope="row" className={css({ textAlign: 'left', py: '2', pr: '4', w: '24', fontWeight: 'normal' })}>
                <kbd
                  className={css({
                    display: 'inline-block',
                    minW: '7',
                    px: '2',
                    py: '0.5',
                    textAlign: 'center',
                    fontFamily: 'mono',
                    fontSize: 'xs',
                    bg: 'bg.subtle',
                    borderWidth: '1px',
                    borderColor: 'border.default',
                    borderBottomWidth: '2px',
                    borderRadius: 'md',
                  })}
                >
                  {s.label}
                </kbd>
              </th>
              <td className={css({ py: '2', color: 'fg.muted' })}>{s.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={modalFooter}>
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Close
        </Button>
      </div>
    </Modal>
  )
}
