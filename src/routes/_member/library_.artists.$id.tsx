// /library/artists/$id: one artist of the server library (issue 11).
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { ArtistPage } from '~/client/features/library/artist-page'
import { TabSpinner } from '~/client/features/library/browse'

export const Route = createFileRoute('/_member/library_/artists/$id')({
  head: () => ({ meta: [{ title: 'Artist · Vibes' }] }),
  component: function ArtistRoute() {
    const { id } = Route.useParams()
    return (
      <Suspense fallback={<TabSpinner />}>
        <ArtistPage id={id} />
      </Suspense>
    )
  },
})
