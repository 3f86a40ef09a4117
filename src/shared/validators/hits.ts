import { z } from 'zod'
import { PAGE_KEY_MAX, PAGE_KEY_PATTERN, PAGE_KEY_SEGMENTS } from '../page-key'

// A page key as the footer sends it (see pageKey). Case is folded so /About and /about count as one
// page. `?page=a&page=b` reaches here as an array and is refused rather than silently picking one.
export const PageHitSchema = z.strictObject({
  page: z
    .string({
      error: (issue) => (issue.input === undefined ? 'Page is required' : Array.isArray(issue.input) ? 'Page must be given once' : 'Page must be text'),
    })
    .min(1, 'Page is required')
    .max(PAGE_KEY_MAX, `Page must be at most ${PAGE_KEY_MAX} characters`)
    .regex(PAGE_KEY_PATTERN, 'Page may only use letters, digits, "/", "_", "-" and "."')
    .regex(PAGE_KEY_SEGMENTS, 'Page must be a path of names joined by single "/", without "." or ".." parts')
    .transform((p) => p.toLowerCase()),
})
