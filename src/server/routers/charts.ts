// charts: most-played songs per region, public.
import { ChartsRegionSchema } from '~/shared/validators'
import { config } from '../config'
import { remotePolicy } from '../remote'
import { chartFor } from '../services/charts'
import { createTRPCRouter, publicProcedure } from '../trpc/init'

export const chartsRouter = createTRPCRouter({
  byRegion: publicProcedure
    .input(ChartsRegionSchema)
    .query(({ ctx, input }) => chartFor(ctx.db, input.region, { sourceUrl: config.CHARTS_SOURCE_URL, policy: remotePolicy() })),
})
