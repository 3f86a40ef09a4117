import { z } from 'zod'

// A well-formed storefront code is two letters (any case; answered in lowercase). A well-formed
// code outside the 11 regions is a 404 from the service; anything malformed is a 400 here.
export const ChartsRegionSchema = z.strictObject({
  region: z
    .string({ error: (issue) => (issue.input === undefined ? 'Region is required' : 'Region must be text') })
    .regex(/^[A-Za-z]{2}$/, 'Region must be a two-letter storefront code')
    .transform((r) => r.toLowerCase()),
})
export type ChartsRegionInput = z.input<typeof ChartsRegionSchema>
