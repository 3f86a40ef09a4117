// remote: load a remote folder URL (directory listing or playlist) as a track list.
import { RemotePlaylistSchema } from '~/shared/validators'
import { loadRemotePlaylist } from '../remote'
import { createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

export const remoteRouter = createTRPCRouter({
  playlist: protectedProcedure
    .use(rateLimit('remote'))
    .input(RemotePlaylistSchema)
    .query(({ input }) => loadRemotePlaylist(input.url)),
})
