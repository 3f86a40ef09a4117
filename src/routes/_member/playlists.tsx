// /playlists: the member's playlists and the public ones of other members.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { TabSpinner } from '~/client/features/library/browse'
import { PlaylistsPage } from '~/client/features/playlists/playlists-page'

export const Route = createFileRoute('/_member/playlists')({
  head: () => ({ meta: [{ title: 'Playlists · Vibes' }] }),
  component: function PlaylistsRoute() {
    return (
      <Suspense fallback={<TabSpinner />}>
        <PlaylistsPage />
      </Suspense>
    )
  },
})
