// analytics: the admin's listening analytics (the Listening Analytics screen).
// Admin only; `days` is one of 1, 7, 14, 30, 60, 90 (anything else 400), limits are bounded. The
// answers are computed off the request loop when the analytics worker runs (analytics-offload.ts).
import { AnalyticsPeriodSchema, PlaylistAnalyticsSchema, UserBehaviorSchema } from '~/shared/validators'
import { runAnalytics } from '../services/analytics-offload'
import { withFolderNames } from '../services/folder-names'
import { adminProcedure, createTRPCRouter } from '../trpc/init'

export const analyticsRouter = createTRPCRouter({
  listeningOverview: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => runAnalytics(ctx.db, 'listeningOverview', input.days)),
  userListeningBehavior: adminProcedure
    .input(UserBehaviorSchema)
    .query(({ ctx, input }) => runAnalytics(ctx.db, 'userListeningBehavior', input.days, input.limit)),
  listeningPatterns: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => runAnalytics(ctx.db, 'listeningPatterns', input.days)),
  geographicListening: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => runAnalytics(ctx.db, 'geographicListening', input.days)),
  playlistAnalytics: adminProcedure.input(PlaylistAnalyticsSchema).query(async ({ ctx, input }) => {
    const result = await runAnalytics(ctx.db, 'playlistAnalytics', input.days, input.limit)
    return { ...result, playlists: await withFolderNames(ctx.db, result.playlists) }
  }),
  userEngagement: adminProcedure.input(AnalyticsPeriodSchema).query(({ ctx, input }) => runAnalytics(ctx.db, 'userEngagement', input.days)),
})
