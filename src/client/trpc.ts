// The isomorphic tRPC client: in-process on the server (SSR calls procedures directly with the
// incoming request's cookies), batched HTTP to /api/trpc in the browser. The server side calls
// the server's own router (trpc/shared-router.ts), so the page bundle carries no copy of it.
import { createIsomorphicFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCLink, unstable_localLink } from '@trpc/client'
import { observable } from '@trpc/server/observable'
import { createTRPCContext } from '@trpc/tanstack-react-query'
import superjson from 'superjson'
import type { AppRouter } from '~/server/trpc/root'
import { type SharedRouter, sharedAppRouter } from '~/server/trpc/shared-router'
import { authHeaders } from './http'

/**
 * superjson, its answers revived in place: each is fresh from the JSON parser, so the deep copy
 * superjson makes first is wasted (a 5,000-song playlist: a tenth of the page's load).
 */
const revivedInPlace = {
  serialize: superjson.serialize,
  deserialize: (payload: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(payload, { inPlace: true }),
}

/** The router and context once loaded (server side only; set by the first SSR client). */
let routerAtHand: SharedRouter | undefined

export const makeTRPCClient = createIsomorphicFn()
  .server(() => {
    const localLink = ({ appRouter, createContext }: SharedRouter) =>
      unstable_localLink<AppRouter>({ router: appRouter, transformer: superjson, createContext: async () => createContext(getRequest()) })
    if (routerAtHand) return createTRPCClient<AppRouter>({ links: [localLink(routerAtHand)] })
    // Without our server (`bun run dev`) the bundle imports its own router: a chunk production never loads.
    const load =
      sharedAppRouter() ??
      (async (): Promise<SharedRouter> => {
        const [{ appRouter }, { createContext }] = await Promise.all([import('~/server/trpc/root'), import('~/server/trpc/context')])
        return { appRouter, createContext }
      })
    const loading = load().then((loaded) => {
      routerAtHand = loaded
      return loaded
    })
    // Calls made before the router is at hand wait for it; a router that fails to load fails them.
    const waiting: TRPCLink<AppRouter> = (runtime) => (call) =>
      observable((observer) => {
        let unsubscribe: (() => void) | undefined
        let stopped = false
        loading.then(
          (loaded) => {
            if (!stopped) unsubscribe = localLink(loaded)(runtime)(call).subscribe(observer).unsubscribe
          },
          (cause: unknown) => observer.error(TRPCClientError.from(cause instanceof Error ? cause : new Error(String(cause)))),
        )
        return () => {
          stopped = true
          unsubscribe?.()
        }
      })
    return createTRPCClient<AppRouter>({ links: [waiting] })
  })
  .client(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: '/api/trpc', transformer: revivedInPlace, headers: authHeaders })],
    }),
  )

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()
