// The control bar (§2, CONTRACT §5 names): shuffle, previous, play/pause, next, stop, repeat,
// like, share, ±10 s, mute, volume and show-playlist. Toggles expose aria-pressed; Repeat keeps
// its name and shows its mode (decision 022) as a badge ("all", "1") and a title. On phones every
// button is a 44 px target.
import { css, cx } from 'styled-system/css'
import type { RepeatMode } from './engine'
import { Icon, type IconName } from '~/client/ui/icon'
import { PlayButton } from './play-button'
import { VolumeSlider } from './volume-slider'

type Props = {
  hidden: boolean
  hasTrack: boolean
  hasTracks: boolean
  playing: boolean
  shuffle: boolean
  repeat: RepeatMode
  liked: boolean
  muted: boolean
  volume: number
  showPlaylist: boolean
  onShuffle: () => void
  onPrevious: () => void
  onPlay: () => void
  onNext: () => void
  onStop: () => void
  onRepeat: () => void
  onLike: () => void
  onShare: () => void
  onMute: () => void
  onVolume: (v: number) => void
  onRewind: () => void
  onForward: () => void
  onTogglePlaylist: () => void
}

const iconButton = css({
  w: { base: '11', sm: '10' },
  h: { base: '11', sm: '10' },
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

function IconButton({
  label,
  icon,
  onClick,
  pressed,
  disabled,
  filled,
  className,
}: {
  label: string
  icon: IconName
  onClick: () => void
  pressed?: boolean
  disabled?: boolean
  filled?: boolean
  className?: string
}) {
  return (
    <button type="button" aria-label={label} title={label} aria-pressed={pressed} disabled={disabled} onClick={onClick} className={cx(iconButton, className)}>
      <Icon name={icon} filled={filled} />
    </button>
  )
}

export function PlayerControls(p: Props) {
  return (
    <div hidden={p.hidden} className={css({ mt: '3', display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div
        role="toolbar"
        aria-label="Playback controls"
        className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: { base: '0.5', sm: '2' }, flexWrap: 'wrap' })}
      >
        <IconButton label="Shuffle" icon="shuffle" pressed={p.shuffle} onClick={p.onShuffle} disabled={!p.hasTracks} />
        <IconButton label="Rewind 10 seconds" icon="rewind" onClick={p.onRewind} disabled={!p.hasTrack} />
        <IconButton label="Previous" icon="previous" onClick={p.onPrevious} disabled={!p.hasTracks} />
        <PlayButton size="full" playing={p.playing} onClick={p.onPlay} disabled={!p.hasTracks} />
        <IconButton label="Next" icon="next" onClick={p.onNext} disabled={!p.hasTracks} />
        <IconButton label="Forward 10 seconds" icon="forward" onClick={p.onForward} disabled={!p.hasTrack} />
        <IconButton label="Stop" icon="stop" onClick={p.onStop} disabled={!p.hasTrack} />
        <button
          type="button"
          aria-label="Repeat"
          title={REPEAT_TITLES[p.repeat]}
          aria-pressed={p.repeat !== 'off'}
          data-repeat={p.repeat}
          disabled={!p.hasTracks}
          onClick={p.onRepeat}
          className={cx(iconButton, repeatBadge)}
        >
          <Icon name="repeat" />
        </button>
      </div>
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: { base: '1', sm: '2' }, flexWrap: 'wrap' })}>
        <IconButton
          label="Like"
          icon="heart"
          pressed={p.liked}
          filled={p.liked}
          onClick={p.onLike}
          disabled={!p.hasTrack}
          className={css({ '&[aria-pressed=true]': { color: 'accent.pink', bg: 'transparent' } })}
        />
        <IconButton label="Share" icon="share" onClick={p.onShare} disabled={!p.hasTrack} />
        <span className={css({ w: '1px', h: '6', bg: 'border.default', mx: '1' })} aria-hidden />
        <IconButton label={p.muted ? 'Unmute' : 'Mute'} icon={p.muted || p.volume === 0 ? 'muted' : 'volume'} onClick={p.onMute} />
        <VolumeSlider value={p.volume} onChange={p.onVolume} />
        <span className={css({ w: '1px', h: '6', bg: 'border.default', mx: '1' })} aria-hidden />
        <IconButton label="Show playlist" icon="list" pressed={p.showPlaylist} onClick={p.onTogglePlaylist} disabled={!p.hasTracks} />
      </div>
    </div>
  )
}
