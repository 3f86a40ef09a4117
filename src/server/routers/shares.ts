// shares: a member's share links (list, create, revoke) and the two calls of the public page
// /s/<id> (open, play), which need no account and are limited per address. The service's
// refusals become NOT_FOUND / BAD_REQUEST here.
import { TRPCError } from '@trpc/server'
import { ShareCreateSchema, ShareIdSchema, SharePlaySchema } from '~/shared/validators'
import { config } from '../config'
import * as shares from '../services/shares'
import { createTRPCRouter, protectedProcedure, publicProcedure, rateLimit } from '../trpc/init'

function translated<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (error instanceof shares.ShareError) throw new TRPCError({ code: error.kind === 'not-found' ? 'NOT_FOUND' : 'BAD_REQUEST', message: error.message })
    throw error
  }
}

export const sharesRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => shares.listShares(ctx.db, ctx.user.id)),
  create: protectedProcedure.input(ShareCreateSchema).mutation(({ ctx, input }) => translated(() => shares.createShareFromWeb(ctx.db, ctx.user.id, input))),
  revoke: protectedProcedure.input(ShareIdSchema).mutation(({ ctx, input }) => translated(() => shares.revokeShare(ctx.db, ctx.user.id, input.id))),
  open: publicProcedure
    .use(rateLimit('shares'))
    .input(ShareIdSchema)
    .query(({ ctx, input }) => shares.openShare(ctx.db, config.AUTH_SECRET, input.id)),
  play: publicProcedure
    .use(rateLimit('shares'))
    .input(SharePlaySchema)
    .mutation(({ ctx, input }) => translated(() => shares.recordSharePlay(ctx.db, input.id, input.index, ctx.client))),
})
