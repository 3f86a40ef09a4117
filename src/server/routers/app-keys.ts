// appKeys: a member's keys for OpenSubsonic apps (create shows the key once, list, revoke).
// Creating one needs the current password and shares the auth rate limit, as the profile changes
// do; it is written to the audit log.
import { AppKeyCreateSchema, AppKeyIdSchema } from '~/shared/validators'
import { config } from '../config'
import * as appKeys from '../services/app-keys'
import { recordAudit } from '../services/audit'
import { createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

export const appKeysRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => appKeys.listAppKeys(ctx.db, ctx.user.id)),
  create: protectedProcedure
    .use(rateLimit('auth'))
    .input(AppKeyCreateSchema)
    .mutation(async ({ ctx, input }) => {
      const created = await appKeys.createAppKey(ctx.db, config.AUTH_SECRET, ctx.user.id, input)
      await recordAudit(ctx.db, ctx.user, 'appkey.create', created.name, created.id)
      return created
    }),
  revoke: protectedProcedure.input(AppKeyIdSchema).mutation(({ ctx, input }) => appKeys.revokeAppKey(ctx.db, ctx.user.id, input.id)),
})
