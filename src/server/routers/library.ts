// library: the indexed server library for members (search, albums, artists, genres, songs, the
// folder tree, the member's liked songs, ratings and bookmarks) and, for admins, the scanner's
// status and an on-demand scan.
import {
  LibraryAlbumListSchema,
  LibraryBookmarkSchema,
  LibraryRatingSchema,
  LibraryTrackUrlSchema,
  LibraryFolderSchema,
  LibraryIdSchema,
  LibraryLyricsSchema,
  LibraryPageSchema,
  LibraryScanSchema,
  LibrarySearchSchema,
  LibraryTrackListSchema,
} from '~/shared/validators/library'
import { config } from '../config'
import { requestScan, scanStatus } from '../library/scan'
import { recordAudit } from '../services/audit'
import * as library from '../services/library-index'
import { likedTracks } from '../services/liked-songs'
import { lyricsOfTrack } from '../services/lyrics'
import { bookmarkOf, deleteBookmark, saveBookmark, trackIdOfMediaUrl } from '../services/bookmarks'
import { setRating, songRatings } from '../services/ratings'
import { adminProcedure, createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

const secret = () => config.AUTH_SECRET
// Ratings and bookmarks are written as the player goes, as likes are: the same per-member event limit.
const markProcedure = protectedProcedure.use(rateLimit('events'))

export const libraryRouter = createTRPCRouter({
  search: protectedProcedure.input(LibrarySearchSchema).query(({ ctx, input }) => library.search(ctx.db, secret(), input)),
  albums: createTRPCRouter({
    list: protectedProcedure.input(LibraryAlbumListSchema).query(({ ctx, input }) => library.listAlbums(ctx.db, secret(), input)),
    byId: protectedProcedure.input(LibraryIdSchema).query(({ ctx, input }) => library.getAlbum(ctx.db, secret(), input.id)),
  }),
  artists: createTRPCRouter({
    list: protectedProcedure.input(LibraryPageSchema).query(({ ctx, input }) => library.listArtists(ctx.db, secret(), input)),
    byId: protectedProcedure.input(LibraryIdSchema).query(({ ctx, input }) => library.getArtist(ctx.db, secret(), input.id)),
  }),
  genres: createTRPCRouter({
    list: protectedProcedure.query(({ ctx }) => library.listGenres(ctx.db)),
  }),
  tracks: createTRPCRouter({
    list: protectedProcedure.input(LibraryTrackListSchema).query(({ ctx, input }) => library.listTracks(ctx.db, secret(), ctx.user.id, input)),
  }),
  ratings: createTRPCRouter({
    list: protectedProcedure.query(({ ctx }) => songRatings(ctx.db, ctx.user.id)),
    set: markProcedure.input(LibraryRatingSchema).mutation(async ({ ctx, input }) => {
      await setRating(ctx.db, ctx.user.id, input.id, input.rating)
      return input
    }),
  }),
  // By the track's /media/ URL, as the web player holds it (OpenSubsonic's bookmarks go by id).
  bookmarks: createTRPCRouter({
    /** The member's bookmark of one song, or null. */
    get: protectedProcedure
      .input(LibraryTrackUrlSchema)
      .query(async ({ ctx, input }) => ({ bookmark: await bookmarkOf(ctx.db, ctx.user.id, await trackIdOfMediaUrl(ctx.db, input.url)) })),
    save: markProcedure.input(LibraryBookmarkSchema).mutation(async ({ ctx, input }) => ({
      bookmark: await saveBookmark(ctx.db, ctx.user.id, await trackIdOfMediaUrl(ctx.db, input.url), input.positionMs, input.comment),
    })),
    remove: markProcedure.input(LibraryTrackUrlSchema).mutation(async ({ ctx, input }) => {
      await deleteBookmark(ctx.db, ctx.user.id, await trackIdOfMediaUrl(ctx.db, input.url))
      return { ok: true }
    }),
  }),
  liked: protectedProcedure.query(({ ctx }) => likedTracks(ctx.db, secret(), ctx.user.id)),
  lyrics: protectedProcedure.input(LibraryLyricsSchema).query(({ ctx, input }) => lyricsOfTrack(ctx.db, input.url)),
  folder: protectedProcedure.input(LibraryFolderSchema).query(({ ctx, input }) => library.listFolder(ctx.db, secret(), input.path)),
  scan: createTRPCRouter({
    status: adminProcedure.query(({ ctx }) => scanStatus(ctx.db)),
    start: adminProcedure.input(LibraryScanSchema).mutation(async ({ ctx, input }) => {
      await requestScan(ctx.db, { full: input.full === true })
      await recordAudit(ctx.db, ctx.user, 'library.scan', '', input.full === true ? 'full' : 'quick')
      return scanStatus(ctx.db)
    }),
  }),
})
