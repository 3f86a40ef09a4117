// The footer counter's page key: 'home' for /, otherwise the path
// without its leading slash. Keys are lowercase (the router matches paths case-insensitively, so
// /About and /about are one page), repeated slashes collapse, and secret path parts (reset tokens)
// are dropped so they never reach the admin's Top Pages table.
export const PAGE_KEY_PATTERN = /^[A-Za-z0-9/_.-]+$/
/** Names separated by single slashes; no empty, "." or ".." segment. */
export const PAGE_KEY_SEGMENTS = /^(?!\.{1,2}(?:\/|$))[^/]+(?:\/(?!\.{1,2}(?:\/|$))[^/]+)*$/
export const PAGE_KEY_MAX = 100

export function pageKey(pathname: string): string {
  const path = pathname
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
  if (!path) return 'home'
  if (path.startsWith('reset-password/')) return 'reset-password'
  // A share link's id is its secret, as a reset token is.
  if (path.startsWith('s/')) return 's'
  return path
}
