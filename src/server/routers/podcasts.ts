// podcasts: a member's podcasts (subscribe by feed URL, list, episodes, refresh, progress,
// downloads) and the admins' setting of who may add new feeds.
import {
  PodcastChannelIdSchema,
  PodcastEpisodeIdSchema,
  PodcastEpisodesSchema,
  PodcastFeedsBySchema,
  PodcastProgressSchema,
  PodcastRefreshSchema,
  PodcastSubscribeSchema,
} from '~/shared/validators'
import * as podcasts from '../services/podcasts'
import { adminProcedure, createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

export const podcastsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => podcasts.listChannels(ctx.db, ctx.user.id)),
  subscribe: protectedProcedure
    .use(rateLimit('remote'))
    .input(PodcastSubscribeSchema)
    .mutation(({ ctx, input }) => podcasts.subscribe(ctx.db, ctx.user, input.url)),
  unsubscribe: protectedProcedure.input(PodcastChannelIdSchema).mutation(({ ctx, input }) => podcasts.unsubscribe(ctx.db, ctx.user.id, input.channelId)),
  channel: protectedProcedure.input(PodcastChannelIdSchema).query(({ ctx, input }) => podcasts.channelSummary(ctx.db, ctx.user.id, input.channelId)),
  episodes: protectedProcedure
    .input(PodcastEpisodesSchema)
    .query(({ ctx, input: { cursor, direction: _, ...input } }) => podcasts.listEpisodes(ctx.db, ctx.user, { ...input, offset: cursor })),
  episode: protectedProcedure.input(PodcastEpisodeIdSchema).query(async ({ ctx, input }) => {
    const { enclosureUrl: _, downloadFile: __, ...episode } = await podcasts.episodeFor(ctx.db, ctx.user, input.episodeId)
    return episode
  }),
  visit: protectedProcedure.input(PodcastChannelIdSchema).mutation(({ ctx, input }) => podcasts.markVisited(ctx.db, ctx.user.id, input.channelId)),
  refresh: protectedProcedure
    .use(rateLimit('remote'))
    .input(PodcastRefreshSchema)
    .mutation(({ ctx, input }) => podcasts.refreshForMember(ctx.db, ctx.user, input?.channelId)),
  progress: protectedProcedure.input(PodcastProgressSchema).mutation(({ ctx, input }) => podcasts.saveProgress(ctx.db, ctx.user, input)),
  download: protectedProcedure
    .use(rateLimit('remote'))
    .input(PodcastEpisodeIdSchema)
    .mutation(({ ctx, input }) => podcasts.downloadEpisode(ctx.db, ctx.user, input.episodeId)),
  deleteDownload: protectedProcedure.input(PodcastEpisodeIdSchema).mutation(({ ctx, input }) => podcasts.deleteDownload(ctx.db, ctx.user, input.episodeId)),
  settings: protectedProcedure.query(async ({ ctx }) => ({ feedsBy: await podcasts.feedsBy(ctx.db) })),
  setSettings: adminProcedure.input(PodcastFeedsBySchema).mutation(({ ctx, input }) => podcasts.setFeedsBy(ctx.db, input.feedsBy)),
})
