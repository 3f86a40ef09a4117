// Global error handling: no response, 429 and 5xx each get their toast; 429 also
// raises the top banner for 10 s.
import { TRPCClientError } from '@trpc/client'
import { DOWNLOADS_PAGE } from './pwa/sw-rules'
import { toast } from './ui/toaster'

export const RATE_LIMIT_SENTENCE = "You're making requests too quickly. Please slow down."
export const RATE_LIMIT_EVENT = 'vibes:rate-limited'

export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) return (error.data as { httpStatus?: number } | undefined)?.httpStatus
  return (error as { status?: number } | undefined)?.status
}

export function isNetworkError(error: unknown): boolean {
  if (error instanceof TRPCClientError) return !error.data && error.cause instanceof TypeError
  return error instanceof TypeError
}

let toldOffline = false

/**
 * With the device offline every call fails: one "You are offline" for the whole spell, not a toast
 * per call, and none on the downloads page, which says so itself.
 */
function reportOffline() {
  if (toldOffline || location.pathname === DOWNLOADS_PAGE) return
  toldOffline = true
  window.addEventListener('online', () => (toldOffline = false), { once: true })
  toast({ title: 'You are offline', description: 'Downloaded music still plays; the rest comes back with the network.', type: 'info' })
}

/** Toasts for failures every screen shares; returns true when it handled the error. */
export function reportGlobalError(error: unknown): boolean {
  if (isNetworkError(error)) {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      reportOffline()
      return true
    }
    toast({ title: 'Network Error', description: 'Unable to connect to the server. Please check your internet connection.', type: 'error' })
    return true
  }
  const status = httpStatusOf(error)
  if (status === 429) {
    toast({ title: 'Rate Limit Exceeded', description: RATE_LIMIT_SENTENCE, type: 'warning' })
    window.dispatchEvent(new CustomEvent(RATE_LIMIT_EVENT))
    return true
  }
  if (status && status >= 500) {
    toast({ title: 'Server Error', description: "Something went wrong on our end. We're working to fix it.", type: 'error' })
    return true
  }
  return false
}

/** The message a screen shows for a failed call: the server's, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isNetworkError(error)) return 'No response from server. Please check your connection.'
  const message = (error as { message?: string } | undefined)?.message
  return message && !message.startsWith('{') ? message : fallback
}
