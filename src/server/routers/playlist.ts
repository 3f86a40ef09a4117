// playlist: members' play events, interactions, likes and saved play queue, and the public
// promotions list.
// (The remote-folder playlist, GET /playlist?url=, lives in the remote router.)
import { LikeSetSchema, InteractionSchema, PlayEventCreateSchema, PlayEventUpdateSchema, PlayQueueSaveSchema } from '~/shared/validators'
import { config } from '../config'
import * as listening from '../services/listening'
import * as playQueue from '../services/play-queue'
import { advertSettings, listPromotions } from '../services/promotions'
import { createTRPCRouter, protectedProcedure, publicProcedure, rateLimit } from '../trpc/init'

const eventProcedure = protectedProcedure.use(rateLimit('events'))

export const playlistRouter = createTRPCRouter({
  plays: createTRPCRouter({
    create: eventProcedure.input(PlayEventCreateSchema).mutation(({ ctx, input }) => listening.recordPlay(ctx.db, ctx.user.id, input, ctx.client)),
    update: eventProcedure.input(PlayEventUpdateSchema).mutation(({ ctx, input }) => {
      const { playEventId, ...fields } = input
      return listening.updatePlayEvent(ctx.db, ctx.user.id, playEventId, fields)
    }),
  }),
  interactions: createTRPCRouter({
    create: eventProcedure.input(InteractionSchema).mutation(({ ctx, input }) => listening.createInteraction(ctx.db, ctx.user.id, input)),
  }),
  likes: createTRPCRouter({
    list: protectedProcedure.query(({ ctx }) => listening.listLikes(ctx.db, ctx.user.id)),
    set: eventProcedure.input(LikeSetSchema).mutation(({ ctx, input }) => listening.setLike(ctx.db, ctx.user.id, input)),
  }),
  queue: createTRPCRouter({
    get: protectedProcedure.query(({ ctx }) => playQueue.getPlayQueue(ctx.db, ctx.user.id, config.AUTH_SECRET)),
    save: eventProcedure.input(PlayQueueSaveSchema).mutation(({ ctx, input }) => playQueue.savePlayQueue(ctx.db, ctx.user.id, input, ctx.client.userAgent)),
  }),
  promotions: createTRPCRouter({
    list: publicProcedure.query(async ({ ctx }) => ({ promotions: await listPromotions(ctx.db), adverts: await advertSettings(ctx.db) })),
  }),
})
