// Inputs of members' playlists (the web app's tRPC/REST doors; /rest reads its own parameters and
// calls the same service). The limits are the library's (LIBRARY_LIMITS lists them); every bound
// has a message naming the field.
import { z } from 'zod'
import { requiredText } from './fields'

export const PLAYLIST_LIMITS = {
  /** Entries one playlist holds at most. */
  tracksPerPlaylist: 10_000,
  /** Playlists one member keeps at most. */
  playlistsPerMember: 1_000,
  nameCharacters: 100,
  commentCharacters: 1_000,
  /** Characters of an imported M3U8 file. */
  importCharacters: 2_000_000,
} as const

const CONTROL = /\p{Cc}/u

export const playlistNameField = requiredText('Playlist name is required', 'Playlist name')
  .max(PLAYLIST_LIMITS.nameCharacters, `Playlist name must be at most ${PLAYLIST_LIMITS.nameCharacters} characters`)
  .refine((name) => !CONTROL.test(name), 'Playlist name must not hold control characters')
const commentField = z
  .string({ error: 'Comment must be text' })
  .max(PLAYLIST_LIMITS.commentCharacters, `Comment must be at most ${PLAYLIST_LIMITS.commentCharacters} characters`)
const idField = (name: string) =>
  z
    .string({ error: `${name} must be text` })
    .min(1, `${name} is required`)
    .max(200, `${name} is too long`)
const index = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be at least 0`)
    .max(PLAYLIST_LIMITS.tracksPerPlaylist, `${name} must be at most ${PLAYLIST_LIMITS.tracksPerPlaylist}`)
const trackIds = z
  .array(idField('trackIds item'), { error: 'trackIds must be a list of track ids' })
  .max(PLAYLIST_LIMITS.tracksPerPlaylist, `trackIds may hold at most ${PLAYLIST_LIMITS.tracksPerPlaylist} tracks`)
/** Library tracks as the player holds them (their /media/ URLs), for saving a queue. */
const trackUrls = z
  .array(z.string({ error: 'trackUrls item must be text' }).min(1, 'trackUrls item is required').max(4096, 'trackUrls item is too long'), {
    error: 'trackUrls must be a list of track URLs',
  })
  .max(PLAYLIST_LIMITS.tracksPerPlaylist, `trackUrls may hold at most ${PLAYLIST_LIMITS.tracksPerPlaylist} tracks`)

export const PlaylistIdSchema = z.strictObject({ id: idField('id') })

export const PlaylistCreateSchema = z
  .strictObject({
    name: playlistNameField,
    comment: commentField.optional(),
    public: z.boolean({ error: 'public must be true or false' }).optional(),
    trackIds: trackIds.optional(),
    trackUrls: trackUrls.optional(),
  })
  .refine((v) => v.trackIds === undefined || v.trackUrls === undefined, 'Send trackIds or trackUrls, not both')
export type PlaylistCreateInput = z.infer<typeof PlaylistCreateSchema>

export const PlaylistUpdateSchema = z
  .strictObject({
    id: idField('id'),
    name: playlistNameField.optional(),
    comment: commentField.optional(),
    public: z.boolean({ error: 'public must be true or false' }).optional(),
  })
  .refine((v) => v.name !== undefined || v.comment !== undefined || v.public !== undefined, 'Nothing to change: send name, comment or public')
export type PlaylistUpdateInput = z.infer<typeof PlaylistUpdateSchema>

/** Tracks to add: by id, a whole album, or by URL; at the end, or before the entry at `position`. */
export const PlaylistAddSchema = z
  .strictObject({
    id: idField('id'),
    trackIds: trackIds.optional(),
    albumId: idField('albumId').optional(),
    trackUrls: trackUrls.optional(),
    position: index('position').optional(),
  })
  .refine((v) => [v.trackIds, v.albumId, v.trackUrls].filter((s) => s !== undefined).length === 1, 'Send one of trackIds, albumId or trackUrls')
export type PlaylistAddInput = z.infer<typeof PlaylistAddSchema>

export const PlaylistReplaceSchema = z.strictObject({ id: idField('id'), trackIds })

export const PlaylistRemoveSchema = z.strictObject({
  id: idField('id'),
  indexes: z.array(index('indexes item'), { error: 'indexes must be a list of entry positions' }).min(1, 'indexes must name at least one entry'),
})

export const PlaylistMoveSchema = z.strictObject({ id: idField('id'), from: index('from'), to: index('to') })

export const PlaylistImportSchema = z.strictObject({
  name: playlistNameField,
  m3u8: z.string({ error: 'm3u8 must be text' }).max(PLAYLIST_LIMITS.importCharacters, `m3u8 must be at most ${PLAYLIST_LIMITS.importCharacters} characters`),
})
