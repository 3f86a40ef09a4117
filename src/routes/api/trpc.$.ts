// tRPC over HTTP at /api/trpc in the dev server; the production front (serve.ts) calls the same
// handler without going through Start.
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use: production answers this path in serve.ts, and a static import would put a
// second copy of the server's code into the page bundle's start-up (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/trpc/http')).handleTrpc(request)

export const Route = createFileRoute('/api/trpc/$')({
  server: { handlers: { GET: handle, POST: handle } },
})
