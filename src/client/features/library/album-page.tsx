// /library/albums/$id: the album's cover, facts, "Play" (the player's list becomes the album),
// "Add to queue", "Share link" and "Download for offline", and its tracks in disc and track order.
import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { DownloadButton } from '~/client/features/offline/download-button'
import { ShareDialog } from '~/client/features/shares/share-dialog'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import { Cover } from './cover'
import { clock, plural } from './format'
import { playTracks, queueTracks } from './play'
import { TrackList } from './track-list'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

export const backLink = css({ display: 'inline-flex', alignItems: 'center', minH: '11', fontSize: 'sm', color: 'fg.muted', _hover: { color: 'fg.default' } })

export function AlbumPage({ id }: { id: string }) {
  const trpc = useTRPC()
  const album = useSuspenseQuery(trpc.library.albums.byId.queryOptions({ id })).data
  const [sharing, setSharing] = useState(false)
  return (
    <section className={stack({ gap: '6' })}>
      <Link to="/library" search={{ tab: 'albums' }} className={backLink}>
        ← Library
      </Link>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: { base: '4', md: '8' }, alignItems: { sm: 'flex-end' } })}>
        <Cover src={album.cover} name={album.name} className={css({ w: { base: '48', md: '60' }, flexShrink: 0, boxShadow: 'xl' })} />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
          <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>Album</p>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight', wordBreak: 'break-word' })}>{album.name}</h1>
          <p className={mutedText()}>
            <Link
              to="/library/artists/$id"
              params={{ id: album.artistId }}
              className={css({ color: 'fg.default', fontWeight: 'semibold', _hover: { textDecoration: 'underline' } })}
            >
              {album.artist}
            </Link>
            {album.year ? ` · ${album.year}` : ''}
            {album.genre ? ` · ${album.genre}` : ''} · {plural(album.songCount, 'song')} · {clock(album.duration)}
          </p>
          <div className={css({ display: 'flex', gap: '3', mt: '2', flexWrap: 'wrap' })}>
            <Button size="lg" onClick={() => playTracks(album.tracks, album.name)}>
              <span aria-hidden>▶</span> Play
            </Button>
            <Button
              size="lg"
              variant="outline"
              onClick={() => {
                queueTracks(album.tracks)
                toast({ title: 'Added to queue', description: `${plural(album.tracks.length, 'track')} from ${album.name}`, type: 'success' })
              }}
            >
              Add to queue
            </Button>
            <Button size="lg" variant="outline" onClick={() => setSharing(true)}>
              Share link
            </Button>
            <DownloadButton target={{ kind: 'album', id: album.id, name: album.name }} tracks={album.tracks} />
          </div>
          <ShareDialog target={{ kind: 'album', id: album.id }} name={album.name} open={sharing} onOpenChange={setSharing} />
        </div>
      </header>
      <TrackList tracks={album.tracks} label={album.name} listLabel={`Tracks of ${album.name}`} numbered showAlbum={false} />
    </section>
  )
}
