// The analytics calls as the screens make them. Each answer is kept 5 minutes: revisiting a tab or a period within that time reads the
// kept copy; a forced refresh (Refresh All, Retry) always asks the server.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '~/client/trpc'
import { PLAYLIST_LIMIT, USER_BEHAVIOR_LIMIT, type AnalyticsDays } from '~/shared/validators/analytics'

export const ANALYTICS_CACHE_MS = 5 * 60_000
const options = { staleTime: ANALYTICS_CACHE_MS, gcTime: 2 * ANALYTICS_CACHE_MS, refetchOnWindowFocus: false }

export function useOverview(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.listeningOverview.queryOptions({ days }, options))
}
export function useUserBehavior(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.userListeningBehavior.queryOptions({ days, limit: USER_BEHAVIOR_LIMIT }, options))
}
export function usePatterns(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.listeningPatterns.queryOptions({ days }, options))
}
export function useGeographic(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.geographicListening.queryOptions({ days }, options))
}
export function usePlaylists(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.playlistAnalytics.queryOptions({ days, limit: PLAYLIST_LIMIT }, options))
}
export function useEngagement(days: AnalyticsDays) {
  const trpc = useTRPC()
  return useQuery(trpc.analytics.userEngagement.queryOptions({ days }, options))
}

/** Forces every given query to ask the server now (ignores the 5-minute copy). */
export function refetchAll(queries: readonly { refetch: () => Promise<unknown> }[]) {
  for (const q of queries) void q.refetch()
}
