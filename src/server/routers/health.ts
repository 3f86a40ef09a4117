// health: public liveness (the full figures when an admin asks), plus the admin-only system and
// API metrics panels.
import { z } from 'zod'
import { apiMetrics } from '../http/metrics'
import { health, liveness } from '../services/health'
import { adminProcedure, createTRPCRouter, publicProcedure } from '../trpc/init'

export const healthRouter = createTRPCRouter({
  // The optional cache-busting query (`?t=…`) is accepted and ignored.
  check: publicProcedure
    .input(z.object({ t: z.string().max(64).optional() }).optional())
    .query(({ ctx }) => (ctx.user?.isAdmin ? health(ctx.db) : liveness(ctx.db))),
  system: adminProcedure.query(({ ctx }) => health(ctx.db)),
  metrics: adminProcedure.query(() => ({ metrics: apiMetrics() })),
})
