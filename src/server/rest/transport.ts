// The REST table (handler.ts) as a transport of the API front (http/api.ts): it takes every /api
// path the tRPC endpoint does not, and labels a request by its route's own path
// (`/api/admin/users/:id/role`) for the metrics.
import type { ApiTransport } from '../http/api'
import { API_PREFIX, handleRest, routePatternOf } from './handler'

export const restTransport: ApiTransport = {
  owns: (pathname) => pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`),
  handle: handleRest,
  routeLabel: (pathname) => {
    const pattern = routePatternOf(pathname.slice(API_PREFIX.length) || '/')
    return pattern === undefined ? undefined : `${API_PREFIX}${pattern}`
  },
}
