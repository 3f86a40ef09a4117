// A member's liked songs as the library index holds them: the one query behind the web player's
// Liked songs page (library.liked) and OpenSubsonic's getStarred2 and `starred` marks, so an app
// and the web show the same list. A like is kept per title (services/listening.ts); one made on a
// library or member-folder track also records its /media/ URL and so names that file, while one
// made without a library URL (a local file, a remote track) names every library song of that title.
import { sql } from 'drizzle-orm'
import { type Db, rows } from '~/db/engine'
import { listOf } from '~/db/json-list'
import type { LibraryTrack } from '~/shared/library'
import { mediaPathOf } from '../media/request-rules'
import { naturalCompare } from '../media/natural'
import { LIBRARY_SELECT, type LibraryRow, trackOf } from '../catalog/track'

/** What the member likes now (ms of the like), by library path and, for likes without one, by title. */
export type Starred = { byPath: Map<string, number>; byTitle: Map<string, number> }

export async function starredOf(db: Db, userId: string): Promise<Starred> {
  const likes = await rows<{ title: string; url: string | null; at: number }>(
    db,
    sql`SELECT track_key AS title, track_url AS url, updated_at AS at FROM likes WHERE user_id = ${userId} AND liked`,
  )
  const starred: Starred = { byPath: new Map(), byTitle: new Map() }
  for (const r of likes) {
    const path = r.url ? mediaPathOf(new URL(r.url, 'http://x').pathname) : null
    if (path) starred.byPath.set(path, r.at)
    else starred.byTitle.set(r.title, r.at)
  }
  return starred
}

/** When the member liked this song (ms), or undefined. */
export const likedAt = (starred: Starred, r: Pick<LibraryRow, 'path' | 'title'>) => starred.byPath.get(r.path) ?? starred.byTitle.get(r.title)

/**
 * The library songs the member has starred: those liked by path, and every song titled as a like
 * made without a library URL — most recent like first.
 */
export async function starredSongs(db: Db, starred: Starred): Promise<LibraryRow[]> {
  const paths = [...starred.byPath.keys()]
  const byPath = paths.length === 0 ? [] : await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.path IN (${listOf(db, paths)})`)
  const titles = [...starred.byTitle.keys()]
  // Case-blind on the title index (PostgreSQL's nocase collation is made to read as SQLite's NOCASE).
  const byTitle =
    titles.length === 0
      ? []
      : (await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.title COLLATE NOCASE IN (${listOf(db, titles)})`)).filter(
          (r) => starred.byTitle.has(r.title) && !starred.byPath.has(r.path),
        )
  const at = (r: LibraryRow) => likedAt(starred, r) ?? 0
  return [...byPath, ...byTitle].sort((a, b) => at(b) - at(a) || naturalCompare(a.path, b.path))
}

export type LikedTrack = LibraryTrack & { likedAt: string }

/** The web player's Liked songs: starredSongs as library tracks, each with when it was liked. */
export async function likedTracks(db: Db, secret: string, userId: string): Promise<{ tracks: LikedTrack[] }> {
  const starred = await starredOf(db, userId)
  return { tracks: (await starredSongs(db, starred)).map((r) => ({ ...trackOf(secret, r), likedAt: new Date(likedAt(starred, r) ?? 0).toISOString() })) }
}
