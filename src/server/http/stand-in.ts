// The stand-in user of a member page template (member-page-cache.ts): serve.ts renders a page as a
// made-up user whose every field is a random marker, so the template can be cut wherever the user
// shows, with no chance that a real member's name also matches the page's own text. The stand-in
// travels to the SSR app's context (trpc/context.ts) in a request header that carries a random key
// of this process: a client cannot send one that counts, whatever it puts in that header.
import type { AuthUser } from '../auth/sessions'

export const STAND_IN_HEADER = 'x-vibes-stand-in'

const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')

/** Makes this request render as `user` (replacing any copy of the header a client sent). */
export function setStandIn(request: Request, user: AuthUser) {
  // base64url: a header value is ASCII, and the stand-in's e-mail is not.
  const json = JSON.stringify({ ...user, createdAt: user.createdAt.getTime() })
  request.headers.set(STAND_IN_HEADER, `${key} ${Buffer.from(json).toString('base64url')}`)
}

/** The stand-in user serve.ts put on this request, or null (none, or not from this process). */
export function standInOf(request: Request): AuthUser | null {
  const value = request.headers.get(STAND_IN_HEADER)
  if (!value?.startsWith(`${key} `)) return null
  const user = JSON.parse(Buffer.from(value.slice(key.length + 1), 'base64url').toString()) as Omit<AuthUser, 'createdAt'> & { createdAt: number }
  return { ...user, createdAt: new Date(user.createdAt) }
}
