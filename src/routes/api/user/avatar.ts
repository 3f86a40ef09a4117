// PUT/DELETE /api/user/avatar in the dev server (production answers it in serve.ts, ahead of the
// 1 MB body limit): a member's profile picture, rest/avatar-upload.ts.
import { createFileRoute } from '@tanstack/react-router'

// Imported on first use, as /api/$ does (decision 043).
const handle = async ({ request }: { request: Request }) => (await import('~/server/rest/avatar-upload')).handleAvatarUpload(request)

export const Route = createFileRoute('/api/user/avatar')({
  server: { handlers: { GET: handle, PUT: handle, DELETE: handle } },
})
