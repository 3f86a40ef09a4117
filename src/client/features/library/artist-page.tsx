// /library/artists/$id: the artist, "Play" (all its albums' tracks, album by album) and its albums.
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import type { LibraryTrack } from '~/shared/library'
import { backLink } from './album-page'
import { AlbumGrid, emptyText } from './browse'
import { Cover } from './cover'
import { plural } from './format'
import { playTracks, queueTracks } from './play'

export function ArtistPage({ id }: { id: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const artist = useSuspenseQuery(trpc.library.artists.byId.queryOptions({ id })).data
  const [busy, setBusy] = useState(false)

  /** Every track of the artist's albums, album by album (each album fetched once, then cached). */
  async function allTracks(): Promise<LibraryTrack[]> {
    const albums = await Promise.all(artist.albums.map((a) => queryClient.fetchQuery(trpc.library.albums.byId.queryOptions({ id: a.id }))))
    return albums.flatMap((a) => a.tracks)
  }
  async function run(then: (tracks: LibraryTrack[]) => void) {
    setBusy(true)
    try {
      then(await allTracks())
    } catch (error) {
      toast({ title: 'Could not load the tracks', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
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
          <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
            {plural(artist.albumCount, 'album')} · {plural(artist.songCount, 'song')}
          </p>
          <div className={css({ display: 'flex', gap: '3', mt: '2', flexWrap: 'wrap' })}>
            <Button size="lg" disabled={busy || artist.albums.length === 0} onClick={() => run((tracks) => playTracks(tracks, artist.name))}>
              <span aria-hidden>▶</span> Play
            </Button>
            <Button
              size="lg"
              variant="outline"
              disabled={busy || artist.albums.length === 0}
              onClick={() =>
                run((tracks) => {
                  queueTracks(tracks)
                  toast({ title: 'Added to queue', description: `${plural(tracks.length, 'track')} by ${artist.name}`, type: 'success' })
                })
              }
            >
              Add to queue
            </Button>
          </div>
        </div>
      </header>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Albums</h2>
      {artist.albums.length === 0 ? <p className={emptyText}>No albums.</p> : <AlbumGrid albums={artist.albums} label={`Albums by ${artist.name}`} />}
    </section>
  )
}
