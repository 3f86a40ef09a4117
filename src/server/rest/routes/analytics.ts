// REST paths for the admin's listening analytics (docs/rest-api.md). The whole query string goes
// to the procedure, whose strict schema refuses unknown keys and any `days` outside the periods.
import { route } from '../define'

export const analyticsRoutes = [
  route({ method: 'GET', path: '/analytics/listening-overview', call: (c, r) => c.analytics.listeningOverview(r.query) }),
  route({ method: 'GET', path: '/analytics/user-listening-behavior', call: (c, r) => c.analytics.userListeningBehavior(r.query) }),
  route({ method: 'GET', path: '/analytics/listening-patterns', call: (c, r) => c.analytics.listeningPatterns(r.query) }),
  route({ method: 'GET', path: '/analytics/geographic-listening', call: (c, r) => c.analytics.geographicListening(r.query) }),
  route({ method: 'GET', path: '/analytics/playlist-analytics', call: (c, r) => c.analytics.playlistAnalytics(r.query) }),
  route({ method: 'GET', path: '/analytics/user-engagement', call: (c, r) => c.analytics.userEngagement(r.query) }),
]
