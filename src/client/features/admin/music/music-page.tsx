// Music (on /admin/music and /music): the usual layout — a header with two
// actions, a grid of collections, a table of songs — filled with this server's real library
// (no sample songs, no dead buttons). The Library panel gives the counts and the
// rescan; the grid holds the most recently added albums, the table the most recently added
// tracks, and every Play button plays through the app's one player.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { AdvertsPanel } from '../adverts/adverts-panel'
import { PodcastsPanel } from '../podcasts/podcasts-panel'
import { RadioStationsPanel } from '../radio/radio-stations-panel'
import { toast } from '~/client/ui/toaster'
import { clock, plural } from '~/client/features/library/format'
import { playTracks } from '~/client/features/library/play'
import type { LibraryAlbum } from '~/shared/library'
import { relativeTime } from '~/shared/relative-time'
import { LibraryScanPanel } from '../panels/library-scan'
import { EmptyState, ErrorBox, Panel, PanelLoading, TableScroll } from '../panels/panel'
import { table, TableHead } from '~/client/ui/table'
import { stack } from 'styled-system/patterns'
import { pageHeader } from '~/client/ui/page-header'
import { mutedText } from '~/client/ui/text'

const RECENT_ALBUMS = 6
const RECENT_TRACKS = 20

const linkButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  minH: '10',
  px: '4',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border.default',
  fontWeight: 'medium',
  fontSize: 'sm',
  _hover: { borderColor: 'accent.default' },
})

function RecentAlbums() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const albums = useQuery(trpc.library.albums.list.queryOptions({ sort: 'recent', limit: RECENT_ALBUMS }))
  async function playAlbum(album: LibraryAlbum) {
    try {
      const detail = await queryClient.fetchQuery(trpc.library.albums.byId.queryOptions({ id: album.id }))
      playTracks(detail.tracks, detail.name)
    } catch (error) {
      toast({ title: `Couldn't play ${album.name}`, description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
    }
  }
  return (
    <Panel title="Recently added albums" id="recent-albums">
      {albums.isPending ? (
        <PanelLoading label="Loading albums" />
      ) : albums.isError ? (
        <ErrorBox message={errorMessage(albums.error, 'Failed to load albums')} />
      ) : albums.data.albums.length === 0 ? (
        <EmptyState title="No albums yet" text="Put music in MEDIA_ROOT and scan the library." />
      ) : (
        <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: '3' })}>
          {albums.data.albums.map((a) => (
            <li key={a.id} className={css({ bg: 'bg.subtle', borderRadius: 'lg', p: '4', display: 'flex', flexDirection: 'column', gap: '3', minW: 0 })}>
              <div className={css({ minW: 0 })}>
                <Link to="/library/albums/$id" params={{ id: a.id }} className={css({ fontWeight: 'semibold', _hover: { textDecoration: 'underline' } })}>
                  {a.name}
                </Link>
                <p className={css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                  {a.artist} · {plural(a.songCount, 'song')} · added {relativeTime(a.addedAt)}
                </p>
              </div>
              <div className={css({ display: 'flex', gap: '2' })}>
                <Button size="sm" variant="outline" onClick={() => void playAlbum(a)} aria-label={`Play ${a.name}`}>
                  Play
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

function RecentTracks() {
  const trpc = useTRPC()
  const tracks = useQuery(trpc.library.tracks.list.queryOptions({ sort: 'recent', limit: RECENT_TRACKS }))
  const list = tracks.data?.tracks ?? []
  return (
    <Panel
      title="Songs"
      actions={
        tracks.data && (
          <span className={mutedText({ size: 'xs' })}>
            Newest {list.length} of {plural(tracks.data.total, 'song')}
          </span>
        )
      }
    >
      {tracks.isPending ? (
        <PanelLoading label="Loading songs" />
      ) : tracks.isError ? (
        <ErrorBox message={errorMessage(tracks.error, 'Failed to load songs')} />
      ) : list.length === 0 ? (
        <EmptyState title="No songs yet" text="Put music in MEDIA_ROOT and scan the library." />
      ) : (
        <TableScroll label="Songs">
          <table className={table()}>
            <TableHead
              columns={[
                'Title',
                'Artist',
                { label: 'Album', className: css({ hideBelow: 'md' }) },
                { label: 'Length', numeric: true },
                { label: 'Actions', srOnly: true },
              ]}
            />
            <tbody>
              {list.map((t, i) => (
                <tr key={t.id}>
                  <td className={css({ fontWeight: 'medium' })}>{t.title}</td>
                  <td className={css({ color: 'fg.muted' })}>{t.artist}</td>
                  <td className={css({ color: 'fg.muted', hideBelow: 'md' })}>{t.album}</td>
                  <td className="num">{t.duration ? clock(t.duration) : '–'}</td>
                  <td className={css({ textAlign: 'right' })}>
                    <Button size="sm" variant="ghost" onClick={() => playTracks(list, 'Recently added', i)} aria-label={`Play ${t.title}`}>
                      Play
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  )
}

export function MusicPage() {
  return (
    <div className={stack({ gap: '5' })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3' })}>
        <div>
          <h2 className={pageHeader().title}>Music Management</h2>
          <p className={pageHeader().description}>The server library: what it holds, what arrived last, and a rescan.</p>
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Link to="/library" className={linkButton}>
            Open library
          </Link>
        </div>
      </div>
      <LibraryScanPanel />
      <RecentAlbums />
      <RecentTracks />
      <AdvertsPanel />
      <PodcastsPanel />
      <RadioStationsPanel />
    </div>
  )
}
