// /media/* in dev (`bun run dev`); production answers these in serve.ts before the app.
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use: production answers this path in serve.ts, and a static import would put a
// second copy of the server's code into the page bundle's start-up (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/media/handler')).handleMedia(request)

export const Route = createFileRoute('/media/$')({
  server: { handlers: { GET: handle, HEAD: handle } },
})
