// appKeys: a member's keys for OpenSubsonic apps (create shows the key once, list, revoke).
import { AppKeyCreateSchema, AppKeyIdSchema } from '~/shared/validators'
import * as appKeys from '../services/app-keys'
import { createTRPCRouter, protectedProcedure } from '../trpc/init'

export const appKeysRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => appKeys.listAppKeys(ctx.db, ctx.user.id)),
  create: protectedProcedure.input(AppKeyCreateSchema).mutation(({ ctx, input }) => appKeys.createAppKey(ctx.db, ctx.user.id, input)),
  revoke: protectedProcedure.input(AppKeyIdSchema).mutation(({ ctx, input }) => appKeys.revokeAppKey(ctx.db, ctx.user.id, input.id)),
})
