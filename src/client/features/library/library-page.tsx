// /library: the member's view of the server library (its search box is the top
// bar's, on every page): first the Liked songs entry (its own page, /library/liked), then tabs for
// Albums, Artists, Genres, Folders and Songs. The tab, the album sort, the genre and the
// open folder live in the URL, so Back and a shared link land on the same view.
import { Link } from '@tanstack/react-router'
import { type ReactNode, Suspense } from 'react'
import { css } from 'styled-system/css'
import { Tabs } from '~/client/ui/tabs'
import { AlbumsTab, ArtistsTab, FoldersTab, GenresTab, SongsTab, TabSpinner } from './browse'
import { LikedTile } from './liked-page'
import type { LibraryTab, LibraryView } from './view'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

export function LibraryPage({ view, onView }: { view: LibraryView; onView: (view: LibraryView) => void }) {
  const tab = view.tab ?? 'albums'
  const sort = view.sort ?? 'name'
  const lazy = (node: ReactNode) => <Suspense fallback={<TabSpinner />}>{node}</Suspense>
  return (
    <section className={stack({ gap: '6' })}>
      <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Library</h1>
      <Link
        to="/library/liked"
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '4',
          p: '3',
          w: { base: 'full', sm: '80' },
          borderRadius: 'xl',
          borderWidth: '1px',
          borderColor: 'border.default',
          bg: 'bg.surface',
          _hover: { bg: 'bg.subtle' },
        })}
      >
        <LikedTile size="sm" />
        <span className={css({ display: 'flex', flexDirection: 'column' })}>
          <span className={css({ fontWeight: 'semibold' })}>Liked songs</span>
          <span className={mutedText({ size: 'xs' })}>Every song you like, newest first</span>
        </span>
      </Link>
      <Tabs
        label="Library"
        value={tab}
        onValueChange={(v) => onView({ ...view, tab: v as LibraryTab })}
        items={[
          {
            value: 'albums',
            label: 'Albums',
            content: lazy(<AlbumsTab key={`${sort}|${view.genre ?? ''}`} sort={sort} genre={view.genre} onSort={(s) => onView({ ...view, sort: s })} />),
          },
          { value: 'artists', label: 'Artists', content: lazy(<ArtistsTab />) },
          { value: 'genres', label: 'Genres', content: lazy(<GenresTab />) },
          {
            value: 'folders',
            label: 'Folders',
            content: lazy(<FoldersTab path={view.path ?? '/'} onOpen={(path) => onView({ ...view, tab: 'folders', path })} />),
          },
          { value: 'songs', label: 'Songs', content: lazy(<SongsTab />) },
        ]}
      />
    </section>
  )
}
