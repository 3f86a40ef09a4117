// Members' folders: an ordered list per user (position column). Ownership is part of every
// WHERE clause, so another user's folder is simply not found (404). A folder that cannot play
// is refused when it is saved (400), by whoever saves it: a library path that is no folder
// inside MEDIA_ROOT, or a URL that does not load (refused by the remote policy, an HTTP error,
// nothing answering); so is a second folder with the same path or URL for the same member.
import { InvalidError, NotFoundError } from '../errors'
import { and, count, eq, max } from 'drizzle-orm'
import { reusedWhileUnchanged } from '~/db/change-counter'
import { type Db, isPostgres, postgresPool, type Tables, tablesOf, transaction } from '~/db/engine'
import { preparedFor } from '~/db/prepared'
import { isRemotePath, MAX_FOLDERS_PER_USER, type FolderInput } from '~/shared/validators/folder'
import type { Track } from '~/shared/player/track'
import { normalizeRelPath } from '../media/library-path'
import { folderNotInLibrary, libraryFolder, listLibraryFolder } from './library'

export const FOLDER_NOT_FOUND = 'Folder not found'

/** The API shape of a folder (_id, as the original client reads it, plus id). */
export type FolderDto = { _id: string; id: string; label: string; path: string; createdAt: string }

const columnsOf = ({ folders }: Tables) => ({ id: folders.id, label: folders.label, path: folders.path, createdAt: folders.createdAt })
const toDto = (f: { id: string; label: string; path: string; createdAt: Date }): FolderDto => ({
  _id: f.id,
  id: f.id,
  label: f.label,
  path: f.path,
  createdAt: f.createdAt.toISOString(),
})

const notFound = () => new NotFoundError(FOLDER_NOT_FOUND)

// Every page of a member reads this list: one bun:sqlite statement prepared per database, no
// Drizzle query object or row mapping per call (db/prepared.ts, decision 034).
type FolderListRow = { id: string; label: string; path: string; createdAt: number }
const folderListQuery = preparedFor((db) =>
  db.$client.prepare<FolderListRow, [string]>('SELECT id, label, path, created_at AS createdAt FROM folders WHERE user_id = ? ORDER BY position, created_at'),
)

// Reused while no write has committed since (decision 042). Callers share the list: it is
// frozen, so a caller that changed it would fail loudly instead of changing another's answer.
const folderLists = preparedFor((db) => reusedWhileUnchanged<FolderDto[]>(db))

/**
 * The member's folders in their order, on either engine. SQLite answers at once from the prepared
 * statement and the list reused while unchanged; PostgreSQL reads them fresh, since another node
 * may have just written them (docs/decisions/083).
 */
export function memberFolders(db: Db, userId: string): FolderDto[] | Promise<FolderDto[]> {
  return isPostgres(db) ? readFolders(db, userId) : listFolders(db, userId)
}

// PostgreSQL: one statement the connection prepared once, without Drizzle's query building
// (docs/decisions/103); created_at is bigint milliseconds (int8 as BigInt).
type PostgresFolderRow = { id: string; label: string; path: string; created_at: bigint }

async function readFolders(db: Db, userId: string): Promise<FolderDto[]> {
  const rows = await postgresPool(db)<PostgresFolderRow[]>`
    SELECT id, label, path, created_at FROM folders WHERE user_id = ${userId} ORDER BY position, created_at`
  return rows.map((row) => toDto({ id: row.id, label: row.label, path: row.path, createdAt: new Date(Number(row.created_at)) }))
}

/** SQLite only: `memberFolders` without a promise (the OpenSubsonic and admin paths, still synchronous). */
export function listFolders(db: Db, userId: string): FolderDto[] {
  return folderLists(db)(
    userId,
    () =>
      Object.freeze(
        folderListQuery(db)
          .all(userId)
          .map((row) => Object.freeze(toDto({ ...row, createdAt: new Date(row.createdAt) }))),
      ) as FolderDto[],
  )
}

export async function getFolder(db: Db, userId: string, id: string): Promise<FolderDto> {
  const t = tablesOf(db)
  const { folders } = t
  const [row] = await db
    .select(columnsOf(t))
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
  if (!row) throw notFound()
  return toDto(row)
}

/** Refuses (400) a folder path that cannot play, with a message naming the problem. */
export async function checkFolderPath(path: string): Promise<void> {
  // The remote reader (fetch, address policy, playlist parser) loads with the first URL, not at start-up.
  if (isRemotePath(path)) return (await import('../remote')).checkRemoteFolderUrl(path)
  if (!libraryFolder(path)) throw new InvalidError(folderNotInLibrary(path), 'path')
}

/** What makes two saved paths the same folder: the library path however it is spelled, a URL as parsed. */
function folderKey(path: string): string {
  if (isRemotePath(path)) {
    try {
      return new URL(path).href
    } catch {
      return path
    }
  }
  return `/${normalizeRelPath(path) ?? path}`
}

function refuseTaken(owned: { id: string; path: string }[], path: string, exceptId?: string) {
  const key = folderKey(path)
  const taken = owned.some((f) => f.id !== exceptId && folderKey(f.path) === key)
  if (taken) throw new InvalidError(`You already have a folder with this ${isRemotePath(path) ? 'URL' : 'path'}: ${path}`, 'path')
}

/** Refuses (400) a path the member already has in another folder. */
async function refuseDuplicate(db: Db, userId: string, path: string, exceptId?: string) {
  const { folders } = tablesOf(db)
  refuseTaken(await db.select({ id: folders.id, path: folders.path }).from(folders).where(eq(folders.userId, userId)), path, exceptId)
}

const refuseFull = (n: number) => {
  if (n >= MAX_FOLDERS_PER_USER) throw new InvalidError(`You can keep at most ${MAX_FOLDERS_PER_USER} folders`)
}

export async function createFolder(db: Db, userId: string, input: FolderInput): Promise<FolderDto> {
  // Before the path is checked, so a duplicate URL is refused without fetching it.
  await refuseDuplicate(db, userId, input.path)
  await checkFolderPath(input.path)
  return transaction(db, (tx) => insertFolder(tx, userId, input))
}

/**
 * Appends a folder inside the caller's transaction (the admin's bulk add; its path already
 * checked). A refusal (the path taken, the limit reached) is thrown before anything is written,
 * so the other users' folders in the same transaction stand.
 */
export async function insertFolder(tx: Db, userId: string, input: FolderInput): Promise<FolderDto> {
  const t = tablesOf(tx)
  const { folders } = t
  await refuseDuplicate(tx, userId, input.path)
  const [stats] = await tx
    .select({ n: count(), last: max(folders.position) })
    .from(folders)
    .where(eq(folders.userId, userId))
  refuseFull(Number(stats?.n ?? 0))
  const position = Number(stats?.last ?? -1) + 1
  const [row] = await tx.insert(folders).values({ userId, label: input.label, path: input.path, position }).returning(columnsOf(t))
  return toDto(row)
}

export async function updateFolder(db: Db, userId: string, id: string, input: FolderInput): Promise<FolderDto> {
  // Another user's folder is a 404 whatever the new path; only then is the path judged.
  await getFolder(db, userId, id)
  await refuseDuplicate(db, userId, input.path, id)
  await checkFolderPath(input.path)
  const t = tablesOf(db)
  const { folders } = t
  const [row] = await db
    .update(folders)
    .set({ label: input.label, path: input.path, updatedAt: new Date() })
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .returning(columnsOf(t))
  if (!row) throw notFound()
  return toDto(row)
}

export async function deleteFolder(db: Db, userId: string, id: string): Promise<{ id: string; deleted: true }> {
  const { folders } = tablesOf(db)
  const [row] = await db
    .delete(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .returning({ id: folders.id })
  if (!row) throw notFound()
  return { id: row.id, deleted: true }
}

/** Sets the order; the list must name each of the caller's folders exactly once. */
export async function reorderFolders(db: Db, userId: string, folderIds: string[]): Promise<FolderDto[]> {
  const { folders } = tablesOf(db)
  return transaction(db, async (tx) => {
    const owned = await tx.select({ id: folders.id }).from(folders).where(eq(folders.userId, userId))
    const ownedIds = new Set(owned.map((f) => f.id))
    const given = new Set(folderIds)
    if (given.size !== folderIds.length) throw new InvalidError('folderIds lists a folder more than once', 'folderIds')
    if (given.size !== ownedIds.size || folderIds.some((id) => !ownedIds.has(id)))
      throw new InvalidError('folderIds must list each of your folders exactly once', 'folderIds')
    for (const [position, id] of folderIds.entries())
      await tx
        .update(folders)
        .set({ position })
        .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    const t = tablesOf(tx)
    const rows = await tx.select(columnsOf(t)).from(t.folders).where(eq(t.folders.userId, userId)).orderBy(t.folders.position, t.folders.createdAt)
    return rows.map(toDto)
  })
}

/** A folder's tracks: the server library for a path, the remote reader for a URL. */
export async function folderPlaylist(db: Db, userId: string, id: string, secret: string): Promise<{ folder: FolderDto; tracks: Track[] }> {
  const folder = await getFolder(db, userId, id)
  const tracks = isRemotePath(folder.path)
    ? await (await import('../remote')).loadRemotePlaylist(folder.path)
    : await listLibraryFolder(db, folder.path, secret)
  return { folder, tracks }
}
