// The member's star ratings of library songs (1–5), the same as an OpenSubsonic app's userRating:
// read once (one small map per member) and shared by every list and menu; setting one updates the
// map at once and the Songs list's rating order after the server has it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { useTRPC } from '~/client/trpc'
import { toast } from '~/client/ui/toaster'

const EMPTY: Record<string, number> = {}

export function useRatings() {
  const auth = useAuth()
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const member = auth.ready && auth.isAuthenticated
  const options = trpc.library.ratings.list.queryOptions(undefined, { enabled: member, staleTime: 60_000 })
  const ratings = useQuery(options).data?.ratings ?? EMPTY
  const mutation = useMutation(trpc.library.ratings.set.mutationOptions())

  /** Rates a song 1–5, or clears its rating with 0. */
  const setRating = useCallback(
    (trackId: string, rating: number) => {
      queryClient.setQueryData(options.queryKey, (old) => {
        const next = { ...(old?.ratings ?? {}) }
        if (rating === 0) delete next[trackId]
        else next[trackId] = rating
        return { ratings: next }
      })
      mutation.mutate(
        { id: trackId, rating },
        {
          onError: () => {
            toast({ title: 'Could not save the rating', type: 'error' })
            void queryClient.invalidateQueries({ queryKey: options.queryKey })
          },
          onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.library.tracks.list.queryKey() }),
        },
      )
    },
    [queryClient, options.queryKey, mutation, trpc],
  )

  return { ratings, setRating, member }
}
