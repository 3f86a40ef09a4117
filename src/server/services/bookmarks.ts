// A member's bookmarks: one position (ms) per library song to resume from, with a comment. The one
// home of the `bookmarks` table, written by OpenSubsonic's createBookmark / deleteBookmark and the
// web player's "Bookmark position", read by getBookmarks and the player's "Resume from". A second
// bookmark of the same song moves it. Each is the member's own: every query names the member.
import { sql } from 'drizzle-orm'
import { type Db, execute, firstRow, rows, transaction } from '~/db/engine'
import { InvalidError, NotFoundError } from '../errors'
import { mediaPathOf } from '../media/request-rules'
import { BOOKMARK_COMMENT_MAX, BOOKMARK_MAX_MS } from '~/shared/validators/library'

export const BOOKMARK_LIMITS = {
  positionMs: BOOKMARK_MAX_MS,
  commentChars: BOOKMARK_COMMENT_MAX,
  /** Bookmarks one member may keep (the oldest-changed go first beyond it). */
  perMember: 1000,
}

export type Bookmark = { trackId: string; positionMs: number; comment: string; createdAt: number; updatedAt: number }

const SELECT = sql`SELECT track_id AS "trackId", position_ms AS "positionMs", comment, created_at AS "createdAt", updated_at AS "updatedAt" FROM bookmarks`

export const SONG_NOT_FOUND = 'Song not found'
export const BOOKMARK_NOT_FOUND = 'Bookmark not found'

/** Saves the member's bookmark of a library song. */
export async function saveBookmark(db: Db, userId: string, trackId: string, positionMs: number, comment: string, now = Date.now()): Promise<Bookmark> {
  if (!Number.isInteger(positionMs) || positionMs < 0 || positionMs > BOOKMARK_LIMITS.positionMs)
    throw new InvalidError(`position must be between 0 and ${BOOKMARK_LIMITS.positionMs} ms`, 'position')
  if (comment.length > BOOKMARK_LIMITS.commentChars) throw new InvalidError(`comment must be at most ${BOOKMARK_LIMITS.commentChars} characters`, 'comment')
  if (!(await firstRow(db, sql`SELECT 1 AS found FROM library_tracks WHERE id = ${trackId}`))) throw new NotFoundError(SONG_NOT_FOUND)
  await transaction(db, async (tx) => {
    await execute(
      tx,
      sql`INSERT INTO bookmarks (user_id, track_id, position_ms, comment, created_at, updated_at) VALUES (${userId}, ${trackId}, ${positionMs}, ${comment}, ${now}, ${now})
        ON CONFLICT (user_id, track_id) DO UPDATE SET position_ms = excluded.position_ms, comment = excluded.comment, updated_at = excluded.updated_at`,
    )
    // Beyond the limit, the oldest-changed go.
    await execute(
      tx,
      sql`DELETE FROM bookmarks WHERE user_id = ${userId} AND track_id NOT IN
        (SELECT track_id FROM bookmarks WHERE user_id = ${userId} ORDER BY updated_at DESC LIMIT ${BOOKMARK_LIMITS.perMember})`,
    )
  })
  return (await bookmarkOf(db, userId, trackId))!
}

/** Deletes the member's bookmark of a song (none, or another member's only: not found). */
export async function deleteBookmark(db: Db, userId: string, trackId: string): Promise<void> {
  const deleted = await rows(db, sql`DELETE FROM bookmarks WHERE user_id = ${userId} AND track_id = ${trackId} RETURNING track_id`)
  if (deleted.length === 0) throw new NotFoundError(BOOKMARK_NOT_FOUND)
}

/** The member's bookmarks, most recently changed first. */
export function bookmarksOf(db: Db, userId: string): Promise<Bookmark[]> {
  return rows<Bookmark>(db, sql`${SELECT} WHERE user_id = ${userId} ORDER BY updated_at DESC`)
}

/** The member's bookmark of one song, or null. */
export async function bookmarkOf(db: Db, userId: string, trackId: string): Promise<Bookmark | null> {
  return (await firstRow<Bookmark>(db, sql`${SELECT} WHERE user_id = ${userId} AND track_id = ${trackId}`)) ?? null
}

/** The library id of the song a /media/ URL (signed or bare) names: the web player keeps URLs, not ids. */
export async function trackIdOfMediaUrl(db: Db, url: string): Promise<string> {
  let path: string | null = null
  try {
    path = mediaPathOf(new URL(url, 'http://x').pathname)
  } catch {}
  const row = path === null ? undefined : await firstRow<{ id: string }>(db, sql`SELECT id FROM library_tracks WHERE path = ${path}`)
  if (!row) throw new NotFoundError(SONG_NOT_FOUND)
  return row.id
}
