// Internet radio stations (the Radio page, the admin console's Radio table, OpenSubsonic's
// internet-radio methods): a name, the stream's http(s) URL and an optional homepage.
import { z } from 'zod'
import { REMOTE_URL_INVALID, remoteUrlField } from './remote'

export const RADIO_NAME_MAX = 200

const stationId = z.string({ error: 'Station id is required' }).trim().min(1, 'Station id is required').max(100, 'Station id is too long')

const name = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(RADIO_NAME_MAX, `Name must be at most ${RADIO_NAME_MAX} characters`)

/** An empty homepage is no homepage. */
const homepage = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), remoteUrlField.nullish())

/** The admin console's form: every field text, an empty homepage allowed. */
export const RadioStationFormSchema = z.strictObject({
  name,
  streamUrl: remoteUrlField,
  homepageUrl: z.string().refine((v) => v.trim() === '' || remoteUrlField.safeParse(v).success, REMOTE_URL_INVALID),
})

export const RadioStationIdSchema = z.strictObject({ id: stationId })

export const RadioStationCreateSchema = z.strictObject({ name, streamUrl: remoteUrlField, homepageUrl: homepage })
export type RadioStationCreateInput = z.output<typeof RadioStationCreateSchema>

export const RadioStationUpdateSchema = z.strictObject({ id: stationId, name, streamUrl: remoteUrlField, homepageUrl: homepage })
export type RadioStationUpdateInput = z.output<typeof RadioStationUpdateSchema>

export const RadioFavouriteSchema = z.strictObject({
  id: stationId,
  favourite: z.boolean({ error: 'Favourite must be true or false' }),
})
