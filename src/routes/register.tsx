// /register: username, e-mail, password and its confirmation; on success, to /login.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { AccountForm, AuthCard, linkClass } from '~/client/features/auth/auth-card'
import { PasswordStrength, useCommonPassword } from '~/client/features/auth/password-strength'
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
  const common = useCommonPassword()
  const signup = useMutation(
    trpc.auth.signup.mutationOptions({
      onSuccess: () => {
        toast({ title: 'Account created', description: 'You can now log in.', type: 'success' })
        navigate({ to: '/login' })
      },
      onError: (error, input) => {
        setFailure(errorMessage(error, 'Registration failed. Please try again.'))
        common.note(error, input.password)
      },
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
      <AccountForm
        form={form}
        failure={failure}
        onValid={() => {
          setFailure(null)
          const { confirmPassword: _, ...input } = form.parsed()
          signup.mutate(input)
        }}
      >
        <TextField label="Username" autoComplete="username" {...form.field('username')} />
        <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
        <TextField label="Password" type={type} autoComplete="new-password" {...form.field('password')} />
        <PasswordStrength password={form.values.password} refused={common.refused} />
        <TextField label="Confirm Password" type={type} autoComplete="new-password" {...form.field('confirmPassword')} />
        <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', color: 'fg.muted', cursor: 'pointer' })}>
          <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} />
          Show passwords
        </label>
        <Button type="submit" size="lg" block disabled={!form.isValid || signup.isPending}>
          {signup.isPending ? 'Creating account...' : 'Create Account'}
        </Button>
      </AccountForm>
    </AuthCard>
  )
}
