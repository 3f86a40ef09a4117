// /library/liked: every song the member likes, newest like first — the list OpenSubsonic apps get
// from getStarred2 (one server query for both, services/liked-songs.ts). Play all, Shuffle, an
// Unlike per row (the row leaves at once; the list is asked again once the server has it) and the
// track menu of every list. Long lists are virtualised like the Songs tab.
import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { useLikes } from '~/client/features/player/use-likes'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { CoverTile } from '~/client/ui/cover-tile'
import { Icon } from '~/client/ui/icon'
import { backLink } from './album-page'
import { emptyText } from './browse'
import { clock, plural } from './format'
import { playTracks, shuffleTracks } from './play'
import { iconButton } from './track-actions'
import { TrackList } from './track-list'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

const LABEL = 'Liked songs'

/** The heart tile that stands for the list (the page's cover and the Library's entry). */
export function LikedTile({ size }: { size: 'sm' | 'lg' }) {
  return <CoverTile size={size} icon="heart" filled fadeTo="pink" />
}

export function LikedPage() {
  const trpc = useTRPC()
  const { tracks } = useSuspenseQuery(trpc.library.liked.queryOptions()).data
  const { setLiked } = useLikes()
  // Likes are kept per title: an Unlike takes every row of that title off at once.
  const [unliked, setUnliked] = useState<ReadonlySet<string>>(new Set())
  const shown = tracks.filter((t) => !unliked.has(t.title))
  const duration = shown.reduce((sum, t) => sum + (t.duration ?? 0), 0)
  return (
    <section className={stack({ gap: '6' })}>
      <Link to="/library" className={backLink}>
        ← Library
      </Link>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: { base: '4', md: '8' }, alignItems: { sm: 'flex-end' } })}>
        <LikedTile size="lg" />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
          <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>Playlist</p>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight' })}>{LABEL}</h1>
          <p className={mutedText()}>
            {plural(shown.length, 'song')}
            {duration > 0 ? ` · ${clock(duration)}` : ''} · newest first
          </p>
          <div className={css({ display: 'flex', gap: '3', mt: '2', flexWrap: 'wrap' })}>
            <Button size="lg" disabled={shown.length === 0} onClick={() => playTracks(shown, LABEL)}>
              <Icon name="play" size={18} /> Play all
            </Button>
            <Button size="lg" variant="outline" disabled={shown.length === 0} onClick={() => shuffleTracks(shown, LABEL)}>
              <Icon name="shuffle" size={18} /> Shuffle
            </Button>
          </div>
        </div>
      </header>
      {shown.length === 0 ? (
        <p className={emptyText}>No liked songs yet. Like a song from its ⋯ menu or with the player's heart, and it shows up here.</p>
      ) : (
        <TrackList
          tracks={shown}
          label={LABEL}
          listLabel={LABEL}
          extra={(t) => (
            <button
              type="button"
              aria-label={`Unlike ${t.title}`}
              className={iconButton}
              onClick={() => {
                setUnliked((s) => new Set(s).add(t.title))
                setLiked(t.title, false, t.url)
              }}
            >
              <span className={css({ color: 'accent.pink', display: 'grid' })}>
                <Icon name="heart" filled />
              </span>
            </button>
          )}
        />
      )}
    </section>
  )
}
