// The app router: one sub-router per domain.
import { authRouter } from '../routers/auth'
import { healthRouter } from '../routers/health'
import { playlistRouter } from '../routers/playlist'
import { createCallerFactory, createTRPCRouter } from './init'

export const appRouter = createTRPCRouter({
  auth: authRouter,
  health: healthRouter,
  playlist: playlistRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
export type Caller = ReturnType<typeof createCaller>
