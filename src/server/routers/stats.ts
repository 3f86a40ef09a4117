// stats: the admin dashboard counts and System Statistics: traffic from
// page hits, music counts, active users, top tracks and pages, the user-activity table, recent
// server errors, and clearing hit data. Admin only.
import {
  AdminStatsSchema,
  DailyActivitySchema,
  ErrorsSchema,
  HitAnalyticsSchema,
  TopPagesSchema,
  TopTracksSchema,
  UserActivitySummarySchema,
} from '~/shared/validators'
import { recordAudit } from '../services/audit'
import { withPageNames } from '../services/page-names'
import * as stats from '../services/stats'
import { adminProcedure, createTRPCRouter } from '../trpc/init'

export const statsRouter = createTRPCRouter({
  dashboard: adminProcedure.query(({ ctx }) => stats.dashboardSummary(ctx.db)),
  overview: adminProcedure.input(AdminStatsSchema).query(({ ctx, input }) => stats.adminStats(ctx.db, input.forceFresh)),
  dau: adminProcedure.query(({ ctx }) => stats.dauStats(ctx.db)),
  topTracks: adminProcedure.input(TopTracksSchema).query(({ ctx, input }) => stats.topTracks(ctx.db, input.days, input.limit, input.clearCache)),
  userActivitySummary: adminProcedure.input(UserActivitySummarySchema).query(({ ctx, input }) => stats.userActivitySummary(ctx.db, input.fresh)),
  topPages: adminProcedure.input(TopPagesSchema).query(({ ctx, input }) => stats.topPages(ctx.db, input.days, input.limit)),
  dailyActivity: adminProcedure.input(DailyActivitySchema).query(({ ctx, input }) => stats.dailyActivity(ctx.db, input.days)),
  hits: adminProcedure
    .input(HitAnalyticsSchema)
    .query(async ({ ctx, input }) => withPageNames(ctx.db, await stats.hitAnalytics(ctx.db, input.days, input.page))),
  clearHitData: adminProcedure.mutation(async ({ ctx }) => {
    const cleared = await stats.clearHitData(ctx.db)
    await recordAudit(ctx.db, ctx.user, 'hits.clear')
    return cleared
  }),
  errors: adminProcedure.input(ErrorsSchema).query(({ ctx, input }) => stats.recentErrors(ctx.db, input.hours, input.limit)),
})
