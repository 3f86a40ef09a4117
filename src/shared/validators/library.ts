// Inputs of the library API (/api/library). REST query strings arrive as
// strings, so numbers are coerced; every bound has a message naming the field. Long lists page by
// `cursor` (the `next` of the page before; absent for the first page), never by offset.
import { z } from 'zod'

export const LIBRARY_SEARCH_MAX_LIMIT = 100
export const LIBRARY_PAGE_MAX = 500
export const ALBUM_SORTS = ['name', 'year', 'recent'] as const
export type AlbumSort = (typeof ALBUM_SORTS)[number]
/** `rating`: the member's rated songs first, best first, then the rest by title. */
export const TRACK_SORTS = ['title', 'recent', 'rating'] as const
export type TrackSort = (typeof TRACK_SORTS)[number]
export const RATING_MAX = 5
/** A bookmark's position: at most a week of audio. */
export const BOOKMARK_MAX_MS = 7 * 24 * 3600 * 1000
export const BOOKMARK_COMMENT_MAX = 1000

const count = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`)
const limit = (max: number, fallback: number) => count('limit', 1, max).default(fallback)
const text = (name: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be text`) })
    .max(max, `${name} must be at most ${max} characters`)
const cursor = text('cursor', 2000).optional()

export const LibrarySearchSchema = z.strictObject({
  q: text('q', 200).trim().min(1, 'q is required'),
  limit: limit(LIBRARY_SEARCH_MAX_LIMIT, 20),
})
export type LibrarySearchInput = z.infer<typeof LibrarySearchSchema>

export const LibraryAlbumListSchema = z
  .strictObject({
    sort: z.enum(ALBUM_SORTS, { error: `sort must be one of ${ALBUM_SORTS.join(', ')}` }).default('name'),
    genre: text('genre', 200).optional(),
    cursor,
    limit: limit(LIBRARY_PAGE_MAX, 50),
  })
  .optional()
  .default({ sort: 'name', limit: 50 })
export type LibraryAlbumListInput = z.infer<typeof LibraryAlbumListSchema>

export const LibraryPageSchema = z
  .strictObject({ cursor, limit: limit(LIBRARY_PAGE_MAX, 50) })
  .optional()
  .default({ limit: 50 })
export type LibraryPageInput = z.infer<typeof LibraryPageSchema>

export const LibraryTrackListSchema = z
  .strictObject({
    sort: z.enum(TRACK_SORTS, { error: `sort must be one of ${TRACK_SORTS.join(', ')}` }).default('title'),
    cursor,
    limit: limit(LIBRARY_PAGE_MAX, 50),
  })
  .optional()
  .default({ sort: 'title', limit: 50 })
export type LibraryTrackListInput = z.infer<typeof LibraryTrackListSchema>

export const LibraryIdSchema = z.strictObject({ id: text('id', 64).trim().min(1, 'id is required') })

/** A song, album or artist id and the member's rating of it (0 clears). */
export const LibraryRatingSchema = z.strictObject({
  id: text('id', 64).trim().min(1, 'id is required'),
  rating: z
    .number({ error: 'rating must be a number' })
    .int('rating must be a whole number')
    .min(0, 'rating must be between 0 and 5')
    .max(RATING_MAX, `rating must be between 0 and ${RATING_MAX}`),
})

/** A library track as the web player holds it: its /media/ URL, signed or bare. */
const mediaUrl = text('url', 4000).refine((u) => u.startsWith('/media/'), "url must be a library track's /media/ URL")
export const LibraryTrackUrlSchema = z.strictObject({ url: mediaUrl })

export const LibraryBookmarkSchema = z.strictObject({
  url: mediaUrl,
  positionMs: z
    .number({ error: 'positionMs must be a number' })
    .int('positionMs must be a whole number')
    .min(0, 'positionMs must be at least 0')
    .max(BOOKMARK_MAX_MS, `positionMs must be at most ${BOOKMARK_MAX_MS}`),
  comment: text('comment', BOOKMARK_COMMENT_MAX).default(''),
})
export type LibraryBookmarkInput = z.infer<typeof LibraryBookmarkSchema>

/** A folder of the library tree as the Folders page writes it: '/', '/jazz', '/jazz/Ada'. */
export const LibraryFolderSchema = z
  .strictObject({ path: text('path', 2000).default('/') })
  .optional()
  .default({ path: '/' })

/** A track the player holds, by its URL (a library track's is a /media/ URL). */
export const LibraryLyricsSchema = z.strictObject({ url: text('url', 4096).trim().min(1, 'url is required') })

export const LibraryScanSchema = z
  .strictObject({ full: z.boolean({ error: 'full must be true or false' }).optional() })
  .optional()
  .default({})
