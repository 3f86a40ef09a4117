import { checkHealth, HealthCheckInput } from '../../routers/health'
import { parseInput } from '../../trpc/init'
import { route } from '../define'

export const healthRoutes = [
  route({
    method: 'GET',
    path: '/health',
    call: (c, r) => c.health.check(r.query.t ? { t: r.query.t } : undefined),
    serve: (ctx, r) => {
      parseInput(HealthCheckInput, r.query.t ? { t: r.query.t } : undefined)
      return checkHealth(ctx)
    },
  }),
  route({ method: 'GET', path: '/health/auth', call: (c) => c.auth.status() }),
  route({ method: 'GET', path: '/health/system', call: (c) => c.health.system() }),
  route({ method: 'GET', path: '/health/metrics', call: (c) => c.health.metrics() }),
]
