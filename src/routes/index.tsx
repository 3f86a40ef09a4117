// Home: the player for everyone (local folders), remote URLs for members, promotions.
// `/?fid=<folder>` is the playlist-by-folder screen's other address: a signed-in member is taken
// to /player?fid=<folder> (one screen plays folders); a visitor just gets the home player.
import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { PlayerScreen } from '~/client/features/player/player-screen'

export const Route = createFileRoute('/')({
  validateSearch: (search: Record<string, unknown>): { fid?: string } => (typeof search.fid === 'string' && search.fid ? { fid: search.fid } : {}),
  head: () => ({ meta: [{ title: 'Vibes — Feel the Vibes' }] }),
  // Promotions render on the server so the grid is there at first paint.
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.playlist.promotions.list.queryOptions(undefined, { staleTime: 10 * 60_000 })),
  component: HomePage,
})

function HomePage() {
  const { fid } = Route.useSearch()
  const auth = useAuth()
  const navigate = useNavigate()
  useEffect(() => {
    if (fid && auth.ready && auth.isAuthenticated) void navigate({ to: '/player', search: { fid }, replace: true })
  }, [fid, auth.ready, auth.isAuthenticated, navigate])
  return <PlayerScreen />
}
