// The folders' expired-token flow: an error saying the token is invalid or
// expired shows "Authentication Error", then after 2 s logs out and goes to /login; meanwhile
// the page shows "Redirecting to login page...".
import { useCallback, useSyncExternalStore } from 'react'
import { useLogout } from '~/client/features/auth/use-logout'
import { toast } from '~/client/ui/toaster'

export const AUTH_EXPIRED_TEXT = 'Authentication token is invalid or expired'
const REDIRECT_DELAY_MS = 2000

let redirecting = false
const listeners = new Set<() => void>()
const setRedirecting = (v: boolean) => {
  redirecting = v
  for (const l of listeners) l()
}

export const isAuthExpiredError = (error: unknown) => String((error as { message?: string } | undefined)?.message ?? '').includes(AUTH_EXPIRED_TEXT)

export function useRedirectingToLogin() {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => redirecting,
    () => false,
  )
}

/** Returns a handler: true when it took care of the error. */
export function useFolderAuthError() {
  const logout = useLogout()
  return useCallback(
    (error: unknown) => {
      if (!isAuthExpiredError(error)) return false
      if (redirecting) return true
      setRedirecting(true)
      toast({ title: 'Authentication Error', description: 'Your session has expired. Please log in again.', type: 'error' })
      setTimeout(() => void logout('/login').finally(() => setRedirecting(false)), REDIRECT_DELAY_MS)
      return true
    },
    [logout],
  )
}
