import type { inferRouterOutputs } from '@trpc/server'
import type { AppRouter } from '~/server/trpc/root'

type Outputs = inferRouterOutputs<AppRouter>['shares']
/** What a share link opens to (the share, or why not). */
export type ShareOpening = Outputs['open']
export type OpenShare = Extract<ShareOpening, { state: 'open' }>['share']
/** One of the member's links as /profile lists it. */
export type ShareSummary = Outputs['list']['shares'][number]
