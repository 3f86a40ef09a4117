// Members' folder playlists of the server music library: the tracks of a folder and below, in
// natural path order, read from the library index (library/scan.ts) — one pipeline for the
// library, no walk of the folder and no tag reading on the request path.
// The index holds what the last scan found. A folder the index does not know that is new on disk
// (changed since the last scan started) asks for a scan and waits for it a few seconds, so a
// folder the admin just added does not stay an empty list; scanForNewFolder has the rules that
// keep members from starting scans at will (decision 027 "Folder playlists", decision 047).
import { statSync } from 'node:fs'
import { NotFoundError } from '../errors'
import type { Db } from '~/db/client'
import { normalizeRelPath, resolveInside } from '../media/library-path'
import { naturalCompare } from '../media/natural'
import { LIBRARY_SELECT, type LibraryRow, playerTrackOf } from '../catalog/track'
import { scanForNewFolder } from '../library/scan'
import { LIBRARY_LIMITS } from '../library/search'
import type { Track } from '~/shared/player/track'

/** How long a playlist of a folder the index does not know yet waits for the scan. */
export const UNINDEXED_WAIT_MS = 5_000
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

const isIndexed = (db: Db, rel: string) => db.$client.query<{ n: number }, [string]>('SELECT 1 AS n FROM library_folders WHERE path = ?').get(rel) !== null

/** The indexed folders under `rel` (itself included) by parent, each parent's in any order. */
function subfolders(db: Db, rel: string): Map<string, string[]> {
  const rows = rel
    ? db.$client
        .query<{ path: string; parent: string | null }, [string, string]>('SELECT path, parent FROM library_folders WHERE path >= ?1 AND path < ?2')
        .all(`${rel}/`, `${rel}0`)
    : db.$client.query<{ path: string; parent: string | null }, []>('SELECT path, parent FROM library_folders WHERE parent IS NOT NULL').all()
  const byParent = new Map<string, string[]>()
  for (const r of rows) {
    const list = byParent.get(r.parent!) ?? []
    list.push(r.path)
    byParent.set(r.parent!, list)
  }
  return byParent
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1)

/**
 * Index rows of the tracks under `rel` in the order a walk of the folder gives: each folder's
 * sub-folders and files sorted together by name (natural order), depth first. Folder by folder
 * over the folder index, so a folder near the top of a million-track library stops at the cap
 * instead of loading every row; it hands the event loop back every ~20 ms.
 */
async function tracksUnder(db: Db, rel: string): Promise<LibraryRow[]> {
  const children = subfolders(db, rel)
  const tracksOf = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.folder = ?`)
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
      ...tracksOf.all(item.folder).map((track) => ({ name: baseName(track.path), item: { track } })),
    ]
    // Reversed onto the stack, so the first in natural order comes out first.
    entries.sort((a, b) => naturalCompare(b.name, a.name))
    for (const e of entries) stack.push(e.item)
  }
  return out
}

/**
 * The tracks of a library folder such as '/music/collection', with signed /media URLs. A folder
 * the index does not know waits (bounded) for a scan first when it is new on disk.
 */
export async function listLibraryFolder(db: Db, folderPath: string, secret: string): Promise<Track[]> {
  const folder = libraryFolder(folderPath)
  if (!folder) throw new NotFoundError(folderNotInLibrary(folderPath))
  if (!isIndexed(db, folder.rel)) await scanForNewFolder(db, folder.dirReal, UNINDEXED_WAIT_MS)
  const rows = await tracksUnder(db, folder.rel)
  return rows.map((r) => playerTrackOf(secret, r))
}
