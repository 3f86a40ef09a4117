// /library/albums/$id: one album of the server library (issue 11).
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { AlbumPage } from '~/client/features/library/album-page'
import { TabSpinner } from '~/client/features/library/browse'

export const Route = createFileRoute('/_member/library_/albums/$id')({
  loader: async ({ context, params }) => {
    if (typeof window === 'undefined' || !authStore.get().isAuthenticated) return
    await context.queryClient.prefetchQuery(context.trpc.library.albums.byId.queryOptions({ id: params.id }))
  },
  head: () => ({ meta: [{ title: 'Album · Vibes' }] }),
  component: function AlbumRoute() {
    const { id } = Route.useParams()
    return (
      <Suspense fallback={<TabSpinner />}>
        <AlbumPage id={id} />
      </Suspense>
    )
  },
})
