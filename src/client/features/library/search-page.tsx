// /library/search?q=: everything the library search finds for q, more than the top bar's box
// shows — artists, albums and songs, the songs with the track menu of every list. The box's last
// option, "All results", opens it.
import { useSuspenseQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { ArtistList, AlbumGrid, emptyText } from './browse'
import { TrackList } from './track-list'
import { stack } from 'styled-system/patterns'
import { pageHeader } from '~/client/ui/page-header'

const PER_KIND = 50
const heading = pageHeader().title

export function SearchPage({ q }: { q: string }) {
  const trpc = useTRPC()
  const found = useSuspenseQuery(trpc.library.search.queryOptions({ q, limit: PER_KIND })).data
  const nothing = found.artists.length + found.albums.length + found.tracks.length === 0
  return (
    <section className={stack({ gap: '6' })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', wordBreak: 'break-word' })}>Results for “{q}”</h1>
      {nothing && <p className={emptyText}>Nothing found for “{q}”.</p>}
      {found.tracks.length > 0 && (
        <div className={stack({ gap: '3' })}>
          <h2 className={heading}>Songs</h2>
          <TrackList tracks={found.tracks} label={`Search: ${q}`} listLabel="Songs found" />
        </div>
      )}
      {found.artists.length > 0 && (
        <div className={stack({ gap: '3' })}>
          <h2 className={heading}>Artists</h2>
          <ArtistList artists={found.artists} label="Artists found" />
        </div>
      )}
      {found.albums.length > 0 && (
        <div className={stack({ gap: '3' })}>
          <h2 className={heading}>Albums</h2>
          <AlbumGrid albums={found.albums} label="Albums found" />
        </div>
      )}
    </section>
  )
}
