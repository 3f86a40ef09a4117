// /auth/* (sign-in at an outside provider) in dev (`bun run dev`); production answers these in serve.ts before the app.
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use, as /media/$ does: a static import would put the server's code into the page bundle's start-up (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/rest/sign-in')).handleSignIn(request, new URL(request.url))

export const Route = createFileRoute('/auth/$')({
  server: { handlers: { GET: handle, POST: handle } },
})
