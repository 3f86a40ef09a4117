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
import { playlistsRouter } from '../routers/playlists'
import { podcastsRouter } from '../routers/podcasts'
import { profileRouter } from '../routers/profile'
import { radioRouter } from '../routers/radio'
import { scrobblingRouter } from '../routers/scrobbling'
import { remoteRouter } from '../routers/remote'
import { sharesRouter } from '../routers/shares'
import { statsRouter } from '../routers/stats'
import { type AnyTRPCProcedure, createTRPCRecursiveProxy, type TRPCRouterRecord, TRPCError } from '@trpc/server'
import type { RestCaller } from '../rest/define'
import type { Context } from './context'
import { createTRPCRouter } from './init'

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
  scrobbling: scrobblingRouter,
  playlists: playlistsRouter,
  shares: sharesRouter,
  podcasts: podcastsRouter,
  radio: radioRouter,
})

export type AppRouter = typeof appRouter

/** The procedure at `path` (`['folders', 'update']`), or undefined. */
function procedureAt(record: TRPCRouterRecord, path: readonly string[]): AnyTRPCProcedure | undefined {
  let node: AnyTRPCProcedure | TRPCRouterRecord | undefined = record
  for (const key of path) node = node === undefined || typeof node === 'function' ? undefined : node[key]
  return typeof node === 'function' ? node : undefined
}

/**
 * The REST adapter's way in: each procedure called with the client's data as it came, as tRPC's
 * own caller does (and its HTTP adapter for /api/trpc), so the procedure's guards run first and its
 * input schema then validates the input (decision 063).
 */
export function createRestCaller(ctx: Context): RestCaller {
  return createTRPCRecursiveProxy<RestCaller>(({ path, args }) => {
    const procedure = procedureAt(appRouter._def.record, path)
    if (!procedure) throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure at ${path.join('.')}` })
    return procedure({ ctx, path: path.join('.'), getRawInput: async () => args[0], type: procedure._def.type, signal: undefined, batchIndex: 0 })
  })
}
