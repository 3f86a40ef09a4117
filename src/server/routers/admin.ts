// admin: user management, any user's folders (with bulk add), the contact inbox, and the adverts
// (their chance and the promotions they show). Every
// procedure is adminProcedure (401 without a token, 403 for a member); logic lives in the
// admin-users, folders and messages services.
import {
  AdminFolderCreateSchema,
  AdminFolderDeleteSchema,
  AdminFolderUpdateSchema,
  AdminMessageIdSchema,
  AdminMessageListSchema,
  AdminMessageUpdateSchema,
  AdminUserFoldersSchema,
  AdminUserIdSchema,
  AdminUserRoleSchema,
  BulkAddFoldersSchema,
} from '~/shared/validators/admin'
import { AdvertSettingsSchema, PromotionCreateSchema, PromotionIdSchema, PromotionUpdateSchema } from '~/shared/validators/adverts'
import * as users from '../services/admin-users'
import * as folders from '../services/folders'
import * as messages from '../services/messages'
import * as promotions from '../services/promotions'
import { adminProcedure, createTRPCRouter } from '../trpc/init'

export const adminRouter = createTRPCRouter({
  users: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => users.listUsers(ctx.db)),
    delete: adminProcedure.input(AdminUserIdSchema).mutation(({ ctx, input }) => users.deleteUser(ctx.db, ctx.user.id, input.id)),
    setRole: adminProcedure.input(AdminUserRoleSchema).mutation(({ ctx, input }) => users.setUserRole(ctx.db, ctx.user.id, input.id, input.isAdmin)),
  }),

  // Another user's folders: the member services with that user's id, after a 404 check on the user.
  folders: createTRPCRouter({
    list: adminProcedure.input(AdminUserFoldersSchema).query(({ ctx, input }) => {
      users.requireUser(ctx.db, input.userId)
      return folders.listFolders(ctx.db, input.userId)
    }),
    create: adminProcedure.input(AdminFolderCreateSchema).mutation(({ ctx, input: { userId, ...data } }) => {
      users.requireUser(ctx.db, userId)
      return folders.createFolder(ctx.db, userId, data)
    }),
    update: adminProcedure.input(AdminFolderUpdateSchema).mutation(({ ctx, input: { userId, folderId, ...data } }) => {
      users.requireUser(ctx.db, userId)
      return folders.updateFolder(ctx.db, userId, folderId, data)
    }),
    delete: adminProcedure.input(AdminFolderDeleteSchema).mutation(({ ctx, input }) => {
      users.requireUser(ctx.db, input.userId)
      return folders.deleteFolder(ctx.db, input.userId, input.folderId)
    }),
    bulkAdd: adminProcedure.input(BulkAddFoldersSchema).mutation(({ ctx, input }) => users.bulkAddFolder(ctx.db, input)),
  }),

  messages: createTRPCRouter({
    list: adminProcedure.input(AdminMessageListSchema).query(({ ctx, input }) => messages.listMessages(ctx.db, input)),
    byId: adminProcedure.input(AdminMessageIdSchema).query(({ ctx, input }) => messages.getMessage(ctx.db, input.id)),
    update: adminProcedure.input(AdminMessageUpdateSchema).mutation(({ ctx, input: { id, ...flags } }) => messages.updateMessage(ctx.db, id, flags)),
    delete: adminProcedure.input(AdminMessageIdSchema).mutation(({ ctx, input }) => messages.deleteMessage(ctx.db, input.id)),
  }),

  adverts: createTRPCRouter({
    get: adminProcedure.query(({ ctx }) => ({ ...promotions.advertSettings(ctx.db), promotions: promotions.listAllPromotions(ctx.db) })),
    setSettings: adminProcedure.input(AdvertSettingsSchema).mutation(({ ctx, input }) => promotions.setAdvertSettings(ctx.db, input)),
  }),
  promotions: createTRPCRouter({
    create: adminProcedure.input(PromotionCreateSchema).mutation(({ ctx, input }) => promotions.createPromotion(ctx.db, input)),
    update: adminProcedure.input(PromotionUpdateSchema).mutation(({ ctx, input }) => promotions.updatePromotion(ctx.db, input)),
    delete: adminProcedure.input(PromotionIdSchema).mutation(({ ctx, input }) => promotions.deletePromotion(ctx.db, input.id)),
  }),
})
