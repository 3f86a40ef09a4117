// The isomorphic tRPC client: in-process on the server (SSR calls procedures directly with the
// incoming request's cookies), batched HTTP to /api/trpc in the browser.
import { createIsomorphicFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { createTRPCClient, httpBatchLink, unstable_localLink } from '@trpc/client'
import { createTRPCContext } from '@trpc/tanstack-react-query'
import superjson from 'superjson'
import type { AppRouter } from '~/server/trpc/root'
import { appRouter } from '~/server/trpc/root'
import { createContext } from '~/server/trpc/context'
import { authHeaders } from './http'

export const makeTRPCClient = createIsomorphicFn()
  .server(() =>
    createTRPCClient<AppRouter>({
      links: [unstable_localLink({ router: appRouter, transformer: superjson, createContext: async () => createContext(getRequest()) })],
    }),
  )
  .client(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, headers: authHeaders })],
    }),
  )

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()
