// /podcasts: the member's podcasts and the form to follow a feed.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { TabSpinner } from '~/client/features/library/browse'
import { PodcastsPage } from '~/client/features/podcasts/podcasts-page'

export const Route = createFileRoute('/_member/podcasts')({
  head: () => ({ meta: [{ title: 'Podcasts · Vibes' }] }),
  component: function PodcastsRoute() {
    return (
      <Suspense fallback={<TabSpinner />}>
        <PodcastsPage />
      </Suspense>
    )
  },
})
