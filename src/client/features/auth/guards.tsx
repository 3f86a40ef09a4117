// Route guards: members' pages need a valid session, admin pages the admin flag. They only steer the UI: procedures enforce identity and role.
import { useQuery } from '@tanstack/react-query'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useEffect, useRef, type ReactNode } from 'react'
import { httpStatusOf } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { CenteredSpinner } from '~/client/ui/spinner'
import { toast } from '~/client/ui/toaster'
import { useAuth } from './auth-store'
import { useLogout } from './use-logout'

const SESSION_EXPIRED_LOGOUT_MS = 1000

/**
 * Members only: spinner while the session is checked (a page whose server render checked it shows at once); signed out → /login, which comes back here
 * after signing in (the login page honours only a path on this site); expired → toast, logout
 * after 1 s.
 */
export function UserGuard({ children }: { children: ReactNode }) {
  const auth = useAuth()
  const trpc = useTRPC()
  const navigate = useNavigate()
  const router = useRouter()
  const logout = useLogout()
  const expiredHandled = useRef(false)
  const session = useQuery({ ...trpc.auth.session.queryOptions(), enabled: auth.ready && auth.isAuthenticated, retry: false, staleTime: 60_000 })
  const expired = session.isError && httpStatusOf(session.error) === 401

  useEffect(() => {
    // Read when the guard turns the user away, not subscribed to: the redirect itself moves the
    // location, and following it would wrap the return address in itself again and again.
    if (auth.ready && !auth.isAuthenticated) navigate({ to: '/login', search: { returnUrl: router.state.location.href }, replace: true })
  }, [auth.ready, auth.isAuthenticated, navigate, router])

  useEffect(() => {
    if (!expired || expiredHandled.current) return
    expiredHandled.current = true
    toast({ title: 'Session Expired', description: 'Your session has expired. Please log in again.', type: 'error' })
    const timer = setTimeout(() => logout('/login'), SESSION_EXPIRED_LOGOUT_MS)
    return () => clearTimeout(timer)
  }, [expired, logout])

  // Before start-up (the server render and its hydration) auth is what the session cookie said:
  // the page shows only if its server render already checked the session (a loader put that
  // check in the cache); otherwise the spinner, until the browser has checked.
  if (!auth.isAuthenticated || !session.isSuccess) return <CenteredSpinner label="Checking your session" />
  return <>{children}</>
}

/** Admins only: anyone else goes to /. */
export function AdminGuard({ children }: { children: ReactNode }) {
  const auth = useAuth()
  const navigate = useNavigate()
  const allowed = auth.isAuthenticated && auth.isAdmin
  useEffect(() => {
    if (auth.ready && !allowed) navigate({ to: '/', replace: true })
  }, [auth.ready, allowed, navigate])
  if (!auth.ready || !allowed) return <CenteredSpinner label="Checking your access" />
  return <>{children}</>
}
