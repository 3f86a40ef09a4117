// The app router: one sub-router per domain.
import { adminRouter } from '../routers/admin'
import { analyticsRouter } from '../routers/analytics'
import { appKeysRouter } from '../routers/app-keys'
import { authRouter } from '../routers/auth'
import { chartsRouter } from '../routers/charts'
import { contactRouter } from '../routers/contact'
import { foldersRouter } from '../routers/folders'
import { healthRouter } from '../routers/health'
import { hitsRouter } from '../routers/hits'
import { libraryRouter } from '../routers/library'
import { playlistRouter } from '../routers/playlist'
import { profileRouter } from '../routers/profile'
import { remoteRouter } from '../routers/remote'
import { sharesRouter } from '../routers/shares'
import { statsRouter } from '../routers/stats'
import { createCallerFactory, createTRPCRouter } from './init'

export const appRouter = createTRPCRouter({
  auth: authRouter,
  health: healthRouter,
  contact: contactRouter,
  charts: chartsRouter,
  hits: hitsRouter,
  folders: foldersRouter,
  remote: remoteRouter,
  playlist: playlistRouter,
  admin: adminRouter,
  analytics: analyticsRouter,
  stats: statsRouter,
  library: libraryRouter,
  profile: profileRouter,
  appKeys: appKeysRouter,
  shares: sharesRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
export type Caller = ReturnType<typeof createCaller>
