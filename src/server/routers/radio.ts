// radio: internet radio stations (every member lists, stars and listens; admins add, change and
// delete) and what a station plays now.
import { RadioFavouriteSchema, RadioStationCreateSchema, RadioStationIdSchema, RadioStationUpdateSchema } from '~/shared/validators'
import * as radio from '../services/radio'
import { adminProcedure, createTRPCRouter, protectedProcedure } from '../trpc/init'

export const radioRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => radio.listStations(ctx.db, ctx.user.id)),
  // Reads are kept per station for a few seconds (radio/icy.ts): polling costs the station little.
  nowPlaying: protectedProcedure.input(RadioStationIdSchema).query(({ ctx, input }) => radio.nowPlaying(ctx.db, input.id)),
  favourite: protectedProcedure.input(RadioFavouriteSchema).mutation(({ ctx, input }) => radio.setFavourite(ctx.db, ctx.user.id, input.id, input.favourite)),
  create: adminProcedure.input(RadioStationCreateSchema).mutation(({ ctx, input }) => radio.createStation(ctx.db, ctx.user.id, input)),
  update: adminProcedure.input(RadioStationUpdateSchema).mutation(({ ctx, input }) => radio.updateStation(ctx.db, ctx.user.id, input)),
  delete: adminProcedure.input(RadioStationIdSchema).mutation(({ ctx, input }) => radio.deleteStation(ctx.db, input.id)),
})
