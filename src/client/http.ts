// Headers every call from the browser carries: the bearer token and the XSRF double-submit value.
import { authStore } from './features/auth/auth-store'

export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const token = authStore.get().token
  if (token) headers.authorization = `Bearer ${token}`
  const xsrf = typeof document === 'undefined' ? null : /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1]
  if (xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf)
  return headers
}
