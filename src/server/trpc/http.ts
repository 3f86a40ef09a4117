// tRPC over HTTP at /api/trpc: one handler for the production front (serve.ts, through the
// transport below) and the dev server's Start route (src/routes/api/trpc.$.ts). Server faults are
// recorded for the admin console; everything else is tRPC's own answer (a 405 for a method it
// does not take).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { withModule } from '../deferred'
import type { ApiTransport } from '../http/api'
import { recordServerError } from '../services/server-errors'
import { createContext } from './context'
import { appRouterModule } from './router-module'

export const TRPC_ENDPOINT = '/api/trpc'
const TRPC_PREFIX = `${TRPC_ENDPOINT}/`

export function handleTrpc(request: Request): Response | Promise<Response> {
  return withModule(appRouterModule, ({ appRouter }) =>
    fetchRequestHandler({
      endpoint: TRPC_ENDPOINT,
      req: request,
      router: appRouter,
      createContext: ({ req, resHeaders }) => createContext(req, resHeaders),
      onError({ error, ctx, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR' && ctx)
          recordServerError(ctx.db, { method: request.method, path: `${TRPC_ENDPOINT}/${path}`, status: 500, error: error.cause ?? error })
      },
    }),
  )
}

/** A procedure of the app router (`auth.status`); false for any name until the router has loaded. */
export function isProcedure(name: string): boolean {
  const loaded = appRouterModule.now()
  return loaded !== undefined && Object.hasOwn(loaded.appRouter._def.procedures, name)
}

/** /api/trpc for the API front: a procedure is labelled by its name, a batch of several is one
 *  `/api/trpc/:batch`, and a name the router does not have is unknown. */
export const trpcTransport: ApiTransport = {
  owns: (pathname) => pathname === TRPC_ENDPOINT || pathname.startsWith(TRPC_PREFIX),
  handle: (request) => handleTrpc(request),
  routeLabel: (pathname) => {
    if (!pathname.startsWith(TRPC_PREFIX)) return undefined
    const names = pathname.slice(TRPC_PREFIX.length).split(',')
    if (!names.every(isProcedure)) return undefined
    return names.length === 1 ? `${TRPC_PREFIX}${names[0]}` : `${TRPC_PREFIX}:batch`
  },
}
