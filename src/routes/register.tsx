// /register: username, e-mail, password and its confirmation; on success, to /login.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { AuthCard, formClass, formError, linkClass } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { RegisterFormSchema } from '~/shared/validators'

export const Route = createFileRoute('/register')({
  head: () => ({ meta: [{ title: 'Register · Vibes' }] }),
  component: RegisterPage,
})

function RegisterPage() {
  const trpc = useTRPC()
  const navigate = useNavigate()
  const form = useForm(RegisterFormSchema, { username: '', email: '', password: '', confirmPassword: '' })
  const [show, setShow] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const signup = useMutation(
    trpc.auth.signup.mutationOptions({
      onSuccess: () => {
        toast({ title: 'Account created', description: 'You can now log in.', type: 'success' })
        navigate({ to: '/login' })
      },
      onError: (error) => setFailure(errorMessage(error, 'Registration failed. Please try again.')),
    }),
  )
  const type = show ? 'text' : 'password'

  return (
    <AuthCard
      title="Create your account"
      subtitle="Join Vibes to stream your folders anywhere"
      footer={
        <span>
          Already have an account?{' '}
          <Link to="/login" className={linkClass}>
            Login
          </Link>
        </span>
      }
    >
      <form
        noValidate
        className={formClass}
        onSubmit={(e) => {
          e.preventDefault()
          setFailure(null)
          if (!form.isValid) return form.touchAll()
          const { confirmPassword: _, ...input } = form.parsed()
          signup.mutate(input)
        }}
      >
        {failure && (
          <p role="alert" className={formError}>
            {failure}
          </p>
        )}
        <TextField label="Username" name="username" autoComplete="username" value={form.values.username} onValueChange={(v) => form.set('username', v)} onBlur={() => form.touch('username')} error={form.error('username')} />
        <TextField label="Email" type="email" name="email" autoComplete="email" value={form.values.email} onValueChange={(v) => form.set('email', v)} onBlur={() => form.touch('email')} error={form.error('email')} />
        <TextField label="Password" type={type} name="password" autoComplete="new-password" value={form.values.password} onValueChange={(v) => form.set('password', v)} onBlur={() => form.touch('password')} error={form.error('password')} />
        <TextField label="Confirm Password" type={type} name="confirmPassword" autoComplete="new-password" value={form.values.confirmPassword} onValueChange={(v) => form.set('confirmPassword', v)} onBlur={() => form.touch('confirmPassword')} error={form.error('confirmPassword')} />
        <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', color: 'fg.muted', cursor: 'pointer' })}>
          <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
          Show passwords
        </label>
        <Button type="submit" size="lg" block disabled={!form.isValid || signup.isPending}>
          {signup.isPending ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthCard>
  )
}
