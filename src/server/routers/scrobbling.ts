// scrobbling: a member's ListenBrainz and Last.fm connections and what was sent (/profile).
// Connecting makes the server call the service, so it shares the auth rate limit.
import { LastfmCompleteSchema, ListenBrainzConnectSchema, ScrobbleServiceSchema } from '~/shared/validators'
import * as scrobbling from '../services/scrobbling'
import { createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

const connectProcedure = protectedProcedure.use(rateLimit('auth'))

export const scrobblingRouter = createTRPCRouter({
  status: protectedProcedure.query(({ ctx }) => scrobbling.scrobblingStatus(ctx.db, ctx.user.id)),
  connectListenBrainz: connectProcedure
    .input(ListenBrainzConnectSchema)
    .mutation(({ ctx, input }) => scrobbling.connectListenBrainz(ctx.db, ctx.user.id, input.token)),
  lastfmStart: connectProcedure.mutation(({ ctx }) => scrobbling.lastfmConnectUrl(ctx.user.id)),
  lastfmComplete: connectProcedure.input(LastfmCompleteSchema).mutation(({ ctx, input }) => scrobbling.completeLastfm(ctx.db, ctx.user.id, input)),
  disconnect: protectedProcedure.input(ScrobbleServiceSchema).mutation(({ ctx, input }) => scrobbling.disconnectScrobbling(ctx.db, ctx.user.id, input.service)),
})
