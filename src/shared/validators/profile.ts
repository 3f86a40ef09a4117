// The account page (/profile, CONTRACT §6 "Profile"): every change is confirmed with the current
// password, and new values obey the same field rules as registration.
import { z } from 'zod'
import { emailField, passwordField, usernameField } from './fields'

const currentPasswordField = z
  .string({ error: (i) => (i.input === undefined || i.input === null ? 'Current password is required' : 'Current password must be text') })
  .min(1, 'Current password is required')
  .max(128, 'Current password must be at most 128 characters')

export const ChangeUsernameSchema = z.strictObject({ username: usernameField, currentPassword: currentPasswordField })
export type ChangeUsernameInput = z.infer<typeof ChangeUsernameSchema>

export const ChangeEmailSchema = z.strictObject({ email: emailField, currentPassword: currentPasswordField })
export type ChangeEmailInput = z.infer<typeof ChangeEmailSchema>

/** What the server takes for a password change. */
export const ChangePasswordSchema = z.strictObject({ currentPassword: currentPasswordField, newPassword: passwordField })
export type ChangePasswordInput = z.infer<typeof ChangePasswordSchema>

/** The password form: the change plus a confirmation that must match. */
export const ChangePasswordFormSchema = ChangePasswordSchema.extend({ confirmPassword: z.string().min(1, 'Please confirm your password') }).refine(
  (v) => v.newPassword === v.confirmPassword,
  { message: 'Passwords do not match', path: ['confirmPassword'] },
)

export const DeleteAccountSchema = z.strictObject({ currentPassword: currentPasswordField })

/** A session as /profile lists it; the id is the session row's (a hash: it opens nothing). */
export const SessionIdSchema = z.strictObject({
  id: z.string({ error: 'Session id is required' }).min(1, 'Session id is required').max(128, 'Session id must be at most 128 characters'),
})
