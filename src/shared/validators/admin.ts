// Inputs of the admin area's users, folders and messages procedures. The folder
// fields are the members' FolderSchema, so the admin dialog and the server agree on every message.
import { z } from 'zod'
import { FolderSchema } from './folder'

const id = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${what} is required` : `${what} must be text`) })
    .trim()
    .min(1, `${what} is required`)
    .max(64, `${what} is too long`)
const flag = (name: string) => z.boolean({ error: `${name} must be true or false` })

export const userIdField = id('User id')
export const AdminUserIdSchema = z.strictObject({ id: userIdField })
export const AdminUserRoleSchema = z.strictObject({ id: userIdField, isAdmin: flag('isAdmin') })

export const AdminUserFoldersSchema = z.strictObject({ userId: userIdField })
export const AdminFolderCreateSchema = FolderSchema.extend({ userId: userIdField })
export const AdminFolderUpdateSchema = FolderSchema.extend({ userId: userIdField, folderId: id('Folder id') })
export const AdminFolderDeleteSchema = z.strictObject({ userId: userIdField, folderId: id('Folder id') })

/** One bulk add reaches at most this many users (the request stays small and the write short). */
export const BULK_ADD_MAX_USERS = 1000
export const BulkAddFoldersSchema = FolderSchema.extend({
  userIds: z
    .array(userIdField, { error: 'userIds must be a list of user ids' })
    .min(1, 'Select at least one user')
    .max(BULK_ADD_MAX_USERS, `userIds may list at most ${BULK_ADD_MAX_USERS} users`),
})
export type BulkAddFoldersInput = z.infer<typeof BulkAddFoldersSchema>

export const MESSAGE_FILTERS = ['all', 'unread', 'important'] as const
export type MessageFilter = (typeof MESSAGE_FILTERS)[number]
export const MESSAGES_PAGE_DEFAULT = 50
export const MESSAGES_PAGE_MAX = 100

// Query-string values arrive as strings: the page size is coerced, an empty filter means all.
export const AdminMessageListSchema = z
  .strictObject({
    filter: z
      .preprocess((v) => (v === '' ? undefined : v), z.enum(MESSAGE_FILTERS, { error: 'filter must be one of all, unread, important' }).optional())
      .default('all'),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(MESSAGES_PAGE_MAX, `limit must be at most ${MESSAGES_PAGE_MAX}`)
      .default(MESSAGES_PAGE_DEFAULT),
    /** The last message of the previous page (opaque to clients). */
    cursor: z.string().max(200, 'cursor is too long').nullish(),
    /** Sent by tRPC's infinite queries; pages only go forward. */
    direction: z.enum(['forward', 'backward'], { error: 'direction must be forward or backward' }).optional(),
  })
  .optional()
  .default({ filter: 'all', limit: MESSAGES_PAGE_DEFAULT })
export type AdminMessageListInput = z.infer<typeof AdminMessageListSchema>

export const AdminMessageIdSchema = z.strictObject({ id: id('Message id') })
export const AdminMessageUpdateSchema = z
  .strictObject({ id: id('Message id'), read: flag('read').optional(), important: flag('important').optional() })
  .refine((m) => m.read !== undefined || m.important !== undefined, 'Provide read or important')

// The dashboard's Recent Activities and the audit log: how many of the newest entries.
export const ACTIVITY_LIMIT_MAX = 100
export const AdminActivitySchema = z
  .strictObject({
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(ACTIVITY_LIMIT_MAX, `limit must be at most ${ACTIVITY_LIMIT_MAX}`)
      .default(10),
  })
  .optional()
  .default({ limit: 10 })
