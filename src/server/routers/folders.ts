// folders: a member's ordered folder list and each folder's playlist.
import { FolderIdSchema, FolderReorderSchema, FolderSchema, FolderUpdateSchema } from '~/shared/validators'
import { config } from '../config'
import * as folders from '../services/folders'
import { createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'

export const foldersRouter = createTRPCRouter({
  list: protectedProcedure.query(({ ctx }) => folders.memberFolders(ctx.db, ctx.user.id)),
  byId: protectedProcedure.input(FolderIdSchema).query(({ ctx, input }) => folders.getFolder(ctx.db, ctx.user.id, input.id)),
  create: protectedProcedure.input(FolderSchema).mutation(({ ctx, input }) => folders.createFolder(ctx.db, ctx.user.id, input)),
  update: protectedProcedure.input(FolderUpdateSchema).mutation(({ ctx, input: { id, ...data } }) => folders.updateFolder(ctx.db, ctx.user.id, id, data)),
  delete: protectedProcedure.input(FolderIdSchema).mutation(({ ctx, input }) => folders.deleteFolder(ctx.db, ctx.user.id, input.id)),
  reorder: protectedProcedure.input(FolderReorderSchema).mutation(({ ctx, input }) => folders.reorderFolders(ctx.db, ctx.user.id, input.folderIds)),
  /** The folder and its tracks (the REST path answers the track list alone, as docs/rest-api.md says). */
  playlist: protectedProcedure
    .use(rateLimit('remote'))
    .input(FolderIdSchema)
    .query(({ ctx, input }) => folders.folderPlaylist(ctx.db, ctx.user.id, input.id, config.AUTH_SECRET)),
})
