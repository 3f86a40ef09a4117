// hits: the footer's page-visit counter. Public; one hit per call.
import { PageHitSchema } from '~/shared/validators'
import { config } from '../config'
import { recordPageHit, visitorHash } from '../services/hits'
import { createTRPCRouter, publicProcedure, rateLimit } from '../trpc/init'

export const hitsRouter = createTRPCRouter({
  record: publicProcedure
    .use(rateLimit('hits'))
    .input(PageHitSchema)
    .mutation(({ ctx, input }) => recordPageHit(ctx.db, input.page, visitorHash(config.AUTH_SECRET, ctx.client.ip, ctx.client.userAgent))),
})
