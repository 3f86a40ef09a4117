// playlists: a member's own playlists of library tracks and other members' public ones
// (services/playlists.ts), with M3U8 export and import. The service's domain errors become
// tRPC errors here, once.
import {
  PlaylistAddSchema,
  PlaylistCreateSchema,
  PlaylistIdSchema,
  PlaylistImportSchema,
  PlaylistMoveSchema,
  PlaylistRemoveSchema,
  PlaylistReplaceSchema,
  PlaylistUpdateSchema,
} from '~/shared/validators/playlists'
import * as playlists from '../services/playlists'
import { createTRPCRouter, protectedProcedure } from '../trpc/init'
import { plainJson } from '../trpc/transformer'

/**
 * How many entries the playlist page's server render carries: what a 1,600 px tall screen shows
 * of its virtual list (56 px rows in 70% of the viewport) plus a few, so the first HTML has every
 * visible row while each row more is HTML and data to send and hydrate (decision 087).
 */
const OPENING_ENTRIES = 24

/** The one source named by an input (validated to hold exactly one, or none on create). */
function sourceOf(input: { trackIds?: string[]; albumId?: string; trackUrls?: string[] }): playlists.TrackSource | undefined {
  if (input.trackIds) return { trackIds: input.trackIds }
  if (input.albumId) return { albumId: input.albumId }
  if (input.trackUrls) return { trackUrls: input.trackUrls }
  return undefined
}

export const playlistsRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => playlists.listPlaylists(ctx.db, ctx.user.id)),
  byId: protectedProcedure.input(PlaylistIdSchema).query(async ({ ctx, input }) => plainJson(await playlists.getPlaylist(ctx.db, ctx.user.id, input.id))),
  /** The playlist with only its first entries (the page's first paint); `unavailable` counts over all of them. */
  opening: protectedProcedure
    .input(PlaylistIdSchema)
    .query(async ({ ctx, input }) => plainJson(await playlists.getPlaylistOpening(ctx.db, ctx.user.id, input.id, OPENING_ENTRIES))),
  create: protectedProcedure
    .input(PlaylistCreateSchema)
    .mutation(({ ctx, input }) =>
      playlists.createPlaylist(ctx.db, ctx.user.id, { name: input.name, comment: input.comment, public: input.public, source: sourceOf(input) }),
    ),
  update: protectedProcedure
    .input(PlaylistUpdateSchema)
    .mutation(({ ctx, input: { id, ...fields } }) => playlists.updatePlaylist(ctx.db, ctx.user.id, id, fields)),
  delete: protectedProcedure.input(PlaylistIdSchema).mutation(({ ctx, input }) => playlists.deletePlaylist(ctx.db, ctx.user.id, input.id)),
  tracks: createTRPCRouter({
    add: protectedProcedure
      .input(PlaylistAddSchema)
      .mutation(({ ctx, input }) => playlists.addTracks(ctx.db, ctx.user.id, input.id, sourceOf(input)!, input.position)),
    replace: protectedProcedure
      .input(PlaylistReplaceSchema)
      .mutation(({ ctx, input }) => playlists.replaceTracks(ctx.db, ctx.user.id, input.id, { trackIds: input.trackIds })),
    remove: protectedProcedure.input(PlaylistRemoveSchema).mutation(({ ctx, input }) => playlists.removeEntries(ctx.db, ctx.user.id, input.id, input.indexes)),
    move: protectedProcedure.input(PlaylistMoveSchema).mutation(({ ctx, input }) => playlists.moveEntry(ctx.db, ctx.user.id, input.id, input.from, input.to)),
  }),
  m3u8: createTRPCRouter({
    export: protectedProcedure.input(PlaylistIdSchema).query(({ ctx, input }) => playlists.exportM3u8(ctx.db, ctx.user.id, input.id)),
    import: protectedProcedure.input(PlaylistImportSchema).mutation(({ ctx, input }) => playlists.importM3u8(ctx.db, ctx.user.id, input.name, input.m3u8)),
  }),
})
