// Account forms (login, register, forgot, reset) and the procedure inputs built from them.
import { z } from 'zod'
import { emailField, passwordField, usernameField } from './fields'

export const LoginSchema = z.strictObject({
  email: emailField,
  password: z
    .string({ error: (i) => (i.input === undefined ? 'Password is required' : 'Password must be text') })
    .min(1, 'Password is required')
    .max(128, 'Password must be at most 128 characters'),
})
export type LoginInput = z.infer<typeof LoginSchema>

/** What the server takes for sign-up (POST /auth/signup). */
export const SignupSchema = z.strictObject({
  username: usernameField,
  email: emailField,
  password: passwordField,
})
export type SignupInput = z.infer<typeof SignupSchema>

const confirmField = z.string().min(1, 'Please confirm your password')

/** The register form: sign-up plus a confirmation that must match. */
export const RegisterFormSchema = SignupSchema.extend({ confirmPassword: confirmField }).refine((v) => v.password === v.confirmPassword, {
  message: 'Passwords do not match',
  path: ['confirmPassword'],
})

export const ForgotPasswordSchema = z.strictObject({ email: emailField })

/** What the server takes for a reset (POST /auth/reset-password/{token}). */
export const ResetPasswordSchema = z.strictObject({
  token: z.string({ error: 'Missing password reset token' }).min(1, 'Missing password reset token').max(200, 'Invalid or expired password reset token'),
  password: passwordField,
})

/** The reset form: a new password and its confirmation. */
export const ResetPasswordFormSchema = z
  .strictObject({ password: passwordField, confirmPassword: confirmField })
  .refine((v) => v.password === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })
