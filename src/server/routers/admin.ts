// admin: user management, any user's folders (with bulk add), the contact inbox, the adverts
// (their chance and the promotions they show), and the audit log with the dashboard's Recent
// Activities. Every procedure is adminProcedure (401 without a token, 403 for a member); logic
// lives in the services. Each console change, once it succeeded, is written to the audit log with
// the acting admin (services/audit.ts).
import {
  AdminActivitySchema,
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
import { listAudit, recentActivities, recordAudit } from '../services/audit'
import * as folders from '../services/folders'
import * as messages from '../services/messages'
import * as promotions from '../services/promotions'
import { adminProcedure, createTRPCRouter } from '../trpc/init'

export const adminRouter = createTRPCRouter({
  users: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => users.listUsers(ctx.db)),
    delete: adminProcedure.input(AdminUserIdSchema).mutation(async ({ ctx, input }) => {
      const { username } = await users.requireUser(ctx.db, input.id)
      const deleted = await users.deleteUser(ctx.db, ctx.user.id, input.id)
      await recordAudit(ctx.db, ctx.user, 'user.delete', username)
      return deleted
    }),
    setRole: adminProcedure.input(AdminUserRoleSchema).mutation(async ({ ctx, input }) => {
      const user = await users.setUserRole(ctx.db, ctx.user.id, input.id, input.isAdmin)
      await recordAudit(ctx.db, ctx.user, 'user.role', user.username, user.isAdmin ? 'admin' : 'member')
      return user
    }),
  }),

  // Another user's folders: the member services with that user's id, after a 404 check on the user.
  folders: createTRPCRouter({
    list: adminProcedure.input(AdminUserFoldersSchema).query(async ({ ctx, input }) => {
      await users.requireUser(ctx.db, input.userId)
      return folders.memberFolders(ctx.db, input.userId)
    }),
    create: adminProcedure.input(AdminFolderCreateSchema).mutation(async ({ ctx, input: { userId, ...data } }) => {
      const owner = await users.requireUser(ctx.db, userId)
      const folder = await folders.createFolder(ctx.db, userId, data)
      await recordAudit(ctx.db, ctx.user, 'folder.create', `"${folder.label}" for ${owner.username}`, folder.path)
      return folder
    }),
    update: adminProcedure.input(AdminFolderUpdateSchema).mutation(async ({ ctx, input: { userId, folderId, ...data } }) => {
      const owner = await users.requireUser(ctx.db, userId)
      const folder = await folders.updateFolder(ctx.db, userId, folderId, data)
      await recordAudit(ctx.db, ctx.user, 'folder.update', `"${folder.label}" of ${owner.username}`, folder.path)
      return folder
    }),
    delete: adminProcedure.input(AdminFolderDeleteSchema).mutation(async ({ ctx, input }) => {
      const owner = await users.requireUser(ctx.db, input.userId)
      const folder = await folders.getFolder(ctx.db, input.userId, input.folderId)
      const deleted = await folders.deleteFolder(ctx.db, input.userId, input.folderId)
      await recordAudit(ctx.db, ctx.user, 'folder.delete', `"${folder.label}" of ${owner.username}`, folder.path)
      return deleted
    }),
    bulkAdd: adminProcedure.input(BulkAddFoldersSchema).mutation(async ({ ctx, input }) => {
      const result = await users.bulkAddFolder(ctx.db, input)
      const added = result.successful.length
      if (added > 0) await recordAudit(ctx.db, ctx.user, 'folder.bulk-add', `"${input.label}"`, added === 1 ? '1 user' : `${added} users`)
      return result
    }),
  }),

  messages: createTRPCRouter({
    list: adminProcedure.input(AdminMessageListSchema).query(({ ctx, input }) => messages.listMessages(ctx.db, input)),
    byId: adminProcedure.input(AdminMessageIdSchema).query(({ ctx, input }) => messages.getMessage(ctx.db, input.id)),
    update: adminProcedure.input(AdminMessageUpdateSchema).mutation(async ({ ctx, input: { id, ...flags } }) => {
      const message = await messages.updateMessage(ctx.db, id, flags)
      const marks = [
        flags.read === undefined ? '' : flags.read ? 'read' : 'unread',
        flags.important === undefined ? '' : flags.important ? 'important' : 'not important',
      ]
      await recordAudit(ctx.db, ctx.user, 'message.update', message.subject, marks.filter(Boolean).join(' and '))
      return message
    }),
    delete: adminProcedure.input(AdminMessageIdSchema).mutation(async ({ ctx, input }) => {
      const { subject } = await messages.getMessage(ctx.db, input.id)
      const deleted = await messages.deleteMessage(ctx.db, input.id)
      await recordAudit(ctx.db, ctx.user, 'message.delete', subject)
      return deleted
    }),
  }),

  adverts: createTRPCRouter({
    get: adminProcedure.query(async ({ ctx }) => ({ ...(await promotions.advertSettings(ctx.db)), promotions: await promotions.listAllPromotions(ctx.db) })),
    setSettings: adminProcedure.input(AdvertSettingsSchema).mutation(async ({ ctx, input }) => {
      const settings = await promotions.setAdvertSettings(ctx.db, input)
      await recordAudit(ctx.db, ctx.user, 'adverts.update', '', settings.enabled ? `on, ${settings.chancePercent} % of track changes` : 'off')
      return settings
    }),
  }),
  promotions: createTRPCRouter({
    create: adminProcedure.input(PromotionCreateSchema).mutation(async ({ ctx, input }) => {
      const promotion = await promotions.createPromotion(ctx.db, input)
      await recordAudit(ctx.db, ctx.user, 'promotion.create', promotion.title)
      return promotion
    }),
    update: adminProcedure.input(PromotionUpdateSchema).mutation(async ({ ctx, input }) => {
      const promotion = await promotions.updatePromotion(ctx.db, input)
      await recordAudit(ctx.db, ctx.user, 'promotion.update', promotion.title)
      return promotion
    }),
    delete: adminProcedure.input(PromotionIdSchema).mutation(async ({ ctx, input }) => {
      const deleted = await promotions.deletePromotion(ctx.db, input.id)
      await recordAudit(ctx.db, ctx.user, 'promotion.delete', input.id)
      return deleted
    }),
  }),
  activity: adminProcedure.input(AdminActivitySchema).query(({ ctx, input }) => recentActivities(ctx.db, input.limit)),
  audit: adminProcedure.input(AdminActivitySchema).query(({ ctx, input }) => listAudit(ctx.db, input.limit)),
})
