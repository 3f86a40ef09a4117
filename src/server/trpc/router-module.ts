// The app router (every tRPC procedure with its zod schemas, the admin console's among them: a
// third of a restart's CPU before listening) loads on first use: the start-up loads it right after
// listening (start-up.ts), and a request that needs it sooner loads it at once. One handle for the
// tRPC and REST adapters, so both wait for the same import.
import { deferred } from '../deferred'

export const appRouterModule = deferred(() => import('./root'))
