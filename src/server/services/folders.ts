// Members' folders: an ordered list per user (position column). Ownership is part of every
// WHERE clause, so another user's folder is simply not found (404). A folder that cannot play
// is refused when it is saved (400), by whoever saves it: a library path that is no folder
// inside MEDIA_ROOT, or a URL that does not load (refused by the remote policy, an HTTP error,
// nothing answering); so is a second folder with the same path or URL for the same member.
import { InvalidError, NotFoundError } from '../errors'
import { and, count, eq, max } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { reusedWhileUnchanged } from '~/db/change-counter'
import { preparedFor } from '~/db/prepared'
import { folders } from '~/db/schema'
import { isRemotePath, MAX_FOLDERS_PER_USER, type FolderInput } from '~/shared/validators/folder'
import type { Track } from '~/shared/player/track'
import { normalizeRelPath } from '../media/library-path'
import { folderNotInLibrary, libraryFolder, listLibraryFolder } from './library'

export const FOLDER_NOT_FOUND = 'Folder not found'

/** The API shape of a folder (_id, as the original client reads it, plus id). */
export type FolderDto = { _id: string; id: string; label: string; path: string; createdAt: string }

const columns = { id: folders.id, label: folders.label, path: folders.path, createdAt: folders.createdAt }
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

export function getFolder(db: Db, userId: string, id: string): FolderDto {
  const row = db
    .select(columns)
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .get()
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

/** Refuses (400) a path the member already has in another folder. */
function refuseDuplicate(db: Db, userId: string, path: string, exceptId?: string) {
  const key = folderKey(path)
  const taken = db
    .select({ id: folders.id, path: folders.path })
    .from(folders)
    .where(eq(folders.userId, userId))
    .all()
    .some((f) => f.id !== exceptId && folderKey(f.path) === key)
  if (taken) throw new InvalidError(`You already have a folder with this ${isRemotePath(path) ? 'URL' : 'path'}: ${path}`, 'path')
}

export async function createFolder(db: Db, userId: string, input: FolderInput): Promise<FolderDto> {
  // Before the path is checked, so a duplicate URL is refused without fetching it.
  refuseDuplicate(db, userId, input.path)
  await checkFolderPath(input.path)
  return insertFolder(db, userId, input)
}

/** Appends a folder whose path checkFolderPath already accepted (bulk add checks it once). */
export function insertFolder(db: Db, userId: string, input: FolderInput): FolderDto {
  return db.transaction((tx) => {
    refuseDuplicate(tx as unknown as Db, userId, input.path)
    const stats = tx
      .select({ n: count(), last: max(folders.position) })
      .from(folders)
      .where(eq(folders.userId, userId))
      .get()
    if ((stats?.n ?? 0) >= MAX_FOLDERS_PER_USER) throw new InvalidError(`You can keep at most ${MAX_FOLDERS_PER_USER} folders`)
    const position = (stats?.last ?? -1) + 1
    return toDto(tx.insert(folders).values({ userId, label: input.label, path: input.path, position }).returning(columns).get())
  })
}

export async function updateFolder(db: Db, userId: string, id: string, input: FolderInput): Promise<FolderDto> {
  // Another user's folder is a 404 whatever the new path; only then is the path judged.
  getFolder(db, userId, id)
  refuseDuplicate(db, userId, input.path, id)
  await checkFolderPath(input.path)
  const row = db
    .update(folders)
    .set({ label: input.label, path: input.path, updatedAt: new Date() })
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .returning(columns)
    .get()
  if (!row) throw notFound()
  return toDto(row)
}

export function deleteFolder(db: Db, userId: string, id: string): { id: string; deleted: true } {
  const row = db
    .delete(folders)
    .where(and(eq(folders.id, id), eq(folders.userId, userId)))
    .returning({ id: folders.id })
    .get()
  if (!row) throw notFound()
  return { id: row.id, deleted: true }
}

/** Sets the order; the list must name each of the caller's folders exactly once. */
export function reorderFolders(db: Db, userId: string, folderIds: string[]): FolderDto[] {
  return db.transaction((tx) => {
    const owned = tx.select({ id: folders.id }).from(folders).where(eq(folders.userId, userId)).all()
    const ownedIds = new Set(owned.map((f) => f.id))
    const given = new Set(folderIds)
    if (given.size !== folderIds.length) throw new InvalidError('folderIds lists a folder more than once', 'folderIds')
    if (given.size !== ownedIds.size || folderIds.some((id) => !ownedIds.has(id)))
      throw new InvalidError('folderIds must list each of your folders exactly once', 'folderIds')
    folderIds.forEach((id, position) => {
      tx.update(folders)
        .set({ position })
        .where(and(eq(folders.id, id), eq(folders.userId, userId)))
        .run()
    })
    // The outer handle: its prepared statement runs on the same connection, inside this transaction.
    return listFolders(db, userId)
  })
}

/** A folder's tracks: the server library for a path, the remote reader for a URL. */
export async function folderPlaylist(db: Db, userId: string, id: string, secret: string): Promise<{ folder: FolderDto; tracks: Track[] }> {
  const folder = getFolder(db, userId, id)
  const tracks = isRemotePath(folder.path)
    ? await (await import('../remote')).loadRemotePlaylist(folder.path)
    : await listLibraryFolder(db, folder.path, secret)
  return { folder, tracks }
}
