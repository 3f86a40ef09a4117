// /library: the server library for members. The page's code is its own chunk and
// fetches its data itself (no loader: a loader's code would ship in every page's first chunk).
import { createFileRoute } from '@tanstack/react-router'
import { LibraryPage } from '~/client/features/library/library-page'
import { readView } from '~/client/features/library/view'

export const Route = createFileRoute('/_member/library')({
  validateSearch: readView,
  head: () => ({ meta: [{ title: 'Library · Vibes' }] }),
  component: LibraryRoute,
})

function LibraryRoute() {
  const view = Route.useSearch()
  const navigate = Route.useNavigate()
  return <LibraryPage view={view} onView={(next) => navigate({ search: next })} />
}
