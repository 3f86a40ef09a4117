// hits: the footer's page-visit counter. Public; `record` counts one hit per call, `counts` only
// reads (what the REST GET answers to HEAD requests and browser prefetches).
import { PageHitSchema } from '~/shared/validators'
import { config } from '../config'
import { readPageHits, recordPageHit, visitorHash } from '../services/hits'
import { createTRPCRouter, publicProcedure, rateLimit } from '../trpc/init'

export const hitsRouter = createTRPCRouter({
  record: publicProcedure
    .use(rateLimit('hits'))
    .input(PageHitSchema)
    .mutation(({ ctx, input }) => recordPageHit(ctx.db, input.page, visitorHash(config.AUTH_SECRET, ctx.client.ip, ctx.client.userAgent))),
  counts: publicProcedure
    .use(rateLimit('hits'))
    .input(PageHitSchema)
    .query(({ ctx, input }) => readPageHits(ctx.db, input.page)),
})
