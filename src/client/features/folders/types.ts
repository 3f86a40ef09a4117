import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '~/server/trpc/root'

export type Folder = inferRouterOutputs<AppRouter>['folders']['list'][number]
