// The account page (/profile): every change is confirmed with the current
// password, and new values obey the same field rules as registration.
import { z } from 'zod'
import { currentPasswordField, emailField, passwordField, usernameField } from './fields'

export const ChangeUsernameSchema = z.strictObject({ username: usernameField, currentPassword: currentPasswordField })
export type ChangeUsernameInput = z.infer<typeof ChangeUsernameSchema>

export const ChangeEmailSchema = z.strictObject({ email: emailField, currentPassword: currentPasswordField })
export type ChangeEmailInput = z.infer<typeof ChangeEmailSchema>

const passwordChangeFields = { currentPassword: currentPasswordField, newPassword: passwordField }

/**
 * What the server takes for a password change. `revokeAppKeys` (default on): a password changed
 * because it leaked should also end the app keys minted with it; a routine change may keep them.
 */
export const ChangePasswordSchema = z.strictObject({
  ...passwordChangeFields,
  revokeAppKeys: z.boolean({ error: 'revokeAppKeys must be true or false' }).default(true),
})
export type ChangePasswordInput = z.output<typeof ChangePasswordSchema>

/** The password form's text fields: the change plus a confirmation that must match (the app-key choice is a switch beside them). */
export const ChangePasswordFormSchema = z
  .strictObject({ ...passwordChangeFields, confirmPassword: z.string().min(1, 'Please confirm your password') })
  .refine((v) => v.newPassword === v.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })

export const DeleteAccountSchema = z.strictObject({ currentPassword: currentPasswordField })

/** A session as /profile lists it; the id is the session row's (a hash: it opens nothing). */
export const SessionIdSchema = z.strictObject({
  id: z.string({ error: 'Session id is required' }).min(1, 'Session id is required').max(128, 'Session id must be at most 128 characters'),
})

/** One of the member's linked provider accounts, named as the list shows it. */
export const LinkedSignInSchema = z.strictObject({
  provider: z.enum(['oidc', 'github', 'google'], { error: 'Provider must be one of oidc, github, google' }),
  subject: z.string({ error: 'Subject is required' }).min(1, 'Subject is required').max(255, 'Subject must be at most 255 characters'),
})
