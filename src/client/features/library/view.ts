// What the /library URL can say (tab, album sort, genre, folder) and the page sizes its loader
// shares with the page. Kept apart from the components: route files import it eagerly, and the
// page's code stays in its own lazy chunk.
import type { AlbumSort } from '~/shared/validators/library'

export const LIBRARY_TABS = ['albums', 'artists', 'genres', 'folders', 'songs'] as const
export type LibraryTab = (typeof LIBRARY_TABS)[number]
export type LibraryView = { tab?: LibraryTab; sort?: AlbumSort; genre?: string; path?: string }

/** The album sorts the URL may name (the API's ALBUM_SORTS, without pulling its schemas in). */
export const VIEW_SORTS = ['name', 'year', 'recent'] as const satisfies readonly AlbumSort[]
export const ALBUM_PAGE = 60

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined => (list.includes(v as T) ? (v as T) : undefined)
const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 2000 ? v : undefined)

/** The view a query string asks for; anything unknown is left out (the defaults apply). */
export function readView(search: Record<string, unknown>): LibraryView {
  const view: LibraryView = {}
  const tab = oneOf(LIBRARY_TABS, search.tab)
  const sort = oneOf(VIEW_SORTS, search.sort)
  const genre = text(search.genre)
  const path = text(search.path)
  if (tab) view.tab = tab
  if (sort) view.sort = sort
  if (genre) view.genre = genre
  if (path) view.path = path
  return view
}

/** The albums query of a view's first page. */
export const firstAlbumsInput = (view: LibraryView) => ({
  sort: view.sort ?? 'name',
  ...(view.genre ? { genre: view.genre } : {}),
  limit: ALBUM_PAGE,
})
