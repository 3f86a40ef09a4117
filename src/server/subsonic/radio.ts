// The OpenSubsonic internet-radio methods over the one radio service of the web's Radio page
// (services/radio.ts, docs/decisions/077). Every member lists the stations; only an admin adds,
// changes or deletes one (error 50 otherwise, as Navidrome). `streamUrl` is the station's own
// address: apps play it directly, as they do with every server of this API.
import { type RadioStationCreateInput, RadioStationCreateSchema, RadioStationUpdateSchema } from '~/shared/validators'
import type { z } from 'zod'
import { createStation, deleteStation, listStations, updateStation } from '../services/radio'
import type { MethodContext } from './methods'
import { ErrorCode, type Payload, SubsonicError } from './response'

function requireAdmin(ctx: MethodContext, what: string) {
  if (!ctx.user.isAdmin) throw new SubsonicError(ErrorCode.notAuthorized, `Only an admin may ${what} internet radio stations`)
}

/** The station's fields as the web's form checks them; a bad one is error 0 naming it. */
function stationOf<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new SubsonicError(ErrorCode.generic, parsed.error.issues[0]?.message ?? 'Invalid station')
  return parsed.data
}

const fields = (ctx: MethodContext) => ({
  name: ctx.params.required('name'),
  streamUrl: ctx.params.required('streamUrl'),
  homepageUrl: ctx.params.get('homepageUrl') ?? null,
})

export const RADIO_METHODS: Record<string, (ctx: MethodContext) => Promise<Payload>> = {
  getInternetRadioStations: async (ctx) => ({
    internetRadioStations: {
      internetRadioStation: (await listStations(ctx.db, ctx.user.id)).map((s) => ({
        id: s.id,
        name: s.name,
        streamUrl: s.streamUrl,
        homePageUrl: s.homepageUrl ?? undefined,
      })),
    },
  }),
  createInternetRadioStation: async (ctx) => {
    requireAdmin(ctx, 'add')
    const input: RadioStationCreateInput = stationOf(RadioStationCreateSchema, fields(ctx))
    await createStation(ctx.db, ctx.user.id, input)
    return {}
  },
  updateInternetRadioStation: async (ctx) => {
    requireAdmin(ctx, 'change')
    const id = ctx.params.required('id')
    await updateStation(ctx.db, ctx.user.id, stationOf(RadioStationUpdateSchema, { id, ...fields(ctx) }))
    return {}
  },
  deleteInternetRadioStation: async (ctx) => {
    requireAdmin(ctx, 'delete')
    await deleteStation(ctx.db, ctx.params.required('id'))
    return {}
  },
}
