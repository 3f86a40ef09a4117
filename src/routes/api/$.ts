// Every other /api/* path: the REST adapter (unknown paths answer a 404 envelope).
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use: production answers this path in serve.ts, and a static import would put a
// second copy of the server's code into the page bundle's start-up (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/rest/handler')).handleRest(request)

export const Route = createFileRoute('/api/$')({
  server: { handlers: { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle } },
})
