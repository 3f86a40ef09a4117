// Admin user management: list, delete, grant or revoke admin (never one's own account or flag,
// never another admin's account until their flag is revoked), and the per-user folder calls, which reuse the members' folder services once
// the target user is known to exist.
import { DomainError, InvalidError, NotFoundError } from '../errors'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { type Db, type Tables, tablesOf, transaction } from '~/db/engine'
import type { BulkAddFoldersInput } from '~/shared/validators/admin'
import { deleteUserSessions } from '../auth/sessions'
import { checkFolderPath, insertFolder, type FolderDto } from './folders'

export const USER_NOT_FOUND = 'User not found'
export const CANNOT_DELETE_SELF = 'You cannot delete your own account.'
export const CANNOT_CHANGE_OWN_ROLE = 'You cannot modify your own admin rights.'
export const CANNOT_DELETE_ADMIN = 'You cannot delete an admin account. Revoke their admin rights first.'
export const FOLDER_ALREADY_THERE = 'User already has a folder with this path'

/** The admin list's user (_id and id alike; never the password hash). */
export type AdminUserDto = { _id: string; id: string; username: string; email: string; isAdmin: boolean; createdAt: string }

const columnsOf = ({ users }: Tables) => ({ id: users.id, username: users.username, email: users.email, isAdmin: users.isAdmin, createdAt: users.createdAt })
const toDto = (u: { id: string; username: string; email: string; isAdmin: boolean; createdAt: Date }): AdminUserDto => ({
  _id: u.id,
  id: u.id,
  username: u.username,
  email: u.email,
  isAdmin: u.isAdmin,
  createdAt: u.createdAt.toISOString(),
})

const notFound = () => new NotFoundError(USER_NOT_FOUND)

/** Every account, newest first. */
export async function listUsers(db: Db): Promise<AdminUserDto[]> {
  const t = tablesOf(db)
  const rows = await db.select(columnsOf(t)).from(t.users).orderBy(desc(t.users.createdAt), desc(t.users.id))
  return rows.map(toDto)
}

export async function requireUser(db: Db, id: string): Promise<AdminUserDto> {
  const t = tablesOf(db)
  const [row] = await db.select(columnsOf(t)).from(t.users).where(eq(t.users.id, id))
  if (!row) throw notFound()
  return toDto(row)
}

/**
 * Deletes another, non-admin account. The foreign keys remove its folders, sessions (so its
 * tokens answer 401), likes and reset tokens; play events, interactions and logins keep their
 * rows with the user set to null, so analytics stay whole.
 */
export async function deleteUser(db: Db, actorId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (id === actorId) throw new InvalidError(CANNOT_DELETE_SELF)
  const { users } = tablesOf(db)
  return transaction(db, async (tx) => {
    const [target] = await tx.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(eq(users.id, id))
    if (!target) throw notFound()
    if (target.isAdmin) throw new InvalidError(CANNOT_DELETE_ADMIN)
    await tx.delete(users).where(eq(users.id, id))
    return { id, deleted: true as const }
  })
}

/**
 * Grants or revokes admin; a real change ends every session of that user (old tokens → 401, on
 * every node: PostgreSQL nodes read sessions fresh).
 */
export async function setUserRole(db: Db, actorId: string, id: string, isAdmin: boolean): Promise<AdminUserDto> {
  if (id === actorId) throw new InvalidError(CANNOT_CHANGE_OWN_ROLE)
  const t = tablesOf(db)
  const { users } = t
  return transaction(db, async (tx) => {
    const [before] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id))
    if (!before) throw notFound()
    const [row] = await tx.update(users).set({ isAdmin }).where(eq(users.id, id)).returning(columnsOf(t))
    if (before.isAdmin !== isAdmin) await deleteUserSessions(tx, id)
    return toDto(row)
  })
}

export type BulkAddResult = {
  successful: Array<{ userId: string; username: string; folder: FolderDto }>
  failed: Array<{ userId: string; username: string | null; error: string }>
}

/**
 * Adds one folder to many users in one transaction. Each user succeeds or fails on its own: an
 * unknown id, a user already holding a folder with this path (so a repeated bulk add does not
 * duplicate) or a user at the folder limit lands in `failed` with the reason.
 */
export async function bulkAddFolder(db: Db, input: BulkAddFoldersInput): Promise<BulkAddResult> {
  // One path for every user: a folder that cannot play is refused once, for all of them.
  await checkFolderPath(input.path)
  const ids = [...new Set(input.userIds)]
  const result: BulkAddResult = { successful: [], failed: [] }
  const { users, folders } = tablesOf(db)
  await transaction(db, async (tx) => {
    const found = new Map(
      (await tx.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids))).map((u) => [u.id, u.username]),
    )
    const holders = new Set(
      (
        await tx
          .select({ userId: folders.userId })
          .from(folders)
          .where(and(inArray(folders.userId, ids), eq(folders.path, input.path)))
      ).map((f) => f.userId),
    )
    for (const userId of ids) {
      const username = found.get(userId)
      if (username === undefined) {
        result.failed.push({ userId, username: null, error: USER_NOT_FOUND })
        continue
      }
      if (holders.has(userId)) {
        result.failed.push({ userId, username, error: FOLDER_ALREADY_THERE })
        continue
      }
      try {
        // A refusal is thrown before that user's insert: the others' folders stand.
        const folder = await insertFolder(tx, userId, { label: input.label, path: input.path })
        result.successful.push({ userId, username, folder })
      } catch (error) {
        if (!(error instanceof DomainError)) throw error
        result.failed.push({ userId, username, error: error.message })
      }
    }
  })
  return result
}
