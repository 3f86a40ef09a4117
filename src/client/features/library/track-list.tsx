// A list of library tracks: one row per track (44 px touch targets), the row plays the list from
// there (its name is its visible title and artist; the number and length are hidden from it), its
// ⋯ button opens the track's actions (TrackActions; the context-menu key or a right click on the
// row too); long lists are virtualised with the player's fixed-row-height list.
// The row of the track the player has current is marked: aria-current, the accent colour and a ▶
// in place of its number. A song the member rated shows its stars (★ 4) before its length.
import { type ReactNode, useSyncExternalStore } from 'react'
import { css, cx } from 'styled-system/css'
import { currentTrack } from '~/client/features/player/engine'
import { player } from '~/client/features/player/player-store'
import { trackIdOf } from '~/client/features/player/track-identity'
import { UnavailableMark } from '~/client/features/player/unavailable-mark'
import { VirtualList } from '~/client/features/player/virtual-list'
import type { LibraryTrack } from '~/shared/library'
import { clock } from './format'
import { playTracks } from './play'
import { openTrackMenu, TrackActions } from './track-actions'
import { useRatings } from './use-ratings'
import { mutedText } from '~/client/ui/text'
import { ellipsis } from '~/client/ui/list-row'

const ROW = 56

const row = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  h: 'full',
  minH: '11',
  px: '3',
  textAlign: 'left',
  borderRadius: 'md',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
  '&[aria-current=true]': { color: 'accent.default', bg: 'bg.subtle', fontWeight: 'semibold' },
})

type Props = {
  tracks: readonly LibraryTrack[]
  /** The player's label for the list ("Homogenic", "Songs"). */
  label: string
  /** Names the list for screen readers. */
  listLabel: string
  /** Show the track number instead of the position. */
  numbered?: boolean
  showAlbum?: boolean
  /** More of the row's own controls, before its ⋯ menu (the Liked songs page's Unlike). */
  extra?: (track: LibraryTrack) => ReactNode
}

/** The current track's id (signed media URLs compared without their signature); re-renders only when it changes. */
export function useCurrentTrackId(): string | null {
  return useSyncExternalStore(
    (listener) => player().subscribe(listener),
    () => {
      const t = currentTrack(player().get().engine)
      return t ? trackIdOf(t.url) : null
    },
    () => null,
  )
}

export function TrackList({ tracks, label, listLabel, numbered, showAlbum = true, extra }: Props) {
  const current = useCurrentTrackId()
  const { ratings } = useRatings()
  return (
    <VirtualList
      items={tracks}
      rowHeight={ROW}
      maxHeight="70vh"
      label={listLabel}
      renderRow={(t, i) => (
        <div className={css({ display: 'flex', alignItems: 'center', h: 'full', gap: '1' })}>
          <button
            type="button"
            className={row}
            aria-current={current !== null && trackIdOf(t.url) === current ? 'true' : undefined}
            onClick={() => playTracks(tracks, label, i)}
            onKeyDown={openTrackMenu}
            onContextMenu={openTrackMenu}
          >
            <span
              aria-hidden
              className={css({ w: '7', flexShrink: 0, textAlign: 'right', color: 'fg.subtle', fontSize: 'sm', fontVariantNumeric: 'tabular-nums' })}
            >
              {current !== null && trackIdOf(t.url) === current ? (
                <span className={css({ color: 'accent.default' })}>▶</span>
              ) : numbered && t.track ? (
                t.track
              ) : (
                i + 1
              )}
            </span>
            <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
              <span className={ellipsis}>{t.title}</span>
              <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                {t.artist || 'Unknown Artist'}
                {showAlbum ? ` · ${t.album}` : ''}
              </span>
            </span>
            <UnavailableMark reason={t.unavailable} />
            {ratings[t.id] ? (
              <span
                data-testid="track-rating"
                title={`Your rating: ${ratings[t.id]} stars`}
                className={css({ fontSize: 'xs', color: 'accent.default', flexShrink: 0 })}
              >
                ★ {ratings[t.id]}
              </span>
            ) : null}
            <span aria-hidden className={css({ fontSize: 'sm', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
              {t.duration ? clock(t.duration) : ''}
            </span>
          </button>
          {extra?.(t)}
          <TrackActions track={t} label={label} />
        </div>
      )}
    />
  )
}
