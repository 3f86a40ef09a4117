// Every documented REST path (docs/rest-api.md), one file per domain.
import type { RestRoute } from '../define'
import { authRoutes } from './auth'
import { folderRoutes } from './folders'
import { healthRoutes } from './health'
import { remoteRoutes } from './remote'

export const restRoutes: RestRoute[] = [...authRoutes, ...healthRoutes, ...folderRoutes, ...remoteRoutes]
