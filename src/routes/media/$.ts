// /media/* in dev (`bun run dev`); production answers these in serve.ts before the app.
import { createFileRoute } from '@tanstack/react-router'
import { handleMedia } from '~/server/media/handler'

const handle = ({ request }: { request: Request }) => handleMedia(request)

export const Route = createFileRoute('/media/$')({
  server: { handlers: { GET: handle, HEAD: handle } },
})
