// shares: a member's share links (list, create, revoke) and the two calls of the public page
// /s/<id> (open, play), which need no account and are limited per address.
import { ShareCreateSchema, ShareIdSchema, SharePlaySchema } from '~/shared/validators'
import { config } from '../config'
import * as shares from '../services/shares'
import { createTRPCRouter, protectedProcedure, publicProcedure, rateLimit } from '../trpc/init'

export const sharesRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => shares.listShares(ctx.db, ctx.user.id)),
  create: protectedProcedure.input(ShareCreateSchema).mutation(({ ctx, input }) => shares.createShareFromWeb(ctx.db, ctx.user.id, input)),
  revoke: protectedProcedure.input(ShareIdSchema).mutation(({ ctx, input }) => shares.revokeShare(ctx.db, ctx.user.id, input.id)),
  open: publicProcedure
    .use(rateLimit('shares'))
    .input(ShareIdSchema)
    .query(({ ctx, input }) => shares.openShare(ctx.db, config.AUTH_SECRET, input.id)),
  play: publicProcedure
    .use(rateLimit('shares'))
    .input(SharePlaySchema)
    .mutation(({ ctx, input }) => shares.recordSharePlay(ctx.db, input.id, input.index, ctx.client)),
})
