// GET /api/radio/stream/<station id> in the dev server (production answers it in serve.ts): a
// station's live stream through the server, radio/stream.ts.
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use, as /api/$ does (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/radio/stream')).handleRadioStream(request)

export const Route = createFileRoute('/api/radio/stream/$id')({
  server: { handlers: { GET: handle } },
})
