// Members' playlists of library tracks: the one service behind the web app (tRPC and REST) and
// OpenSubsonic's playlist methods, so an app and the browser edit the same lists.
//
// Who sees what: a member's own playlists, and the public ones of others (read-only). Another
// member's private playlist does not exist for anyone else (not-found, never forbidden, so its
// id reveals nothing); a visible playlist that is not the caller's may not be changed
// (forbidden). Ownership is decided here on every call, whatever door the call came in by.
//
// Entries name their track by the catalog's stable track key (libraryTrackKey: the file's
// /media/ path), with the title, artist and length seen when it was added. A read maps each key
// through the library index in one query; an entry whose file has gone stays in the list, marked
// unavailable, and plays again when the file comes back. Positions are 0..n-1, renumbered in the
// same transaction as each change (only the rows whose position moved are written). Every query
// runs on SQLite and PostgreSQL (docs/decisions/083, 086).
//
// Refusals are domain errors (errors.ts): each API edge maps them to its own codes.
import { type SQL, sql } from 'drizzle-orm'
import { type Db, execute, firstRow, isPostgres, rows, transaction } from '~/db/engine'
import { listOf, postgresJson } from '~/db/json-list'
import type { LibraryTrack } from '~/shared/library'
import { PLAYLIST_LIMITS } from '~/shared/validators/playlists'
import { displayArtist, LIBRARY_SELECT, type LibraryRow, libraryTrackKey, trackOf } from '../catalog/track'
import { trackKey } from '../catalog/track-key'
import { config } from '../config'
import { ForbiddenError, InvalidError, NotFoundError } from '../errors'
import { normalizeRelPath } from '../media/library-path'
import { mediaPathOf } from '../media/request-rules'

export const PLAYLIST_NOT_FOUND = 'Playlist not found'
const notFound = () => new NotFoundError(PLAYLIST_NOT_FOUND)
const invalid = (message: string) => new InvalidError(message)

/** A playlist as lists show it. `mine`: the caller owns it and may change it. */
export type PlaylistSummary = {
  id: string
  name: string
  comment: string
  public: boolean
  owner: string
  mine: boolean
  songCount: number
  /** Seconds, from the lengths seen when the entries were added. */
  duration: number
  createdAt: string
  updatedAt: string
}

/** One entry: its place, what it was when added, and the library track (absent: its file is gone). `id` stays the entry's through moves. */
export type PlaylistEntryRow = { id: number; index: number; key: string; title: string; artist: string; duration: number; row: LibraryRow | null }
export type PlaylistWithRows = PlaylistSummary & { entries: PlaylistEntryRow[] }

export type PlaylistEntryView = { id: number; index: number; title: string; artist: string; duration: number; track?: LibraryTrack }
export type PlaylistDetail = PlaylistSummary & { entries: PlaylistEntryView[] }

/** Where tracks to add come from. */
export type TrackSource = { trackIds: string[] } | { albumId: string } | { trackUrls: string[] }

type SummaryRow = {
  id: string
  name: string
  comment: string
  /** 1/0 on SQLite, a boolean on PostgreSQL. */
  isPublic: number | boolean
  owner: string
  userId: string
  songCount: number
  duration: number | null
  createdAt: number
  updatedAt: number
}

const SUMMARY_SELECT = sql`SELECT p.id, p.name, p.comment, p.is_public AS "isPublic", p.user_id AS "userId", u.username AS owner,
  p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  (SELECT count(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS "songCount",
  (SELECT sum(e.duration) FROM playlist_entries e WHERE e.playlist_id = p.id) AS duration
  FROM playlists p JOIN users u ON u.id = p.user_id`

const toSummary = (r: SummaryRow, userId: string): PlaylistSummary => ({
  id: r.id,
  name: r.name,
  comment: r.comment,
  public: Boolean(r.isPublic),
  owner: r.owner,
  mine: r.userId === userId,
  songCount: r.songCount,
  duration: Math.round(r.duration ?? 0),
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
})

/** The caller's playlists (most recently changed first), then other members' public ones. */
export async function listPlaylists(db: Db, userId: string): Promise<PlaylistSummary[]> {
  const found = await rows<SummaryRow>(
    db,
    sql`${SUMMARY_SELECT} WHERE p.user_id = ${userId} OR p.is_public ORDER BY CASE WHEN p.user_id = ${userId} THEN 0 ELSE 1 END, p.updated_at DESC`,
  )
  return found.map((r) => toSummary(r, userId))
}

/** A playlist the caller may see, or not-found. */
export async function playlistSummary(db: Db, userId: string, id: string): Promise<PlaylistSummary> {
  const row = await firstRow<SummaryRow>(db, sql`${SUMMARY_SELECT} WHERE p.id = ${id}`)
  if (!row || (row.userId !== userId && !row.isPublic)) throw notFound()
  return toSummary(row, userId)
}

/** A playlist the caller owns: not-found when they may not see it, forbidden when it is someone else's public one. */
async function ownedPlaylist(db: Db, userId: string, id: string): Promise<PlaylistSummary> {
  const playlist = await playlistSummary(db, userId, id)
  if (!playlist.mine) throw new ForbiddenError('Only the owner may change this playlist')
  return playlist
}

type EntryRecord = { id: number; key: string; title: string; artist: string; duration: number }
const entriesOf = (db: Db, playlistId: string) =>
  rows<EntryRecord>(db, sql`SELECT id, track_key AS key, title, artist, duration FROM playlist_entries WHERE playlist_id = ${playlistId} ORDER BY position, id`)

/** The entry ids in order: read from the (playlist, position) index alone, what every write needs. */
const entryIdsOf = async (db: Db, playlistId: string) =>
  (await rows<{ id: number }>(db, sql`SELECT id FROM playlist_entries WHERE playlist_id = ${playlistId} ORDER BY position, id`)).map((e) => e.id)

/** The library path a track key names, or null (not a /media/ key). */
const pathOfKey = (key: string) => mediaPathOf(key)

/** Library rows matching a condition on `t`, as one statement. */
const libraryRows = (db: Db, where: SQL) => rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE ${where}`)

/** A visible playlist with its entries, each mapped to its library row where the file is still indexed. */
export async function playlistWithRows(db: Db, userId: string, id: string): Promise<PlaylistWithRows> {
  const playlist = await playlistSummary(db, userId, id)
  const records = await entriesOf(db, id)
  const pathOfEntry = records.map((e) => pathOfKey(e.key))
  const paths = [...new Set(pathOfEntry.filter((p): p is string => p !== null))]
  const found = await rowsByPaths(db, paths)
  const entries = records.map((e, index) => {
    const path = pathOfEntry[index]
    return { id: e.id, index, key: e.key, title: e.title, artist: e.artist, duration: e.duration, row: (path && found.get(path)) || null }
  })
  return { ...playlist, entries }
}

/** The web app's playlist: each available entry as the library's track (signed URLs), the others as they were. */
export async function getPlaylist(db: Db, userId: string, id: string): Promise<PlaylistDetail> {
  const { entries, ...playlist } = await playlistWithRows(db, userId, id)
  const secret = config.AUTH_SECRET
  return {
    ...playlist,
    entries: entries.map(({ id, index, title, artist, duration, row }) =>
      row ? { id, index, title, artist, duration, track: trackOf(secret, row) } : { id, index, title, artist, duration },
    ),
  }
}

// --- resolving tracks to add -------------------------------------------------------------------

async function rowsByIds(db: Db, ids: string[]): Promise<LibraryRow[]> {
  if (ids.length === 0) return []
  const found = await libraryRows(db, sql`t.id IN (${listOf(db, [...new Set(ids)])})`)
  const byId = new Map(found.map((r) => [r.id, r]))
  return ids.map((id) => {
    const row = byId.get(id)
    if (!row) throw new NotFoundError(`Track not found: ${id.slice(0, 100)}`)
    return row
  })
}

async function rowsByPaths(db: Db, paths: string[]): Promise<Map<string, LibraryRow>> {
  if (paths.length === 0) return new Map()
  const found = await libraryRows(db, sql`t.path IN (${listOf(db, [...new Set(paths)])})`)
  return new Map(found.map((r) => [r.path, r]))
}

/** The library rows a source names, in order (an album in disc and track order). */
export async function rowsOf(db: Db, source: TrackSource): Promise<LibraryRow[]> {
  if ('trackIds' in source) return rowsByIds(db, source.trackIds)
  if ('albumId' in source) {
    const album = await libraryRows(db, sql`t.album_id = ${source.albumId} ORDER BY t.disc_no, t.track_no, t.path`)
    if (album.length === 0) throw new NotFoundError(`Album not found: ${source.albumId.slice(0, 100)}`)
    return album
  }
  // Track URLs as the player holds them (signed /media/ URLs): library files only.
  const paths = source.trackUrls.map((url) => {
    const path = url.startsWith('/media/') ? pathOfKey(trackKey(url)) : null
    if (!path) throw invalid(`Not a library track: ${url.slice(0, 200)}`)
    return path
  })
  const found = await rowsByPaths(db, paths)
  return paths.map((path) => {
    const row = found.get(path)
    if (!row) throw new NotFoundError(`Track not found: ${path.slice(0, 200)}`)
    return row
  })
}

// --- writing -------------------------------------------------------------------------------------

const touch = (db: Db, id: string) => execute(db, sql`UPDATE playlists SET updated_at = ${Date.now()} WHERE id = ${id}`)

function refuseOverflow(current: number, adding: number) {
  if (current + adding > PLAYLIST_LIMITS.tracksPerPlaylist)
    throw invalid(`A playlist holds at most ${PLAYLIST_LIMITS.tracksPerPlaylist} tracks (this one has ${current}; ${adding} more would not fit)`)
}

// Every write is a fixed number of statements whatever the playlist's size: the rows to insert,
// delete or renumber go in as one JSON array, never one statement per row.

/** Inserts rows as entries at `position` (the end when undefined) and renumbers what follows. */
async function insertEntries(db: Db, playlistId: string, libraryRows: LibraryRow[], position?: number) {
  if (libraryRows.length === 0) return
  const existing = await entryIdsOf(db, playlistId)
  refuseOverflow(existing.length, libraryRows.length)
  const at = position === undefined ? existing.length : Math.min(position, existing.length)
  const values = libraryRows.map((r) => [libraryTrackKey(r.path), r.title, displayArtist(r), r.duration])
  const inserted = await rows<{ id: number; position: number }>(db, insertEntryRows(db, playlistId, at, Date.now(), JSON.stringify(values)))
  if (at === existing.length) return
  const added = inserted.sort((a, b) => a.position - b.position).map((e) => e.id)
  await renumber(db, [...existing.slice(0, at), ...added, ...existing.slice(at)], existing)
}

/** The INSERT of entries from a JSON array of [key, title, artist, duration], numbered from `at`, answering their ids and positions. */
function insertEntryRows(db: Db, playlistId: string, at: number, now: number, json: string): SQL {
  const columns = sql`INSERT INTO playlist_entries (playlist_id, position, track_key, title, artist, duration, added_at)`
  // PostgreSQL: the elements with their 1-based ordinality.
  if (isPostgres(db))
    return sql`${columns} SELECT ${playlistId}, ${at} + j.n - 1, j.value ->> 0, j.value ->> 1, j.value ->> 2, CAST(j.value ->> 3 AS double precision), ${now}
      FROM jsonb_array_elements(${postgresJson(json)}) WITH ORDINALITY AS j(value, n) ORDER BY j.n RETURNING id, position`
  // SQLite: json_each's 0-based key.
  return sql`${columns} SELECT ${playlistId}, ${at} + j.key, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, ${now}
    FROM json_each(${json}) j ORDER BY j.key RETURNING id, position`
}

/** Writes position = index for every entry of `order` whose place differs from `before`, in one statement. */
async function renumber(db: Db, order: number[], before: number[]) {
  const changed: [number, number][] = []
  order.forEach((id, i) => {
    if (before[i] !== id) changed.push([id, i])
  })
  if (changed.length === 0) return
  const json = JSON.stringify(changed)
  // PostgreSQL: [id, position] pairs from jsonb, cast to the bigint columns.
  if (isPostgres(db))
    await execute(
      db,
      sql`UPDATE playlist_entries SET position = CAST(j.value ->> 1 AS bigint) FROM jsonb_array_elements(${postgresJson(json)}) AS j(value)
        WHERE playlist_entries.id = CAST(j.value ->> 0 AS bigint)`,
    )
  // SQLite: the same pairs from json_each.
  else await execute(db, sql`UPDATE playlist_entries SET position = j.value ->> 1 FROM json_each(${json}) j WHERE playlist_entries.id = j.value ->> 0`)
}

/**
 * One transaction around a change. A change made inside another's transaction (OpenSubsonic's
 * updatePlaylist: rename, remove and add as one change) joins it: on SQLite the open transaction
 * on the one connection is that caller's, on PostgreSQL the inner one is a savepoint.
 */
function inTransaction<T>(db: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  if (!isPostgres(db) && db.$client.inTransaction) return body(db)
  return transaction(db, body)
}

export function createPlaylist(
  db: Db,
  userId: string,
  input: { name: string; comment?: string; public?: boolean; source?: TrackSource },
): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    const owned = (await firstRow<{ n: number }>(tx, sql`SELECT count(*) AS n FROM playlists WHERE user_id = ${userId}`))?.n ?? 0
    if (owned >= PLAYLIST_LIMITS.playlistsPerMember) throw invalid(`You can keep at most ${PLAYLIST_LIMITS.playlistsPerMember} playlists`)
    const added = input.source ? await rowsOf(tx, input.source) : []
    refuseOverflow(0, added.length)
    const id = crypto.randomUUID()
    const now = Date.now()
    await execute(
      tx,
      sql`INSERT INTO playlists (id, user_id, name, comment, is_public, created_at, updated_at)
        VALUES (${id}, ${userId}, ${input.name}, ${input.comment ?? ''}, ${booleanOf(tx, input.public ?? false)}, ${now}, ${now})`,
    )
    await insertEntries(tx, id, added)
    return playlistSummary(tx, userId, id)
  })
}

/** A boolean column's value as a parameter: SQLite stores 1/0, PostgreSQL a boolean. */
const booleanOf = (db: Db, value: boolean) => (isPostgres(db) ? value : value ? 1 : 0)

export function updatePlaylist(db: Db, userId: string, id: string, input: { name?: string; comment?: string; public?: boolean }): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    const current = await ownedPlaylist(tx, userId, id)
    await execute(
      tx,
      sql`UPDATE playlists SET name = ${input.name ?? current.name}, comment = ${input.comment ?? current.comment},
        is_public = ${booleanOf(tx, input.public ?? current.public)}, updated_at = ${Date.now()} WHERE id = ${id}`,
    )
    return playlistSummary(tx, userId, id)
  })
}

export async function deletePlaylist(db: Db, userId: string, id: string): Promise<{ deleted: true }> {
  await inTransaction(db, async (tx) => {
    await ownedPlaylist(tx, userId, id)
    await execute(tx, sql`DELETE FROM playlists WHERE id = ${id}`)
  })
  return { deleted: true }
}

/** Adds tracks at the end, or before the entry now at `position`. */
export function addTracks(db: Db, userId: string, id: string, source: TrackSource, position?: number): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    await ownedPlaylist(tx, userId, id)
    await insertEntries(tx, id, await rowsOf(tx, source), position)
    await touch(tx, id)
    return playlistSummary(tx, userId, id)
  })
}

/** Replaces every entry (OpenSubsonic's createPlaylist with a playlistId). */
export function replaceTracks(db: Db, userId: string, id: string, source: TrackSource): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    await ownedPlaylist(tx, userId, id)
    const added = await rowsOf(tx, source)
    await execute(tx, sql`DELETE FROM playlist_entries WHERE playlist_id = ${id}`)
    await insertEntries(tx, id, added)
    await touch(tx, id)
    return playlistSummary(tx, userId, id)
  })
}

/** Removes the entries at these positions (as the list stood before the call). */
export function removeEntries(db: Db, userId: string, id: string, indexes: number[]): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    await ownedPlaylist(tx, userId, id)
    const before = await entryIdsOf(tx, id)
    const bad = indexes.find((i) => i >= before.length)
    if (bad !== undefined) throw invalid(`No entry at position ${bad}: the playlist has ${before.length}`)
    const gone = new Set(indexes.map((i) => before[i]))
    await execute(tx, sql`DELETE FROM playlist_entries WHERE id IN (${listOf(tx, [...gone], 'bigint')})`)
    await renumber(
      tx,
      before.filter((e) => !gone.has(e)),
      before,
    )
    await touch(tx, id)
    return playlistSummary(tx, userId, id)
  })
}

/** Moves the entry at `from` so that it ends up at `to`. */
export function moveEntry(db: Db, userId: string, id: string, from: number, to: number): Promise<PlaylistSummary> {
  return inTransaction(db, async (tx) => {
    await ownedPlaylist(tx, userId, id)
    const before = await entryIdsOf(tx, id)
    for (const [name, value] of [
      ['from', from],
      ['to', to],
    ] as const)
      if (value >= before.length) throw invalid(`${name} must be below ${before.length}, the number of entries`)
    const order = [...before]
    const [moved] = order.splice(from, 1)
    order.splice(to, 0, moved)
    await renumber(tx, order, before)
    await touch(tx, id)
    return playlistSummary(tx, userId, id)
  })
}

// --- M3U8 ------------------------------------------------------------------------------------------

/** The playlist as an M3U8 file: paths relative to MEDIA_ROOT (what import reads back), with #EXTINF lines. */
export async function exportM3u8(db: Db, userId: string, id: string): Promise<{ name: string; m3u8: string }> {
  const playlist = await playlistSummary(db, userId, id)
  const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(playlist.name)}`]
  for (const e of await entriesOf(db, id)) {
    const path = pathOfKey(e.key)
    if (!path) continue
    lines.push(`#EXTINF:${Math.round(e.duration)},${oneLine(e.artist ? `${e.artist} - ${e.title}` : e.title)}`, path)
  }
  return { name: playlist.name, m3u8: `${lines.join('\n')}\n` }
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ')

/**
 * The library path an M3U8 line names: a path relative to MEDIA_ROOT, an absolute path under
 * MEDIA_ROOT, a /media/ URL, or a file:// URL under MEDIA_ROOT (Windows backslashes read as
 * slashes). Only compared with the index: nothing is read from disk.
 */
export function libraryPathOfLine(line: string, root: string): string | null {
  let s = line.trim().replace(/\\/g, '/')
  if (/^file:\/\//i.test(s)) {
    try {
      s = decodeURIComponent(new URL(s).pathname)
    } catch {
      return null
    }
  }
  if (/^https?:\/\//i.test(s)) {
    try {
      s = new URL(s).pathname
    } catch {
      return null
    }
  }
  if (s.startsWith('/media/')) return mediaPathOf(s.split('?')[0])
  const rootPrefix = `${root.replace(/\/+$/, '')}/`
  if (s.startsWith(rootPrefix)) s = s.slice(rootPrefix.length)
  return normalizeRelPath(s) || null
}

/** A new playlist from an M3U8 file: the lines that name a library file, in order; the others reported. */
export async function importM3u8(db: Db, userId: string, name: string, m3u8: string): Promise<{ playlist: PlaylistSummary; unmatched: string[] }> {
  const lines = m3u8
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
  const paths = lines.map((l) => libraryPathOfLine(l, config.MEDIA_ROOT))
  const found = await rowsByPaths(
    db,
    paths.filter((p): p is string => p !== null),
  )
  const matched: LibraryRow[] = []
  const unmatched: string[] = []
  lines.forEach((line, i) => {
    const row = paths[i] ? found.get(paths[i]!) : undefined
    if (row) matched.push(row)
    else unmatched.push(line.slice(0, 500))
  })
  const playlist = await createPlaylist(db, userId, { name, source: { trackIds: matched.map((r) => r.id) } })
  return { playlist, unmatched }
}
