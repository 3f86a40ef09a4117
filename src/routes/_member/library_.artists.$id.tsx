// /library/artists/$id: one artist of the server library.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { ArtistPage } from '~/client/features/library/artist-page'
import { TabSpinner } from '~/client/features/library/browse'
import { libraryErrorFor } from '~/client/features/library/not-found'

export const Route = createFileRoute('/_member/library_/artists/$id')({
  head: () => ({ meta: [{ title: 'Artist · Vibes' }] }),
  errorComponent: libraryErrorFor('Artist'),
  component: function ArtistRoute() {
    const { id } = Route.useParams()
    return (
      <Suspense fallback={<TabSpinner />}>
        <ArtistPage id={id} />
      </Suspense>
    )
  },
})
