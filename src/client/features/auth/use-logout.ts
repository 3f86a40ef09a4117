// Logout: end the server session (best effort), clear the client state, go home.
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { useTRPCClient } from '~/client/trpc'
import { authStore } from './auth-store'

export function useLogout() {
  const client = useTRPCClient()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useCallback(
    async (to: string = '/') => {
      await client.auth.logout.mutate().catch(() => {})
      authStore.clear()
      queryClient.clear()
      await navigate({ to })
    },
    [client, queryClient, navigate],
  )
}
