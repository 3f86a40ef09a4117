// Members' playlist panel: the playlist, or with "Liked songs" pressed the liked tracks of the
// loaded list, most recent like first. Likes are kept by title, so only titles
// present in this list can be shown and played. A lazy chunk: it loads when a member first opens
// the panel (the page's JavaScript budget; decision 022), the default export to keep the loader short.
import { type ReactNode, useState } from 'react'
import { css } from 'styled-system/css'
import { displayTitle, type Track } from '~/shared/player/track'
import type { LikeMap } from './use-likes'
import { plural } from '~/shared/plural'
import { stack } from 'styled-system/patterns'
import { card } from '~/client/ui/card'

/** List positions of the liked tracks, most recently liked first (list order among equals). */
export function likedPositions(tracks: readonly Track[], likes: LikeMap): number[] {
  const positions: number[] = []
  tracks.forEach((t, i) => {
    if (likes[displayTitle(t)]?.liked === true) positions.push(i)
  })
  const likedAt = (i: number) => likes[displayTitle(tracks[i])].timestamp
  return positions.sort((a, b) => likedAt(b) - likedAt(a) || a - b)
}

type LikedProps = { tracks: readonly Track[]; likes: LikeMap; activeIndex: number; onSelect: (i: number) => void }
/** `children`: the plain playlist panel, shown while "Liked songs" is not pressed. */
export type MemberPlaylistProps = LikedProps & { children: ReactNode }

export default function MemberPlaylist({ children, ...liked }: MemberPlaylistProps) {
  const [showLiked, setShowLiked] = useState(false)
  return (
    <div className={stack({ gap: '2' })}>
      <button
        type="button"
        aria-pressed={showLiked}
        onClick={() => setShowLiked((s) => !s)}
        className={css({
          alignSelf: 'flex-end',
          fontSize: 'xs',
          fontWeight: 'medium',
          px: '3',
          h: '8',
          borderRadius: 'full',
          borderWidth: '1px',
          borderColor: 'border.default',
          cursor: 'pointer',
          _hover: { bg: 'bg.subtle' },
          '&[aria-pressed=true]': { bg: 'accent.muted', color: 'accent.text' },
        })}
      >
        <span aria-hidden>♥</span> Liked songs
      </button>
      {showLiked ? <LikedSongs {...liked} /> : children}
    </div>
  )
}

function LikedSongs({ tracks, likes, activeIndex, onSelect }: LikedProps) {
  const positions = likedPositions(tracks, likes)
  return (
    <section aria-labelledby="liked-songs" className={card({ size: 'list' })}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', px: '1', mb: '2' })}>
        <h2 id="liked-songs" className={css({ fontWeight: 'bold' })}>
          Liked songs
        </h2>
        <span data-testid="liked-count" className={css({ fontSize: 'xs', color: 'fg.muted', flex: '1' })}>
          {plural(positions.length, 'track')}
        </span>
      </div>
      {positions.length === 0 ? (
        <p className={css({ px: '1', py: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>No liked songs in this list yet</p>
      ) : (
        <ul aria-label="Liked songs" className={css({ maxH: '40vh', overflowY: 'auto' })}>
          {positions.map((i) => {
            const t = tracks[i]
            return (
              <li key={i} className={css({ h: '11' })}>
                <button
                  type="button"
                  aria-current={i === activeIndex}
                  onClick={() => onSelect(i)}
                  className={css({
                    w: 'full',
                    h: 'full',
                    px: '3',
                    textAlign: 'left',
                    fontSize: 'sm',
                    borderRadius: 'lg',
                    cursor: 'pointer',
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                    _hover: { bg: 'bg.subtle' },
                    '&[aria-current=true]': { bg: 'accent.muted' },
                  })}
                >
                  {displayTitle(t)}
                  {t.artist && <span className={css({ color: 'fg.muted' })}> — {t.artist}</span>}
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
