// A member's star ratings (1–5) of library songs, albums and artists: the one home of the
// `ratings` table, written by OpenSubsonic's setRating and the web player's track menu, read by
// song and album shapes (userRating), getAlbumList type=highest and the Songs list's rating sort.
// Each is the member's own: every query names the member. Rating 0 clears (deletes the row).
import type { Db } from '~/db/client'
import type { RatedKind } from '~/db/schema'
import { RATING_MAX } from '~/shared/validators/library'
import { InvalidError, NotFoundError } from '../errors'

export { RATING_MAX }

/** What a library id names, or null when it is no song, album or artist of the index. */
export function ratedKindOf(db: Db, id: string): RatedKind | null {
  const c = db.$client
  if (c.query('SELECT 1 FROM library_tracks WHERE id = ?').get(id)) return 'song'
  if (c.query('SELECT 1 FROM library_albums WHERE id = ?').get(id)) return 'album'
  if (c.query('SELECT 1 FROM library_artists WHERE id = ?').get(id)) return 'artist'
  return null
}

export const RATED_ITEM_NOT_FOUND = 'Song, album or artist not found'

/** Sets (1–RATING_MAX) or clears (0) the member's rating of a library song, album or artist id. */
export function setRating(db: Db, userId: string, id: string, rating: number): void {
  if (!Number.isInteger(rating) || rating < 0 || rating > RATING_MAX) throw new InvalidError(`rating must be between 0 and ${RATING_MAX}`, 'rating')
  const kind = ratedKindOf(db, id)
  if (!kind) throw new NotFoundError(RATED_ITEM_NOT_FOUND)
  if (rating === 0) {
    db.$client.query('DELETE FROM ratings WHERE user_id = ? AND item_id = ?').run(userId, id)
    return
  }
  db.$client
    .query(
      `INSERT INTO ratings (user_id, item_id, kind, rating, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (user_id, item_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at`,
    )
    .run(userId, id, kind, rating, Date.now())
}

/** The member's ratings by library id (every kind): one read per request, as the likes are. */
export function ratingsOf(db: Db, userId: string): Map<string, number> {
  const rows = db.$client.query<{ id: string; rating: number }, [string]>('SELECT item_id AS id, rating FROM ratings WHERE user_id = ?').all(userId)
  return new Map(rows.map((r) => [r.id, r.rating]))
}

/** The member's song ratings, by track id, for the web player. */
export function songRatings(db: Db, userId: string): { ratings: Record<string, number> } {
  const rows = db.$client
    .query<{ id: string; rating: number }, [string]>("SELECT item_id AS id, rating FROM ratings WHERE user_id = ? AND kind = 'song'")
    .all(userId)
  return { ratings: Object.fromEntries(rows.map((r) => [r.id, r.rating])) }
}
