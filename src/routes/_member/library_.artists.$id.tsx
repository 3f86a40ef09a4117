// /library/artists/$id: one artist of the server library (issue 11).
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { ArtistPage } from '~/client/features/library/artist-page'
import { TabSpinner } from '~/client/features/library/browse'

export const Route = createFileRoute('/_member/library_/artists/$id')({
  loader: async ({ context, params }) => {
    if (typeof window === 'undefined' || !authStore.get().isAuthenticated) return
    await context.queryClient.prefetchQuery(context.trpc.library.artists.byId.queryOptions({ id: params.id }))
  },
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
