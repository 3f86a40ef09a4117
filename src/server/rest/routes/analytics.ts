// REST paths for the admin's listening analytics (docs/rest-api.md). The whole query string goes
// to the procedure, whose strict schema refuses unknown keys and any `days` outside the periods.
import { route, unchecked } from '../define'

export const analyticsRoutes = [
  route({ method: 'GET', path: '/analytics/listening-overview', call: (c, r) => c.analytics.listeningOverview(unchecked(r.query)) }),
  route({ method: 'GET', path: '/analytics/user-listening-behavior', call: (c, r) => c.analytics.userListeningBehavior(unchecked(r.query)) }),
  route({ method: 'GET', path: '/analytics/listening-patterns', call: (c, r) => c.analytics.listeningPatterns(unchecked(r.query)) }),
  route({ method: 'GET', path: '/analytics/geographic-listening', call: (c, r) => c.analytics.geographicListening(unchecked(r.query)) }),
  route({ method: 'GET', path: '/analytics/playlist-analytics', call: (c, r) => c.analytics.playlistAnalytics(unchecked(r.query)) }),
  route({ method: 'GET', path: '/analytics/user-engagement', call: (c, r) => c.analytics.userEngagement(unchecked(r.query)) }),
]
