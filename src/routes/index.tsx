// Home: the player for everyone (local folders), remote URLs for members, promotions.
import { createFileRoute } from '@tanstack/react-router'
import { PlayerScreen } from '~/client/features/player/player-screen'

export const Route = createFileRoute('/')({
  head: () => ({ meta: [{ title: 'Vibes — Feel the Vibes' }] }),
  // Promotions render on the server so the grid is there at first paint.
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.playlist.promotions.list.queryOptions(undefined, { staleTime: 10 * 60_000 })),
  component: PlayerScreen,
})
