// /login: e-mail and password; admins land on /admin, everyone else on /.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { AuthCard, formClass, formError, linkClass } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { LoginSchema } from '~/shared/validators'

export const Route = createFileRoute('/login')({
  head: () => ({ meta: [{ title: 'Login · Vibes' }] }),
  component: LoginPage,
})

function LoginPage() {
  const trpc = useTRPC()
  const navigate = useNavigate()
  const form = useForm(LoginSchema, { email: '', password: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: ({ token, user }) => {
        authStore.login(token, user)
        navigate({ to: user.isAdmin ? '/admin' : '/' })
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
      <form
        noValidate
        className={formClass}
        onSubmit={(e) => {
          e.preventDefault()
          setFailure(null)
          if (!form.isValid) return form.touchAll()
          login.mutate(form.parsed())
        }}
      >
        {failure && (
          <p role="alert" className={formError}>
            {failure}
          </p>
        )}
        <TextField label="Email" type="email" name="email" autoComplete="email" value={form.values.email} onValueChange={(v) => form.set('email', v)} onBlur={() => form.touch('email')} error={form.error('email')} />
        <TextField label="Password" type="password" name="password" autoComplete="current-password" revealable value={form.values.password} onValueChange={(v) => form.set('password', v)} onBlur={() => form.touch('password')} error={form.error('password')} />
        <Button type="submit" size="lg" block disabled={!form.isValid || login.isPending}>
          {login.isPending ? 'Logging in...' : 'Login'}
        </Button>
      </form>
    </AuthCard>
  )
}
