// Inputs of the admin's advert settings and promotions. A promotion's link and
// image reach every visitor's page, so they are limited to this site's own paths or http(s)
// addresses (https only for images, which the CSP allows); colours are #rrggbb so the card's
// inline style can hold nothing else.
import { z } from 'zod'
import { requiredText } from './fields'

export const AdvertSettingsSchema = z.strictObject({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  chancePercent: z
    .number({ error: 'chancePercent must be a number' })
    .int('chancePercent must be a whole number')
    .min(0, 'chancePercent must be at least 0')
    .max(100, 'chancePercent must be at most 100'),
})
export type AdvertSettings = z.infer<typeof AdvertSettingsSchema>

// A path on this site: one slash, then no second slash or backslash, and no whitespace or control
// character anywhere (browsers read "/\host" and "/<tab>/host" as "//host", another site).
const SITE_PATH = /^\/(?![/\\])[^\s\p{Cc}]*$/u
const colour = (label: string) => requiredText(`${label} is required`, label).regex(/^#[0-9a-fA-F]{6}$/, `${label} must be a colour like #4c1d95`)

const formFields = {
  title: requiredText('Title is required', 'Title').max(100, 'Title must be at most 100 characters'),
  description: requiredText('Description is required', 'Description').max(500, 'Description must be at most 500 characters'),
  linkUrl: requiredText('Link is required', 'Link')
    .max(2048, 'Link must be at most 2048 characters')
    .refine((u) => SITE_PATH.test(u) || /^https?:\/\/[^\s/]+/i.test(u), 'Link must be a path on this site (/about) or an http(s) address'),
  imageUrl: requiredText('Image URL is required', 'Image URL')
    .max(2048, 'Image URL must be at most 2048 characters')
    .refine((u) => SITE_PATH.test(u) || /^https:\/\/[^\s/]+/i.test(u), 'Image URL must be a path on this site (/promotions/x.svg) or an https address'),
  backgroundColor: colour('Background colour'),
  textColor: colour('Text colour'),
}
const promotionFields = { ...formFields, active: z.boolean({ error: 'active must be true or false' }) }

/** The admin's promotion form: every text field (whether it shows is a switch in the list). */
export const PromotionFormSchema = z.strictObject(formFields)

const promotionId = requiredText('Promotion id is required', 'Promotion id').max(64, 'Promotion id is too long')

export const PromotionCreateSchema = z.strictObject({ ...promotionFields, active: promotionFields.active.default(true) })
export type PromotionCreateInput = z.infer<typeof PromotionCreateSchema>
export const PromotionUpdateSchema = z
  .strictObject({ id: promotionId, ...promotionFields })
  .partial()
  .required({ id: true })
  .refine((p) => Object.keys(p).length > 1, 'Nothing to update: send at least one field')
export type PromotionUpdateInput = z.infer<typeof PromotionUpdateSchema>
export const PromotionIdSchema = z.strictObject({ id: promotionId })
