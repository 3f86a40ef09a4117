// tRPC over HTTP at /api/trpc: one handler for the production front (serve.ts, via http/api.ts)
// and the dev server's Start route (src/routes/api/trpc.$.ts). Server faults are recorded for
// the admin console; everything else is tRPC's own answer (a 405 for a method it does not take).
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { recordServerError } from '../services/server-errors'
import { createContext } from './context'
import { appRouterModule, withModule } from '../deferred'

export const TRPC_ENDPOINT = '/api/trpc'

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
