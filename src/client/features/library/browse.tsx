// The Library tabs' contents: the album-art grid (sort by name / year / recently added, one genre),
// artists, genres, the MEDIA_ROOT folder tree and all songs. Long lists come a page at a time
// ("Load more"; every page is its own cached query), songs through the virtual list.
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Suspense, useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { toast } from '~/client/ui/toaster'
import { Icon } from '~/client/ui/icon'
import { css, cx } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { SelectField } from '~/client/ui/select'
import { Spinner } from '~/client/ui/spinner'
import type { LibraryAlbum, LibraryArtist } from '~/shared/library'
import type { AlbumSort, TrackSort } from '~/shared/validators/library'
import { Cover } from './cover'
import { plural } from './format'
import { playTracks } from './play'
import { TrackList } from './track-list'
import { firstAlbumsInput } from './view'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'
import { ellipsis } from '~/client/ui/list-row'

const ARTIST_PAGE = 100
const SONG_PAGE = 200

const SONG_SORT_OPTIONS = [
  { value: 'title', label: 'Title' },
  { value: 'recent', label: 'Recently added' },
  { value: 'rating', label: 'Your rating' },
] as const satisfies readonly { value: TrackSort; label: string }[]

const SORT_OPTIONS = [
  { value: 'name', label: 'Name' },
  { value: 'year', label: 'Year' },
  { value: 'recent', label: 'Recently added' },
] as const

const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(6, minmax(0, 1fr))' },
  gap: { base: '3', md: '5' },
})
const cardLink = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  p: '1.5',
  borderRadius: 'xl',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
})
export const emptyText = css({ color: 'fg.muted', py: '10', textAlign: 'center' })
const listRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  minH: '11',
  px: '3',
  py: '1.5',
  borderRadius: 'md',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
})

export function AlbumGrid({ albums, label }: { albums: readonly LibraryAlbum[]; label: string }) {
  return (
    <ul aria-label={label} className={grid}>
      {albums.map((a) => (
        <li key={a.id}>
          <Link to="/library/albums/$id" params={{ id: a.id }} className={cardLink}>
            <Cover src={a.cover} name={a.name} />
            <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
              <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>{a.name}</span>
              <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                {a.artist}
                {a.year ? ` · ${a.year}` : ''}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

function LoadMore({ shown, total, next, loading, onMore }: { shown: number; total: number; next: string | null; loading: boolean; onMore: () => void }) {
  if (next === null) return null
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: '3', pt: '4' })}>
      <Button variant="outline" size="lg" onClick={onMore} disabled={loading}>
        Load more
      </Button>
      <span className={mutedText()}>
        {shown.toLocaleString('en')} of {total.toLocaleString('en')}
      </span>
    </div>
  )
}

/**
 * Pages after the first, fetched when "Load more" is pressed and kept in order; each asks for the
 * page after the previous one's cursor. (Not useQueries: it would join the query code every page
 * loads, and `/` must not grow.)
 */
function useMore<T>(fetchPage: (cursor: string) => Promise<{ items: T[]; next: string | null }>, firstNext: string | null) {
  const [more, setMore] = useState<T[]>([])
  const [next, setNext] = useState(firstNext)
  const [loading, setLoading] = useState(false)
  const loadMore = async () => {
    if (next === null) return
    setLoading(true)
    try {
      const page = await fetchPage(next)
      setMore((m) => [...m, ...page.items])
      setNext(page.next)
    } catch (error) {
      toast({ title: 'Could not load more', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
    } finally {
      setLoading(false)
    }
  }
  return { more, next, loading, loadMore }
}

export function AlbumsTab({ sort, genre, onSort }: { sort: AlbumSort; genre?: string; onSort: (sort: AlbumSort) => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const input = firstAlbumsInput({ sort, genre })
  const first = useSuspenseQuery(trpc.library.albums.list.queryOptions(input)).data
  const { more, next, loading, loadMore } = useMore(async (cursor) => {
    const page = await queryClient.fetchQuery(trpc.library.albums.list.queryOptions({ ...input, cursor }))
    return { items: page.albums, next: page.next }
  }, first.next)
  const items = [...first.albums, ...more]
  const total = first.total
  return (
    <div className={stack({ gap: '4' })}>
      <div className={css({ display: 'flex', alignItems: 'flex-end', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <p className={mutedText()}>
          {plural(total, 'album')}
          {genre ? ` in ${genre}` : ''}
          {genre && (
            <>
              {' · '}
              <Link to="/library" search={{ tab: 'albums', sort }} className={css({ color: 'accent.default', textDecoration: 'underline' })}>
                all genres
              </Link>
            </>
          )}
        </p>
        <SelectField label="Sort albums by" options={SORT_OPTIONS} value={sort} onValueChange={(v) => onSort(v as AlbumSort)} className={css({ w: '48' })} />
      </div>
      {items.length === 0 ? (
        <p className={emptyText}>No albums yet. An admin can scan the library from the admin console.</p>
      ) : (
        <AlbumGrid albums={items} label="Albums" />
      )}
      <LoadMore shown={items.length} total={total} next={next} loading={loading} onMore={loadMore} />
    </div>
  )
}

export function ArtistList({ artists, label }: { artists: readonly LibraryArtist[]; label: string }) {
  return (
    <ul
      aria-label={label}
      className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '1' })}
    >
      {artists.map((a) => (
        <li key={a.id}>
          <Link to="/library/artists/$id" params={{ id: a.id }} className={listRow}>
            <Cover src={a.cover} name={a.name} round className={css({ w: '10', h: '10', flexShrink: 0 })} />
            <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
              <span className={ellipsis}>{a.name}</span>
              <span className={mutedText({ size: 'xs' })}>
                {plural(a.albumCount, 'album')} · {plural(a.songCount, 'song')}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

export function ArtistsTab() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const first = useSuspenseQuery(trpc.library.artists.list.queryOptions({ limit: ARTIST_PAGE })).data
  const { more, next, loading, loadMore } = useMore(async (cursor) => {
    const page = await queryClient.fetchQuery(trpc.library.artists.list.queryOptions({ cursor, limit: ARTIST_PAGE }))
    return { items: page.artists, next: page.next }
  }, first.next)
  const items = [...first.artists, ...more]
  const total = first.total
  if (items.length === 0) return <p className={emptyText}>No artists yet.</p>
  return (
    <div>
      <ArtistList artists={items} label="Artists" />
      <LoadMore shown={items.length} total={total} next={next} loading={loading} onMore={loadMore} />
    </div>
  )
}

export function GenresTab() {
  const trpc = useTRPC()
  const { genres } = useSuspenseQuery(trpc.library.genres.list.queryOptions()).data
  if (genres.length === 0) return <p className={emptyText}>No genres yet.</p>
  return (
    <ul
      aria-label="Genres"
      className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }, gap: '1' })}
    >
      {genres.map((g) => (
        <li key={g.name}>
          <Link to="/library" search={{ tab: 'albums', genre: g.name }} className={listRow}>
            <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
              <span className={ellipsis}>{g.name}</span>
              <span className={mutedText({ size: 'xs' })}>
                {plural(g.albumCount, 'album')} · {plural(g.songCount, 'song')}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** All songs, by title, recently added or the member's rating; each sort pages on its own. */
export function SongsTab() {
  const [sort, setSort] = useState<TrackSort>('title')
  return (
    <div className={stack({ gap: '4' })}>
      <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
        <SelectField
          label="Sort songs by"
          options={SONG_SORT_OPTIONS}
          value={sort}
          onValueChange={(v) => setSort(v as TrackSort)}
          className={css({ w: '48' })}
        />
      </div>
      <Suspense fallback={<TabSpinner />}>
        <SongPages key={sort} sort={sort} />
      </Suspense>
    </div>
  )
}

function SongPages({ sort }: { sort: TrackSort }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const first = useSuspenseQuery(trpc.library.tracks.list.queryOptions({ sort, limit: SONG_PAGE })).data
  const { more, next, loading, loadMore } = useMore(async (cursor) => {
    const page = await queryClient.fetchQuery(trpc.library.tracks.list.queryOptions({ sort, cursor, limit: SONG_PAGE }))
    return { items: page.tracks, next: page.next }
  }, first.next)
  const items = [...first.tracks, ...more]
  const total = first.total
  if (items.length === 0) return <p className={emptyText}>No songs yet.</p>
  return (
    <div>
      <TrackList tracks={items} label="Songs" listLabel="Songs" />
      <LoadMore shown={items.length} total={total} next={next} loading={loading} onMore={loadMore} />
    </div>
  )
}

export function FoldersTab({ path, onOpen }: { path: string; onOpen: (path: string) => void }) {
  const trpc = useTRPC()
  const listing = useSuspenseQuery(trpc.library.folder.queryOptions({ path })).data
  const parts = listing.path.split('/').filter(Boolean)
  return (
    <div className={stack({ gap: '4' })}>
      <nav aria-label="Folder path" className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '1', fontSize: 'sm' })}>
        {[{ name: 'Library', path: '/' }, ...parts.map((name, i) => ({ name, path: `/${parts.slice(0, i + 1).join('/')}` }))].map((c, i, all) => (
          <span key={c.path} className={css({ display: 'inline-flex', alignItems: 'center', gap: '1' })}>
            {i > 0 && <span aria-hidden>/</span>}
            {i === all.length - 1 ? (
              <span aria-current="location" className={css({ fontWeight: 'semibold', px: '2' })}>
                {c.name}
              </span>
            ) : (
              <button
                type="button"
                className={css({ minH: '11', px: '2', color: 'accent.default', cursor: 'pointer', textDecoration: 'underline' })}
                onClick={() => onOpen(c.path)}
              >
                {c.name}
              </button>
            )}
          </span>
        ))}
      </nav>
      {listing.folders.length > 0 && (
        <ul
          aria-label="Folders"
          className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '1' })}
        >
          {listing.folders.map((f) => (
            <li key={f.path}>
              <button type="button" className={cx(listRow, css({ w: 'full', textAlign: 'left', cursor: 'pointer' }))} onClick={() => onOpen(f.path)}>
                <Icon name="folder" size={16} className={css({ flexShrink: 0, color: 'accent.text' })} />
                <span className={ellipsis}>{f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {listing.tracks.length > 0 && (
        <div className={stack({ gap: '2' })}>
          <div>
            <Button onClick={() => playTracks(listing.tracks, parts.at(-1) ?? 'Library')}>Play folder</Button>
          </div>
          <TrackList tracks={listing.tracks} label={parts.at(-1) ?? 'Library'} listLabel="Tracks in this folder" />
        </div>
      )}
      {listing.folders.length === 0 && listing.tracks.length === 0 && <p className={emptyText}>Nothing here yet.</p>}
    </div>
  )
}

export function TabSpinner() {
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: '10' })}>
      <Spinner label="Loading the library" />
    </div>
  )
}
