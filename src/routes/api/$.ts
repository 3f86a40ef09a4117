// Every other /api/* path: the REST adapter (unknown paths answer a 404 envelope).
import { createFileRoute } from '@tanstack/react-router'
import { handleRest } from '~/server/rest/handler'

const handle = ({ request }: { request: Request }) => handleRest(request)

export const Route = createFileRoute('/api/$')({
  server: { handlers: { GET: handle, HEAD: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, OPTIONS: handle } },
})
