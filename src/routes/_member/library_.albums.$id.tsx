// /library/albums/$id: one album of the server library.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { AlbumPage } from '~/client/features/library/album-page'
import { TabSpinner } from '~/client/features/library/browse'
import { libraryErrorFor } from '~/client/features/library/not-found'

export const Route = createFileRoute('/_member/library_/albums/$id')({
  head: () => ({ meta: [{ title: 'Album · Vibes' }] }),
  errorComponent: libraryErrorFor('Album'),
  component: function AlbumRoute() {
    const { id } = Route.useParams()
    return (
      <Suspense fallback={<TabSpinner />}>
        <AlbumPage id={id} />
      </Suspense>
    )
  },
})
