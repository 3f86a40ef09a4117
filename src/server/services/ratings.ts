// A member's star ratings (1–5) of library songs, albums and artists: the one home of the
// `ratings` table, written by OpenSubsonic's setRating and the web player's track menu, read by
// song and album shapes (userRating), getAlbumList type=highest and the Songs list's rating sort.
// Each is the member's own: every query names the member. Rating 0 clears (deletes the row).
import { sql } from 'drizzle-orm'
import { type Db, execute, firstRow, rows } from '~/db/engine'
import type { RatedKind } from '~/db/schema'
import { RATING_MAX } from '~/shared/validators/library'
import { InvalidError, NotFoundError } from '../errors'

export { RATING_MAX }

/** What a library id names, or null when it is no song, album or artist of the index. */
export async function ratedKindOf(db: Db, id: string): Promise<RatedKind | null> {
  const row = await firstRow<{ kind: RatedKind }>(
    db,
    sql`SELECT 'song' AS kind FROM library_tracks WHERE id = ${id}
      UNION ALL SELECT 'album' FROM library_albums WHERE id = ${id}
      UNION ALL SELECT 'artist' FROM library_artists WHERE id = ${id}`,
  )
  return row?.kind ?? null
}

export const RATED_ITEM_NOT_FOUND = 'Song, album or artist not found'

/** Sets (1–RATING_MAX) or clears (0) the member's rating of a library song, album or artist id. */
export async function setRating(db: Db, userId: string, id: string, rating: number): Promise<void> {
  if (!Number.isInteger(rating) || rating < 0 || rating > RATING_MAX) throw new InvalidError(`rating must be between 0 and ${RATING_MAX}`, 'rating')
  const kind = await ratedKindOf(db, id)
  if (!kind) throw new NotFoundError(RATED_ITEM_NOT_FOUND)
  if (rating === 0) {
    await execute(db, sql`DELETE FROM ratings WHERE user_id = ${userId} AND item_id = ${id}`)
    return
  }
  await execute(
    db,
    sql`INSERT INTO ratings (user_id, item_id, kind, rating, updated_at) VALUES (${userId}, ${id}, ${kind}, ${rating}, ${Date.now()})
      ON CONFLICT (user_id, item_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at`,
  )
}

/** The member's ratings by library id (every kind): one read per request, as the likes are. */
export async function ratingsOf(db: Db, userId: string): Promise<Map<string, number>> {
  const found = await rows<{ id: string; rating: number }>(db, sql`SELECT item_id AS id, rating FROM ratings WHERE user_id = ${userId}`)
  return new Map(found.map((r) => [r.id, r.rating]))
}

/** The member's song ratings, by track id, for the web player. */
export async function songRatings(db: Db, userId: string): Promise<{ ratings: Record<string, number> }> {
  const found = await rows<{ id: string; rating: number }>(db, sql`SELECT item_id AS id, rating FROM ratings WHERE user_id = ${userId} AND kind = 'song'`)
  return { ratings: Object.fromEntries(found.map((r) => [r.id, r.rating])) }
}
