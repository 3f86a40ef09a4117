// Members' folder playlists of the server music library: the tracks of a folder and below, in
// natural path order, read from the library index (library/scan.ts) — one pipeline for the
// library, no walk of the folder and no tag reading on the request path.
// The index holds what the last scan found. A folder that changed on disk since the last finished
// scan started (new, or files added or removed while or after a scan walked it) waits a few
// seconds for a scan that covers it, so a folder the admin just added or filled is not listed
// empty or half; scanForChangedFolder has the rules that keep members from starting scans at
// will (decision 027 "Folder playlists", decisions 047 and 095).
import { statSync } from 'node:fs'
import { NotFoundError } from '../errors'
import { sql } from 'drizzle-orm'
import { type Db, isPostgres, rows } from '~/db/engine'
import { normalizeRelPath, resolveInside } from '../media/library-path'
import { naturalCompare } from '../media/natural'
import { LIBRARY_SELECT, type LibraryRow, playerTrackOf } from '../catalog/track'
import { scanForChangedFolder } from '../library/scan'
import { LIBRARY_LIMITS } from '../library/search'
import type { Track } from '~/shared/player/track'

/** How long a playlist of a folder changed since the last scan waits for one that covers it. */
export const CHANGED_FOLDER_WAIT_MS = 5_000
const SLICE_MS = 20

export const folderNotInLibrary = (folderPath: string) => `Folder not found in the music library: ${folderPath}`

/** A folder path such as '/music/collection' as a directory inside MEDIA_ROOT, or null. */
export function libraryFolder(folderPath: string): { rel: string; dirReal: string } | null {
  const rel = normalizeRelPath(folderPath)
  const dirReal = rel === null ? null : resolveInside(rel)
  try {
    return rel !== null && dirReal && statSync(dirReal).isDirectory() ? { rel, dirReal } : null
  } catch {
    return null
  }
}

/** The indexed folders under `rel` (itself included) by parent, each parent's in any order. */
async function subfolders(db: Db, rel: string): Promise<Map<string, string[]>> {
  // `path >= 'a/' AND path < 'a0'` (the character after '/') is every path below 'a': byte order,
  // so PostgreSQL compares with COLLATE "C" as SQLite does.
  const found = await rows<{ path: string; parent: string | null }>(
    db,
    rel
      ? isPostgres(db)
        ? sql`SELECT path, parent FROM library_folders WHERE path COLLATE "C" >= ${`${rel}/`} AND path COLLATE "C" < ${`${rel}0`}`
        : sql`SELECT path, parent FROM library_folders WHERE path >= ${`${rel}/`} AND path < ${`${rel}0`}`
      : sql`SELECT path, parent FROM library_folders WHERE parent IS NOT NULL`,
  )
  const byParent = new Map<string, string[]>()
  for (const r of found) {
    const list = byParent.get(r.parent!) ?? []
    list.push(r.path)
    byParent.set(r.parent!, list)
  }
  return byParent
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/** The index rows of one folder's own tracks, a query per folder. */
function folderTracksReader(db: Db): (folder: string) => LibraryRow[] | Promise<LibraryRow[]> {
  // PostgreSQL:
  if (isPostgres(db)) return (folder) => rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.folder = ${folder}`)
  // SQLite: one prepared statement for the whole walk (thousands of folders).
  const query = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.folder = ?`)
  return (folder) => query.all(folder)
}

/**
 * Index rows of the tracks under `rel` in the order a walk of the folder gives: each folder's
 * sub-folders and files sorted together by name (natural order), depth first. Folder by folder
 * over the folder index, so a folder near the top of a million-track library stops at the cap
 * instead of loading every row; it hands the event loop back every ~20 ms.
 */
async function tracksUnder(db: Db, rel: string): Promise<LibraryRow[]> {
  const children = await subfolders(db, rel)
  const tracksOf = folderTracksReader(db)
  const out: LibraryRow[] = []
  type Item = { folder: string } | { track: LibraryRow }
  const stack: Item[] = [{ folder: rel }]
  let since = performance.now()
  while (stack.length && out.length < LIBRARY_LIMITS.tracksPerFolderPlaylist) {
    const item = stack.pop()!
    if ('track' in item) {
      out.push(item.track)
      continue
    }
    if (performance.now() - since >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      since = performance.now()
    }
    const entries: Array<{ name: string; item: Item }> = [
      ...(children.get(item.folder) ?? []).map((folder) => ({ name: baseName(folder), item: { folder } })),
      ...(await tracksOf(item.folder)).map((track) => ({ name: baseName(track.path), item: { track } })),
    ]
    // Reversed onto the stack, so the first in natural order comes out first.
    entries.sort((a, b) => naturalCompare(b.name, a.name))
    for (const e of entries) stack.push(e.item)
  }
  return out
}

/**
 * The tracks of a library folder such as '/music/collection', with signed /media URLs. A folder
 * that changed on disk since the last scan started waits (bounded) for a scan that covers it.
 */
export async function listLibraryFolder(db: Db, folderPath: string, secret: string): Promise<Track[]> {
  const folder = libraryFolder(folderPath)
  if (!folder) throw new NotFoundError(folderNotInLibrary(folderPath))
  await scanForChangedFolder(db, folder.dirReal, CHANGED_FOLDER_WAIT_MS)
  const rows = await tracksUnder(db, folder.rel)
  return rows.map((r) => playerTrackOf(secret, r))
}
