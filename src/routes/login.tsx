// /login: e-mail and password; admins land on /admin, everyone else on /.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { AccountForm, AuthCard, linkClass } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { LoginSchema } from '~/shared/validators'

/** A return address is honoured only as a path on this site (never `//host` or a full URL). */
const safeReturnUrl = (v: unknown) => (typeof v === 'string' && /^\/(?![/\\])/.test(v) && v.length <= 500 ? v : undefined)

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): { returnUrl?: string } => {
    const returnUrl = safeReturnUrl(search.returnUrl)
    return returnUrl ? { returnUrl } : {}
  },
  head: () => ({ meta: [{ title: 'Login · Vibes' }] }),
  component: LoginPage,
})

function LoginPage() {
  const trpc = useTRPC()
  const navigate = useNavigate()
  // Checked again here: the router passes unvalidated search keys through from the root route.
  const returnUrl = safeReturnUrl(Route.useSearch().returnUrl)
  const form = useForm(LoginSchema, { email: '', password: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: ({ token, user }) => {
        authStore.login(token, user)
        // Where the user came from (e.g. the stats page's "Log In"), else admins to /admin, others to /.
        if (returnUrl) navigate({ href: returnUrl })
        else navigate({ to: user.isAdmin ? '/admin' : '/' })
      },
      onError: (error) => setFailure(errorMessage(error, 'Login failed. Please check your credentials.')),
    }),
  )

  return (
    <AuthCard
      title="Welcome back"
      subtitle="Log in to your Vibes account"
      footer={
        <>
          <Link to="/forgot-password" className={linkClass}>
            Forgot your password?
          </Link>
          <span>
            Don't have an account?{' '}
            <Link to="/register" className={linkClass}>
              Register
            </Link>
          </span>
        </>
      }
    >
      <AccountForm
        form={form}
        failure={failure}
        onValid={() => {
          setFailure(null)
          login.mutate(form.parsed())
        }}
      >
        <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" revealable {...form.field('password')} />
        <Button type="submit" size="lg" block disabled={!form.isValid || login.isPending}>
          {login.isPending ? 'Logging in...' : 'Login'}
        </Button>
      </AccountForm>
    </AuthCard>
  )
}
