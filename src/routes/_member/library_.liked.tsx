// /library/liked: the member's liked songs (the list apps see as starred).
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { TabSpinner } from '~/client/features/library/browse'
import { LikedPage } from '~/client/features/library/liked-page'

export const Route = createFileRoute('/_member/library_/liked')({
  head: () => ({ meta: [{ title: 'Liked songs · Vibes' }] }),
  component: function LikedRoute() {
    return (
      <Suspense fallback={<TabSpinner />}>
        <LikedPage />
      </Suspense>
    )
  },
})
