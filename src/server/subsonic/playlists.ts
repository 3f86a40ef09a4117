// OpenSubsonic's playlist methods over two kinds of list: a member's own playlists (and other
// members' public ones), changed through services/playlists.ts like the web app's; and the
// member's library folders, offered read-only as playlists as before. Both ids are random UUIDs
// from one generator, so they never collide; an id is looked up among the member's folders first.
//
// An app sees a playlist's available entries only (a song whose file has gone cannot be shown or
// played by an app), so `songIndexToRemove` counts over those; it is translated here to the
// entry's place in the whole list.
import { transaction } from '~/db/engine'
import { isRemotePath } from '~/shared/validators'
import { PLAYLIST_LIMITS, playlistNameField } from '~/shared/validators/playlists'
import { memberFolders } from '../services/folders'
import * as playlists from '../services/playlists'
import { folderTotals, type Marks, marksOf, song, songsUnder } from './library'
import type { MethodContext } from './methods'
import type { Params } from './params'
import { ErrorCode, type Payload, SubsonicError } from './response'
import { ForbiddenError, InvalidError } from '../errors'

/** Several service calls as one change: all of them or none (the service's own transactions join it). */
const inOneTransaction = (ctx: MethodContext, work: (tx: MethodContext['db']) => Promise<void>) => transaction(ctx.db, work)

const FOLDERS_READ_ONLY = 'Folder playlists are read-only: change the folder in Vibes'
const folderRel = (path: string) => path.replace(/^\/+|\/+$/g, '')
const libraryFoldersOf = async (ctx: MethodContext) => (await memberFolders(ctx.db, ctx.user.id)).filter((f) => !isRemotePath(f.path))
const folderOf = async (ctx: MethodContext, id: string) => (await libraryFoldersOf(ctx)).find((f) => f.id === id)

function folderPlaylist(
  ctx: MethodContext,
  folder: { id: string; label: string; path: string; createdAt: string },
  totals: { songCount: number; duration: number },
): Payload {
  return {
    id: folder.id,
    name: folder.label,
    comment: folder.path,
    owner: ctx.user.username,
    public: false,
    ...totals,
    created: folder.createdAt,
    changed: folder.createdAt,
    readonly: true,
  }
}

function memberPlaylist(p: playlists.PlaylistSummary, totals: { songCount: number; duration: number } = p, coverArt?: string): Payload {
  return {
    id: p.id,
    name: p.name,
    comment: p.comment || undefined,
    owner: p.owner,
    public: p.public,
    songCount: totals.songCount,
    duration: totals.duration,
    created: p.createdAt,
    changed: p.updatedAt,
    coverArt,
    readonly: !p.mine,
  }
}

/** A member playlist with its available songs, as getPlaylist and createPlaylist answer. */
async function memberPlaylistWithSongs(ctx: MethodContext, id: string, marks?: Marks): Promise<Payload> {
  const starred = marks ?? (await marksOf(ctx.db, ctx.user.id))
  const { entries, ...p } = await playlists.playlistWithRows(ctx.db, ctx.user.id, id)
  const rows = entries.flatMap((e) => (e.row ? [e.row] : []))
  const totals = { songCount: rows.length, duration: Math.round(rows.reduce((sum, r) => sum + r.duration, 0)) }
  return { ...memberPlaylist(p, totals, rows.find((r) => r.coverPath)?.id), entry: rows.map((r) => song(r, starred)) }
}

function nameOf(value: string): string {
  const parsed = playlistNameField.safeParse(value)
  if (!parsed.success) throw new SubsonicError(ErrorCode.generic, parsed.error.issues[0].message)
  return parsed.data
}

function commentOf(p: Params): string | undefined {
  const comment = p.get('comment')
  if (comment !== undefined && comment.length > PLAYLIST_LIMITS.commentCharacters)
    throw new SubsonicError(ErrorCode.generic, `Parameter comment must be at most ${PLAYLIST_LIMITS.commentCharacters} characters`)
  return comment
}

/** Refuses a change addressed at one of the member's folders (they are read-only here). */
async function refuseFolder(ctx: MethodContext, id: string): Promise<void> {
  if (await folderOf(ctx, id)) throw new SubsonicError(ErrorCode.notAuthorized, FOLDERS_READ_ONLY)
}

export async function getPlaylists(ctx: MethodContext): Promise<Payload> {
  const username = ctx.params.get('username')
  if (username !== undefined && username !== ctx.user.username) throw new SubsonicError(ErrorCode.notAuthorized, 'Only your own playlists can be listed')
  const own = (await playlists.listPlaylists(ctx.db, ctx.user.id)).map((p) => memberPlaylist(p))
  const folders = await Promise.all((await libraryFoldersOf(ctx)).map(async (f) => folderPlaylist(ctx, f, await folderTotals(ctx.db, folderRel(f.path)))))
  return { playlists: { playlist: [...own, ...folders] } }
}

export async function getPlaylist(ctx: MethodContext): Promise<Payload> {
  const id = ctx.params.required('id')
  const folder = await folderOf(ctx, id)
  if (!folder) return { playlist: await memberPlaylistWithSongs(ctx, id) }
  const songs = await songsUnder(ctx.db, folderRel(folder.path))
  const starred = await marksOf(ctx.db, ctx.user.id)
  const totals = { songCount: songs.length, duration: Math.round(songs.reduce((sum, s) => sum + s.duration, 0)) }
  return { playlist: { ...folderPlaylist(ctx, folder, totals), entry: songs.map((s) => song(s, starred)) } }
}

/** A new playlist (name, songId…), or, with playlistId, one whose songs are replaced by songId… */
export async function createPlaylist(ctx: MethodContext): Promise<Payload> {
  const p = ctx.params
  const songIds = p.all('songId')
  const playlistId = p.get('playlistId')
  if (playlistId) {
    await refuseFolder(ctx, playlistId)
    const name = p.get('name')
    const newName = name === undefined ? undefined : nameOf(name)
    await inOneTransaction(ctx, async (tx) => {
      if (newName !== undefined) await playlists.updatePlaylist(tx, ctx.user.id, playlistId, { name: newName })
      await playlists.replaceTracks(tx, ctx.user.id, playlistId, { trackIds: songIds })
    })
    return { playlist: await memberPlaylistWithSongs(ctx, playlistId) }
  }
  const name = nameOf(p.required('name'))
  const created = await playlists.createPlaylist(ctx.db, ctx.user.id, { name, source: { trackIds: songIds } })
  return { playlist: await memberPlaylistWithSongs(ctx, created.id) }
}

/** Name, comment, public, songIdToAdd… (at the end) and songIndexToRemove… (over the songs the app was shown). */
export async function updatePlaylist(ctx: MethodContext): Promise<Payload> {
  const p = ctx.params
  const id = p.required('playlistId')
  await refuseFolder(ctx, id)
  const name = p.get('name')
  const fields = {
    name: name === undefined ? undefined : nameOf(name),
    comment: commentOf(p),
    public: p.get('public') === undefined ? undefined : p.bool('public', false),
  }
  const toRemove = p.ints('songIndexToRemove', { min: 0, max: PLAYLIST_LIMITS.tracksPerPlaylist })
  const toAdd = p.all('songIdToAdd')
  await inOneTransaction(ctx, async (tx) => {
    const current = await playlists.playlistWithRows(tx, ctx.user.id, id)
    if (!current.mine) throw new ForbiddenError('Only the owner may change this playlist')
    const shown = current.entries.filter((e) => e.row !== null).map((e) => e.index)
    const bad = toRemove.find((i) => i >= shown.length)
    if (bad !== undefined) throw new InvalidError(`Parameter songIndexToRemove ${bad} is past the playlist's ${shown.length} songs`)
    if (fields.name !== undefined || fields.comment !== undefined || fields.public !== undefined) await playlists.updatePlaylist(tx, ctx.user.id, id, fields)
    if (toRemove.length > 0)
      await playlists.removeEntries(
        tx,
        ctx.user.id,
        id,
        toRemove.map((i) => shown[i]),
      )
    if (toAdd.length > 0) await playlists.addTracks(tx, ctx.user.id, id, { trackIds: toAdd })
  })
  return {}
}

export async function deletePlaylist(ctx: MethodContext): Promise<Payload> {
  const id = ctx.params.required('id')
  await refuseFolder(ctx, id)
  await playlists.deletePlaylist(ctx.db, ctx.user.id, id)
  return {}
}
