// The footer counter's page key (spec §2 "Navigation and footer"): 'home' for /, otherwise the path
// without its leading slash. Secret path parts (reset tokens) are dropped so they never reach the
// admin's Top Pages table.
export const PAGE_KEY_PATTERN = /^[A-Za-z0-9/_.-]+$/
export const PAGE_KEY_MAX = 100

export function pageKey(pathname: string): string {
  const path = pathname.replace(/^\/+/, '').replace(/\/+$/, '')
  if (!path) return 'home'
  if (path.startsWith('reset-password/')) return 'reset-password'
  return path
}
