// The router: TanStack Query + tRPC in the context, SSR query hydration, the unknown-path
// rule (anything else goes to /), and the request's CSP nonce on every script it renders.
import './shared/zod-config'
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { createRouter, Navigate } from '@tanstack/react-router'
import { createIsomorphicFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query'
import superjson from 'superjson'
import { reportGlobalError } from './client/global-errors'
import { makeTRPCClient, TRPCProvider } from './client/trpc'
import { ErrorScreen } from './client/features/layout/error-screen'
import { routeTree } from './routeTree.gen'
import { requestNonce } from './server/http/security-headers'

// The server made this page's nonce (security-headers.ts); in the browser the router reads it back
// from the csp-nonce meta tag it rendered.
const ssrNonce = createIsomorphicFn()
  .server(() => requestNonce(getRequest()))
  .client(() => undefined)

export function getRouter() {
  const onError = (error: unknown) => {
    if (typeof window !== 'undefined') reportGlobalError(error)
  }
  const queryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: (count, error) => count < 1 && !(error as { data?: unknown }).data },
      dehydrate: { serializeData: superjson.serialize },
      hydrate: { deserializeData: superjson.deserialize },
    },
  })
  const trpcClient = makeTRPCClient()
  const trpc = createTRPCOptionsProxy({ client: trpcClient, queryClient })

  const router = createRouter({
    routeTree,
    context: { queryClient, trpc },
    defaultPreload: 'intent',
    scrollRestoration: true,
    ssr: { nonce: ssrNonce() },
    defaultErrorComponent: ErrorScreen,
    defaultNotFoundComponent: () => <Navigate to="/" replace />,
    // biome-ignore lint/correctness/noComponentHookFactories: the router's Wrap is made once per router, with its clients
    Wrap: (props) => <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} {...props} />,
  })
  setupRouterSsrQueryIntegration({ router, queryClient })
  return router
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof getRouter>
  }
}
