// A member's bookmarks: one position (ms) per library song to resume from, with a comment. The one
// home of the `bookmarks` table, written by OpenSubsonic's createBookmark / deleteBookmark and the
// web player's "Bookmark position", read by getBookmarks and the player's "Resume from". A second
// bookmark of the same song moves it. Each is the member's own: every query names the member.
import type { Db } from '~/db/client'
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

const SELECT =
  'SELECT track_id AS trackId, position_ms AS positionMs, comment, created_at AS createdAt, updated_at AS updatedAt FROM bookmarks WHERE user_id = ?'

export const SONG_NOT_FOUND = 'Song not found'
export const BOOKMARK_NOT_FOUND = 'Bookmark not found'

/** Saves the member's bookmark of a library song. */
export function saveBookmark(db: Db, userId: string, trackId: string, positionMs: number, comment: string, now = Date.now()): Bookmark {
  if (!Number.isInteger(positionMs) || positionMs < 0 || positionMs > BOOKMARK_LIMITS.positionMs)
    throw new InvalidError(`position must be between 0 and ${BOOKMARK_LIMITS.positionMs} ms`, 'position')
  if (comment.length > BOOKMARK_LIMITS.commentChars) throw new InvalidError(`comment must be at most ${BOOKMARK_LIMITS.commentChars} characters`, 'comment')
  if (!db.$client.query('SELECT 1 FROM library_tracks WHERE id = ?').get(trackId)) throw new NotFoundError(SONG_NOT_FOUND)
  db.transaction(() => {
    db.$client
      .query(
        `INSERT INTO bookmarks (user_id, track_id, position_ms, comment, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
         ON CONFLICT (user_id, track_id) DO UPDATE SET position_ms = excluded.position_ms, comment = excluded.comment, updated_at = excluded.updated_at`,
      )
      .run(userId, trackId, positionMs, comment, now)
    db.$client
      .query(
        `DELETE FROM bookmarks WHERE user_id = ?1 AND track_id IN
           (SELECT track_id FROM bookmarks WHERE user_id = ?1 ORDER BY updated_at DESC LIMIT -1 OFFSET ?2)`,
      )
      .run(userId, BOOKMARK_LIMITS.perMember)
  })
  return bookmarkOf(db, userId, trackId)!
}

/** Deletes the member's bookmark of a song (none, or another member's only: not found). */
export function deleteBookmark(db: Db, userId: string, trackId: string): void {
  if (db.$client.query('DELETE FROM bookmarks WHERE user_id = ? AND track_id = ?').run(userId, trackId).changes === 0)
    throw new NotFoundError(BOOKMARK_NOT_FOUND)
}

/** The member's bookmarks, most recently changed first. */
export function bookmarksOf(db: Db, userId: string): Bookmark[] {
  return db.$client.query<Bookmark, [string]>(`${SELECT} ORDER BY updated_at DESC`).all(userId)
}

/** The member's bookmark of one song, or null. */
export function bookmarkOf(db: Db, userId: string, trackId: string): Bookmark | null {
  return db.$client.query<Bookmark, [string, string]>(`${SELECT} AND track_id = ?`).get(userId, trackId)
}

/** The library id of the song a /media/ URL (signed or bare) names: the web player keeps URLs, not ids. */
export function trackIdOfMediaUrl(db: Db, url: string): string {
  let path: string | null = null
  try {
    path = mediaPathOf(new URL(url, 'http://x').pathname)
  } catch {}
  const row = path === null ? null : db.$client.query<{ id: string }, [string]>('SELECT id FROM library_tracks WHERE path = ?').get(path)
  if (!row) throw new NotFoundError(SONG_NOT_FOUND)
  return row.id
}
