// REST paths for the admin dashboard and System Statistics (docs/rest-api.md).
import { route } from '../define'

export const statsRoutes = [
  route({ method: 'GET', path: '/admin/dashboard', call: (c) => c.stats.dashboard() }),
  route({ method: 'GET', path: '/admin/stats', call: (c, r) => c.stats.overview(r.query) }),
  route({ method: 'GET', path: '/admin/stats/dau', call: (c) => c.stats.dau() }),
  route({ method: 'GET', path: '/admin/stats/top-tracks', call: (c, r) => c.stats.topTracks(r.query) }),
  route({ method: 'GET', path: '/admin/stats/user-activity-summary', call: (c, r) => c.stats.userActivitySummary(r.query) }),
  route({ method: 'GET', path: '/admin/stats/top-pages', call: (c, r) => c.stats.topPages(r.query) }),
  route({ method: 'GET', path: '/admin/metrics/daily-activity', call: (c, r) => c.stats.dailyActivity(r.query) }),
  route({ method: 'GET', path: '/admin/analytics/hits', call: (c, r) => c.stats.hits(r.query) }),
  route({ method: 'DELETE', path: '/admin/clear/hit-data', call: (c) => c.stats.clearHitData() }),
  route({ method: 'GET', path: '/admin/errors', call: (c, r) => c.stats.errors(r.query) }),
]
