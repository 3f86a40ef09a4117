// health: public liveness (the full figures when an admin asks), plus the admin-only system and
// API metrics panels.
import { z } from 'zod'
import { apiMetrics } from '../http/metrics'
import { health, liveness } from '../services/health'
import type { Context } from '../trpc/context'
import { adminProcedure, createTRPCRouter, publicProcedure } from '../trpc/init'

// The optional cache-busting query (`?t=…`) is accepted and ignored.
export const HealthCheckInput = z.object({ t: z.string().max(64).optional() }).optional()

/** Liveness for everyone, the full figures for an admin (REST serves this without tRPC). */
export const checkHealth = (ctx: Context) => (ctx.user?.isAdmin ? health(ctx.db) : liveness(ctx.db))

export const healthRouter = createTRPCRouter({
  check: publicProcedure.input(HealthCheckInput).query(({ ctx }) => checkHealth(ctx)),
  system: adminProcedure.query(({ ctx }) => health(ctx.db)),
  metrics: adminProcedure.query(() => ({ metrics: apiMetrics() })),
})
