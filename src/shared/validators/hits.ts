import { z } from 'zod'
import { PAGE_KEY_MAX, PAGE_KEY_PATTERN } from '../page-key'

export const PageHitSchema = z.strictObject({
  page: z
    .string({ error: (issue) => (issue.input === undefined ? 'Page is required' : 'Page must be text') })
    .min(1, 'Page is required')
    .max(PAGE_KEY_MAX, `Page must be at most ${PAGE_KEY_MAX} characters`)
    .regex(PAGE_KEY_PATTERN, 'Page may only use letters, digits, "/", "_", "-" and "."'),
})
export type PageHitInput = z.infer<typeof PageHitSchema>
