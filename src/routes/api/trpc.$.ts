// tRPC over HTTP at /api/trpc.
import { createFileRoute } from '@tanstack/react-router'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import { recordServerError } from '~/server/services/server-errors'
import { createContext } from '~/server/trpc/context'
import { appRouter } from '~/server/trpc/root'

function handle({ request }: { request: Request }) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: ({ req, resHeaders }) => createContext(req, resHeaders),
    onError({ error, ctx, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR' && ctx)
        recordServerError(ctx.db, { method: request.method, path: `/api/trpc/${path}`, status: 500, error: error.cause ?? error })
    },
  })
}

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
})
