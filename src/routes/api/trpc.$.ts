// tRPC over HTTP at /api/trpc in the dev server; the production front (serve.ts) calls the same
// handler without going through Start.
import { createFileRoute } from '@tanstack/react-router'
import { handleTrpc } from '~/server/trpc/http'

const handle = ({ request }: { request: Request }) => handleTrpc(request)

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
})
