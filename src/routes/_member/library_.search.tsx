// /library/search?q=: all that the library search finds.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { TabSpinner } from '~/client/features/library/browse'
import { SearchPage } from '~/client/features/library/search-page'

const query = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 200) : '')

export const Route = createFileRoute('/_member/library_/search')({
  validateSearch: (search: Record<string, unknown>): { q?: string } => (query(search.q) ? { q: query(search.q) } : {}),
  head: () => ({ meta: [{ title: 'Search · Vibes' }] }),
  component: function SearchRoute() {
    const { q } = Route.useSearch()
    if (!q) return <p>Type in the search box at the top to search the library.</p>
    return (
      <Suspense fallback={<TabSpinner />}>
        <SearchPage key={q} q={q} />
      </Suspense>
    )
  },
})
