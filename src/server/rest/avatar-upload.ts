// PUT /api/user/avatar: a member's new profile picture, the image's bytes as the request body;
// DELETE /api/user/avatar removes it.
// It is the one /api route whose body may be larger than the server's 1 MB limit: the front
// (handed it by start-up.ts) sends it here before that limit, and it applies AVATAR_MAX_BYTES
// itself (decision 076). Identity is
// the caller's bearer token or session cookie (a cookie-only write must carry the XSRF header,
// request-token.ts). Answers use the /api JSON envelope; a refused picture is a 400 naming why.
// The web app reads its own picture through tRPC (profile.avatar), apps through getAvatar.
import { REST_STATUS } from './handler'
import { authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { DomainError, RateLimitedError } from '../errors'
import { AVATAR_MAX_BYTES, removeAvatar, saveAvatar } from '../services/avatars'
import { withLimitedBody } from '../http/body-limit'
import { requestToken } from '../http/request-token'

export const AVATAR_UPLOAD_PATH = '/api/user/avatar'

const envelope = (status: number, error: string, headers: Record<string, string> = {}) =>
  Response.json({ success: false, error }, { status, headers: { 'cache-control': 'no-store', ...headers } })

export async function handleAvatarUpload(request: Request): Promise<Response> {
  if (request.method !== 'PUT' && request.method !== 'DELETE') return envelope(405, 'Use PUT with the image as the body, or DELETE', { allow: 'PUT, DELETE' })
  const token = requestToken(request)
  const user = token ? await authenticate(getDb(), token, config.AUTH_SECRET) : null
  if (!user) return envelope(401, 'Not signed in')
  if (request.method === 'DELETE') {
    removeAvatar(user.id)
    return Response.json({ success: true, data: { avatar: false } }, { headers: { 'cache-control': 'no-store' } })
  }
  return withLimitedBody(
    request,
    async (limited) => {
      try {
        await saveAvatar(user.id, new Uint8Array(await limited.arrayBuffer()))
        return Response.json({ success: true, data: { avatar: true } }, { headers: { 'cache-control': 'no-store' } })
      } catch (error) {
        if (!(error instanceof DomainError)) throw error
        const retry = error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSec) } : undefined
        return envelope(REST_STATUS[error.kind], error.message, retry)
      }
    },
    AVATAR_MAX_BYTES,
  )
}
