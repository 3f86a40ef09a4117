// /forgot-password: one e-mail field; on success the form gives way to the instructions.
import { useMutation } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { AccountForm, AuthCard, formSuccess, linkClass } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { ForgotPasswordSchema } from '~/shared/validators'

export const Route = createFileRoute('/forgot-password')({
  head: () => ({ meta: [{ title: 'Forgot password · Vibes' }] }),
  component: ForgotPasswordPage,
})

function ForgotPasswordPage() {
  const trpc = useTRPC()
  const form = useForm(ForgotPasswordSchema, { email: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const request = useMutation(
    trpc.auth.forgotPassword.mutationOptions({
      onError: (error) => setFailure(errorMessage(error, 'Failed to request password reset. Please try again.')),
    }),
  )

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your e-mail and we'll send you a link to choose a new one."
      footer={
        <Link to="/login" className={linkClass}>
          Back to Login
        </Link>
      }
    >
      {request.isSuccess ? (
        <p role="status" className={formSuccess}>
          Password reset instructions have been sent to your email. Please check your inbox and follow the instructions.
        </p>
      ) : (
        <AccountForm
          form={form}
          failure={failure}
          onValid={() => {
            setFailure(null)
            request.mutate(form.parsed())
          }}
        >
          <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
          <Button type="submit" size="lg" block disabled={!form.isValid || request.isPending}>
            {request.isPending ? 'Sending...' : 'Send Reset Link'}
          </Button>
        </AccountForm>
      )}
    </AuthCard>
  )
}
