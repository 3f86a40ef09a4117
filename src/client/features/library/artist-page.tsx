// /library/artists/$id: the artist, "Play" and "Add to queue" (its songs, album by album), its
// albums and its songs.
import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import { backLink } from './album-page'
import { AlbumGrid, emptyText } from './browse'
import { Cover } from './cover'
import { plural } from './format'
import { playTracks, queueTracks } from './play'
import { TrackList } from './track-list'
import { stack } from 'styled-system/patterns'
import { pageHeader } from '~/client/ui/page-header'
import { mutedText } from '~/client/ui/text'

export function ArtistPage({ id }: { id: string }) {
  const trpc = useTRPC()
  const artist = useSuspenseQuery(trpc.library.artists.byId.queryOptions({ id })).data
  const { tracks } = artist

  return (
    <section className={stack({ gap: '6' })}>
      <Link to="/library" search={{ tab: 'artists' }} className={backLink}>
        ← Library
      </Link>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: { base: '4', md: '8' }, alignItems: { sm: 'flex-end' } })}>
        <Cover src={artist.cover} name={artist.name} round className={css({ w: { base: '36', md: '48' }, flexShrink: 0 })} />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
          <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>Artist</p>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight', wordBreak: 'break-word' })}>
            {artist.name}
          </h1>
          <p className={mutedText()}>
            {plural(artist.albumCount, 'album')} · {plural(artist.songCount, 'song')}
          </p>
          {artist.biography && (
            <p
              data-testid="artist-biography"
              className={css({ whiteSpace: 'pre-line', maxW: '65ch', color: 'fg.muted', fontSize: 'sm', lineHeight: 'relaxed' })}
            >
              {artist.biography}
            </p>
          )}
          <div className={css({ display: 'flex', gap: '3', mt: '2', flexWrap: 'wrap' })}>
            <Button size="lg" disabled={tracks.length === 0} onClick={() => playTracks(tracks, artist.name)}>
              <span aria-hidden>▶</span> Play
            </Button>
            <Button
              size="lg"
              variant="outline"
              disabled={tracks.length === 0}
              onClick={() => {
                queueTracks(tracks)
                toast({ title: 'Added to queue', description: `${plural(tracks.length, 'track')} by ${artist.name}`, type: 'success' })
              }}
            >
              Add to queue
            </Button>
          </div>
        </div>
      </header>
      <h2 className={pageHeader().title}>Albums</h2>
      {artist.albums.length === 0 ? <p className={emptyText}>No albums.</p> : <AlbumGrid albums={artist.albums} label={`Albums by ${artist.name}`} />}
      {tracks.length > 0 && (
        <>
          <h2 className={pageHeader().title}>Songs</h2>
          <TrackList tracks={tracks} label={artist.name} listLabel={`Songs by ${artist.name}`} />
        </>
      )}
    </section>
  )
}
