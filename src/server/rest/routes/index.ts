// Every documented REST path (docs/rest-api.md), one file per domain.
import type { RestRoute } from '../define'
import { authRoutes } from './auth'
import { healthRoutes } from './health'
import { playlistRoutes } from './playlist'

export const restRoutes: RestRoute[] = [...authRoutes, ...healthRoutes, ...playlistRoutes]
