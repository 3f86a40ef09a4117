// Names for the playlist ids of Listening Analytics: a play from a member's folder carries that
// folder's id, which means nothing to an admin. The analytics query stays as it is (it only groups
// by id); this adds the folder's label, owner, path (a library folder or a remote URL) and how many
// tracks it holds — for a library folder what the library index holds under it (as its playlist
// plays them, up to LIBRARY_LIMITS.tracksPerFolderPlaylist); for a remote folder null, as the server keeps no copy of
// a remote list and the tracks played from it are not its size. Two queries for the page's few
// ids. The player's own sources ('remote': a remote URL or a queue resumed from another device;
// 'local': files on the listener's device) get their names; any other id with no folder (deleted
// since, or a client's own id) stays unnamed.
import { eq, inArray, sql } from 'drizzle-orm'
import { type Db, isPostgres, rows, tablesOf } from '~/db/engine'
import { postgresJson } from '~/db/json-list'
import { isRemotePath } from '~/shared/validators/folder'
import { normalizeRelPath } from '../media/library-path'
import { LIBRARY_LIMITS } from '../library/search'

export type FolderName = { name: string | null; owner: string | null; path: string | null; trackCount: number | null }

const PLAYER_SOURCES: Record<string, string> = { remote: 'Remote URL or resumed queue', local: 'Local files' }

export async function withFolderNames<T extends { playlistId: string }>(db: Db, playlists: readonly T[]): Promise<Array<T & FolderName>> {
  const { folders, users } = tablesOf(db)
  const ids = [...new Set(playlists.map((p) => p.playlistId))]
  const found =
    ids.length === 0
      ? []
      : await db
          .select({ id: folders.id, name: folders.label, owner: users.username, path: folders.path })
          .from(folders)
          .innerJoin(users, eq(users.id, folders.userId))
          .where(inArray(folders.id, ids))
  const counts = await libraryTrackCounts(
    db,
    found.flatMap((f) => {
      const rel = isRemotePath(f.path) ? null : normalizeRelPath(f.path)
      return rel === null ? [] : [[f.id, rel] as const]
    }),
  )
  const byId = new Map(found.map((f) => [f.id, f]))
  return playlists.map((p) => {
    const f = byId.get(p.playlistId)
    if (!f) return { ...p, name: PLAYER_SOURCES[p.playlistId] ?? null, owner: null, path: null, trackCount: null }
    return { ...p, name: f.name, owner: f.owner, path: f.path, trackCount: counts.get(f.id) ?? null }
  })
}

/** Tracks the index holds in each library folder and below ('' is the whole library), in one query. */
async function libraryTrackCounts(db: Db, folderPaths: ReadonlyArray<readonly [id: string, rel: string]>): Promise<Map<string, number>> {
  if (folderPaths.length === 0) return new Map()
  const json = JSON.stringify(folderPaths)
  const counts = await rows<{ id: string; n: number }>(
    db,
    isPostgres(db)
      ? // PostgreSQL: the folder itself, or one whose path starts with "rel/" (whatever the database's collation orders '/' by).
        sql`SELECT f.value ->> 0 AS id,
              (SELECT count(*) FROM library_tracks AS t
                WHERE f.value ->> 1 = '' OR t.folder = f.value ->> 1 OR starts_with(t.folder, (f.value ->> 1) || '/')) AS n
            FROM jsonb_array_elements(${postgresJson(json)}) AS f(value)`
      : // SQLite: the folder itself, or a folder path between "rel/" and "rel0" ('0' follows '/'): its subfolders, on the folder index.
        sql`SELECT f.value ->> '$[0]' AS id,
              (SELECT count(*) FROM library_tracks AS t
                WHERE f.value ->> '$[1]' = '' OR t.folder = f.value ->> '$[1]'
                   OR (t.folder >= (f.value ->> '$[1]') || '/' AND t.folder < (f.value ->> '$[1]') || '0')) AS n
            FROM json_each(${json}) AS f`,
  )
  return new Map(counts.map((r) => [r.id, Math.min(r.n, LIBRARY_LIMITS.tracksPerFolderPlaylist)]))
}
