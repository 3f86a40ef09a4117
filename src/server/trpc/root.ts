// The app router: one sub-router per domain.
import { authRouter } from '../routers/auth'
import { chartsRouter } from '../routers/charts'
import { contactRouter } from '../routers/contact'
import { healthRouter } from '../routers/health'
import { hitsRouter } from '../routers/hits'
import { createCallerFactory, createTRPCRouter } from './init'

export const appRouter = createTRPCRouter({
  auth: authRouter,
  health: healthRouter,
  contact: contactRouter,
  charts: chartsRouter,
  hits: hitsRouter,
})

export type AppRouter = typeof appRouter
export const createCaller = createCallerFactory(appRouter)
export type Caller = ReturnType<typeof createCaller>
