import { z } from 'zod'
import { emailField, requiredText } from './fields'

export const ContactSchema = z.strictObject({
  fullName: requiredText('Name is required', 'Name')
    .min(2, 'Name must be at least 2 characters')
    .max(50, 'Name must be less than 50 characters'),
  email: emailField,
  message: requiredText('Message is required', 'Message')
    .min(10, 'Message must be at least 10 characters')
    .max(500, 'Message must be less than 500 characters'),
})
export type ContactInput = z.infer<typeof ContactSchema>
