// The "Up Next" track list (title, artist, duration or 0:00, video icon; at most 30% of the
// viewport, virtualised) and the simple playlist panel (title, artist, a "Video" badge).
import { css, cx } from 'styled-system/css'
import { displayTitle, formatTime, isVideo as isVideoTrack, type Track } from '~/shared/player/track'
import { Icon } from './icons'
import { VirtualList } from './virtual-list'

const ROW = 56

const row = css({
  w: 'full',
  h: 'full',
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  textAlign: 'left',
  borderRadius: 'lg',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  '&[aria-current=true]': { bg: 'accent.muted' },
})

type VideoRule = (t: Track) => boolean

export function TrackList({
  tracks,
  activeIndex,
  playing,
  isLiked,
  onSelect,
  isVideo = isVideoTrack,
}: {
  tracks: readonly Track[]
  activeIndex: number
  playing: boolean
  isLiked: (title: string) => boolean
  onSelect: (i: number) => void
  isVideo?: VideoRule
}) {
  return (
    <section
      aria-labelledby="up-next"
      className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', p: { base: '3', md: '4' } })}
    >
      <div className={css({ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', px: '1', mb: '2' })}>
        <h2 id="up-next" className={css({ fontWeight: 'bold' })}>
          Up Next
        </h2>
        <span data-testid="track-count" className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          {tracks.length} {tracks.length === 1 ? 'track' : 'tracks'}
        </span>
      </div>
      {tracks.length === 0 ? (
        <p className={css({ px: '1', py: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
          No tracks yet. Pick a folder of music or videos to fill the playlist.
        </p>
      ) : (
        <VirtualList
          items={tracks}
          rowHeight={ROW}
          maxHeight="30vh"
          activeIndex={activeIndex}
          label="Track list"
          className={css({ minH: '28' })}
          renderRow={(t, i) => {
            const title = displayTitle(t)
            const active = i === activeIndex
            return (
              <button type="button" className={row} aria-current={active} onClick={() => onSelect(i)} title={title}>
                <span
                  className={css({
                    w: '6',
                    flexShrink: 0,
                    textAlign: 'right',
                    fontSize: 'xs',
                    color: active ? 'accent.text' : 'fg.subtle',
                    fontVariantNumeric: 'tabular-nums',
                  })}
                  aria-hidden
                >
                  {active && playing ? '▶' : i + 1}
                </span>
                <span className={css({ flex: '1', minW: 0 })}>
                  <span
                    className={cx(
                      css({ display: 'flex', alignItems: 'center', gap: '1.5', fontSize: 'sm', fontWeight: 'medium' }),
                      active ? css({ color: 'accent.text' }) : undefined,
                    )}
                  >
                    {isVideo(t) && <Icon name="video" size={14} aria-label="Video" role="img" aria-hidden={false} />}
                    <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{title}</span>
                    {isLiked(title) && (
                      <span role="img" aria-label="Liked" className={css({ color: 'accent.pink', fontSize: 'xs' })}>
                        ♥
                      </span>
                    )}
                  </span>
                  <span
                    className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}
                  >
                    {t.artist || 'Unknown Artist'}
                  </span>
                </span>
                <span className={css({ fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>{formatTime(t.duration)}</span>
              </button>
            )
          }}
        />
      )}
    </section>
  )
}

export function SimplePlaylist({
  tracks,
  activeIndex,
  onSelect,
  isVideo = isVideoTrack,
}: {
  tracks: readonly Track[]
  activeIndex: number
  onSelect: (i: number) => void
  isVideo?: VideoRule
}) {
  return (
    <section
      aria-labelledby="playlist-panel"
      className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', p: { base: '3', md: '4' } })}
    >
      <h2 id="playlist-panel" className={css({ fontWeight: 'bold', px: '1', mb: '2' })}>
        Playlist
      </h2>
      <VirtualList
        items={tracks}
        rowHeight={44}
        maxHeight="40vh"
        activeIndex={activeIndex}
        label="Playlist"
        renderRow={(t, i) => (
          <button type="button" className={row} aria-current={i === activeIndex} onClick={() => onSelect(i)}>
            <span className={css({ flex: '1', minW: 0, fontSize: 'sm', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
              {displayTitle(t)}
              {t.artist && <span className={css({ color: 'fg.muted' })}> — {t.artist}</span>}
            </span>
            {isVideo(t) && (
              <span
                className={css({ fontSize: '2xs', fontWeight: 'bold', px: '1.5', py: '0.5', borderRadius: 'md', bg: 'accent.muted', color: 'accent.text' })}
              >
                Video
              </span>
            )}
          </button>
        )}
      />
    </section>
  )
}
