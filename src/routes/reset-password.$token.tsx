// /reset-password/{token}: a new password and its confirmation; to /login 3 s after success.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { AccountForm, AuthCard, formSuccess, linkClass } from '~/client/features/auth/auth-card'
import { PasswordStrength, useCommonPassword } from '~/client/features/auth/password-strength'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { ResetPasswordFormSchema } from '~/shared/validators'

const REDIRECT_MS = 3000

export const Route = createFileRoute('/reset-password/$token')({
  head: () => ({ meta: [{ title: 'Reset password · Vibes' }] }),
  component: ResetPasswordPage,
})

function ResetPasswordPage() {
  const { token } = Route.useParams()
  const trpc = useTRPC()
  const navigate = useNavigate()
  const form = useForm(ResetPasswordFormSchema, { password: '', confirmPassword: '' })
  const [failure, setFailure] = useState<string | null>(token ? null : 'Missing password reset token')
  const common = useCommonPassword()
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      onError: (error, input) => {
        setFailure(errorMessage(error, 'Failed to reset password. Please try again.'))
        common.note(error, input.password)
      },
    }),
  )
  useEffect(() => {
    if (!reset.isSuccess) return
    const timer = setTimeout(() => navigate({ to: '/login' }), REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [reset.isSuccess, navigate])

  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to="/login" className={linkClass}>
          Back to Login
        </Link>
      }
    >
      {reset.isSuccess ? (
        <p role="status" className={formSuccess}>
          Your password has been reset successfully! You will be redirected to the login page in a few seconds...
        </p>
      ) : (
        <AccountForm
          form={form}
          failure={failure}
          onValid={() => {
            setFailure(null)
            if (!token) return setFailure('Missing password reset token')
            reset.mutate({ token, password: form.parsed().password })
          }}
        >
          <TextField label="New Password" type="password" autoComplete="new-password" revealable {...form.field('password')} />
          <PasswordStrength password={form.values.password} refused={common.refused} />
          <TextField label="Confirm Password" type="password" autoComplete="new-password" revealable {...form.field('confirmPassword')} />
          <Button type="submit" size="lg" block disabled={!form.isValid || reset.isPending}>
            {reset.isPending ? 'Resetting...' : 'Reset Password'}
          </Button>
        </AccountForm>
      )}
    </AuthCard>
  )
}
