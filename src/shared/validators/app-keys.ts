// App keys for OpenSubsonic apps (/profile): a name to tell them apart, and the id to revoke one.
// A key opens the account to /rest as the password does, so making one is confirmed with the
// current password, as every other change to the account is.
import { z } from 'zod'
import { currentPasswordField, requiredText } from './fields'

export const AppKeyCreateSchema = z.strictObject({
  name: requiredText('Name is required', 'Name').max(64, 'Name must be at most 64 characters'),
  currentPassword: currentPasswordField,
})
export const AppKeyIdSchema = z.strictObject({
  id: z.string({ error: 'App key id is required' }).trim().min(1, 'App key id is required').max(64, 'App key id is too long'),
})
export type AppKeyCreateInput = z.infer<typeof AppKeyCreateSchema>
