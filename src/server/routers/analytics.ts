// analytics: the admin's listening analytics (admin spec §2 "Listening Analytics", §3, §7).
// Admin only; `days` is one of 1, 7, 14, 30, 60, 90 (anything else 400), limits are bounded.
import { AnalyticsPeriodSchema, PlaylistAnalyticsSchema, UserBehaviorSchema } from '~/shared/validators'
import * as analytics from '../services/analytics'
import { withFolderNames } from '../services/folder-names'
import { adminProcedure, createTRPCRouter } from '../trpc/init'

export const analyticsRouter = createTRPCRouter({
  listeningOverview: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => analytics.listeningOverview(ctx.db, input.days)),
  userListeningBehavior: adminProcedure.input(UserBehaviorSchema).query(({ ctx, input }) => analytics.userListeningBehavior(ctx.db, input.days, input.limit)),
  listeningPatterns: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => analytics.listeningPatterns(ctx.db, input.days)),
  geographicListening: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => analytics.geographicListening(ctx.db, input.days)),
  playlistAnalytics: adminProcedure.input(PlaylistAnalyticsSchema).query(({ ctx, input }) => {
    const result = analytics.playlistAnalytics(ctx.db, input.days, input.limit)
    return { ...result, playlists: withFolderNames(ctx.db, result.playlists) }
  }),
  userEngagement: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => analytics.userEngagement(ctx.db, input.days)),
})
