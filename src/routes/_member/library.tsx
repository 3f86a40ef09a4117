// /library: the server library for members (issue 11). The page's code is its own chunk; the
// loader fetches the first view's data in the browser (the member guard decides who gets it, and
// the server render shows the guard's spinner, so nothing is fetched there).
import { createFileRoute } from '@tanstack/react-router'
import { authStore } from '~/client/features/auth/auth-store'
import { LibraryPage } from '~/client/features/library/library-page'
import { firstAlbumsInput, readView } from '~/client/features/library/view'

export const Route = createFileRoute('/_member/library')({
  validateSearch: readView,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    if (typeof window === 'undefined' || !authStore.get().isAuthenticated) return
    if ((deps.tab ?? 'albums') !== 'albums') return
    await context.queryClient.prefetchQuery(context.trpc.library.albums.list.queryOptions(firstAlbumsInput(deps)))
  },
  head: () => ({ meta: [{ title: 'Library · Vibes' }] }),
  component: LibraryRoute,
})

function LibraryRoute() {
  const view = Route.useSearch()
  const navigate = Route.useNavigate()
  return <LibraryPage view={view} onView={(next) => navigate({ search: next })} />
}
