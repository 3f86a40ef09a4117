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
// same transaction as each change (only the rows whose position moved are written).
//
// Refusals are domain errors (errors.ts): each API edge maps them to its own codes.
import { inArray } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
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
  isPublic: number
  owner: string
  userId: string
  songCount: number
  duration: number | null
  createdAt: number
  updatedAt: number
}

const SUMMARY_SELECT = `SELECT p.id, p.name, p.comment, p.is_public AS isPublic, p.user_id AS userId, u.username AS owner,
  p.created_at AS createdAt, p.updated_at AS updatedAt,
  (SELECT count(*) FROM playlist_entries e WHERE e.playlist_id = p.id) AS songCount,
  (SELECT sum(e.duration) FROM playlist_entries e WHERE e.playlist_id = p.id) AS duration
  FROM playlists p JOIN users u ON u.id = p.user_id`

const toSummary = (r: SummaryRow, userId: string): PlaylistSummary => ({
  id: r.id,
  name: r.name,
  comment: r.comment,
  public: r.isPublic === 1,
  owner: r.owner,
  mine: r.userId === userId,
  songCount: r.songCount,
  duration: Math.round(r.duration ?? 0),
  createdAt: new Date(r.createdAt).toISOString(),
  updatedAt: new Date(r.updatedAt).toISOString(),
})

/** The caller's playlists (most recently changed first), then other members' public ones. */
export function listPlaylists(db: Db, userId: string): PlaylistSummary[] {
  const rows = db.$client
    .query<SummaryRow, [string, string]>(`${SUMMARY_SELECT} WHERE p.user_id = ?1 OR p.is_public = 1 ORDER BY (p.user_id = ?2) DESC, p.updated_at DESC`)
    .all(userId, userId)
  return rows.map((r) => toSummary(r, userId))
}

/** A playlist the caller may see, or not-found. */
export function playlistSummary(db: Db, userId: string, id: string): PlaylistSummary {
  const row = db.$client.query<SummaryRow, [string]>(`${SUMMARY_SELECT} WHERE p.id = ?`).get(id)
  if (!row || (row.userId !== userId && row.isPublic !== 1)) throw notFound()
  return toSummary(row, userId)
}

/** A playlist the caller owns: not-found when they may not see it, forbidden when it is someone else's public one. */
function ownedPlaylist(db: Db, userId: string, id: string): PlaylistSummary {
  const playlist = playlistSummary(db, userId, id)
  if (!playlist.mine) throw new ForbiddenError('Only the owner may change this playlist')
  return playlist
}

type EntryRecord = { id: number; key: string; title: string; artist: string; duration: number }
const entriesOf = (db: Db, playlistId: string) =>
  db.$client
    .query<EntryRecord, [string]>('SELECT id, track_key AS key, title, artist, duration FROM playlist_entries WHERE playlist_id = ? ORDER BY position, id')
    .all(playlistId)

/** The entry ids in order: read from the (playlist, position) index alone, what every write needs. */
const entryIdsOf = (db: Db, playlistId: string) =>
  db.$client
    .query<{ id: number }, [string]>('SELECT id FROM playlist_entries WHERE playlist_id = ? ORDER BY position, id')
    .all(playlistId)
    .map((e) => e.id)

/** The library path a track key names, or null (not a /media/ key). */
const pathOfKey = (key: string) => mediaPathOf(key)

/** A visible playlist with its entries, each mapped to its library row where the file is still indexed. */
export function playlistWithRows(db: Db, userId: string, id: string): PlaylistWithRows {
  const playlist = playlistSummary(db, userId, id)
  const records = entriesOf(db, id)
  const pathOfEntry = records.map((e) => pathOfKey(e.key))
  const paths = [...new Set(pathOfEntry.filter((p): p is string => p !== null))]
  const rows =
    paths.length === 0
      ? new Map<string, LibraryRow>()
      : new Map(
          db.$client
            .query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.path IN (SELECT value FROM json_each(?))`)
            .all(JSON.stringify(paths))
            .map((r) => [r.path, r]),
        )
  const entries = records.map((e, index) => {
    const path = pathOfEntry[index]
    return { id: e.id, index, key: e.key, title: e.title, artist: e.artist, duration: e.duration, row: (path && rows.get(path)) || null }
  })
  return { ...playlist, entries }
}

/** An entry as the web app shows it: the library's track (signed URLs) when available, else as it was. */
function entryView(secret: string, { id, index, title, artist, duration, row }: Omit<PlaylistEntryRow, 'key'>): PlaylistEntryView {
  return row ? { id, index, title, artist, duration, track: trackOf(secret, row) } : { id, index, title, artist, duration }
}

/** The web app's playlist: each available entry as the library's track (signed URLs), the others as they were. */
export function getPlaylist(db: Db, userId: string, id: string): PlaylistDetail {
  const { entries, ...playlist } = playlistWithRows(db, userId, id)
  const secret = config.AUTH_SECRET
  return { ...playlist, entries: entries.map((e) => entryView(secret, e)) }
}

/**
 * What the playlist page opens on: getPlaylist's first `first` entries, and how many of all the
 * entries are unavailable. Only those entries are read from the library; the rest are checked
 * by path alone, so a 10,000-song playlist's opening costs little more than a short one's.
 */
export async function getPlaylistOpening(db: Db, userId: string, id: string, first: number): Promise<PlaylistDetail & { unavailable: number }> {
  const playlist = playlistSummary(db, userId, id)
  const records = entriesOf(db, id)
  const pathOfEntry = records.map((e) => pathOfKey(e.key))
  const paths = [...new Set(pathOfEntry.filter((p): p is string => p !== null))]
  const { libraryTracks } = tablesOf(db)
  const indexed = new Set(
    paths.length === 0 ? [] : (await db.select({ path: libraryTracks.path }).from(libraryTracks).where(inArray(libraryTracks.path, paths))).map((r) => r.path),
  )
  const rows = rowsByPaths(
    db,
    pathOfEntry.slice(0, first).filter((p): p is string => p !== null && indexed.has(p)),
  )
  const secret = config.AUTH_SECRET
  const entries = records.slice(0, first).map((e, index) => {
    const path = pathOfEntry[index]
    return entryView(secret, { id: e.id, index, title: e.title, artist: e.artist, duration: e.duration, row: (path && rows.get(path)) || null })
  })
  return { ...playlist, entries, unavailable: pathOfEntry.filter((p) => p === null || !indexed.has(p)).length }
}

// --- resolving tracks to add -------------------------------------------------------------------

function rowsByIds(db: Db, ids: string[]): LibraryRow[] {
  if (ids.length === 0) return []
  const found = db.$client
    .query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify([...new Set(ids)]))
  const byId = new Map(found.map((r) => [r.id, r]))
  return ids.map((id) => {
    const row = byId.get(id)
    if (!row) throw new NotFoundError(`Track not found: ${id.slice(0, 100)}`)
    return row
  })
}

function rowsByPaths(db: Db, paths: string[]): Map<string, LibraryRow> {
  if (paths.length === 0) return new Map()
  const found = db.$client
    .query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.path IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify([...new Set(paths)]))
  return new Map(found.map((r) => [r.path, r]))
}

/** The library rows a source names, in order (an album in disc and track order). */
export function rowsOf(db: Db, source: TrackSource): LibraryRow[] {
  if ('trackIds' in source) return rowsByIds(db, source.trackIds)
  if ('albumId' in source) {
    const rows = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.album_id = ? ORDER BY t.disc_no, t.track_no, t.path`).all(source.albumId)
    if (rows.length === 0) throw new NotFoundError(`Album not found: ${source.albumId.slice(0, 100)}`)
    return rows
  }
  // Track URLs as the player holds them (signed /media/ URLs): library files only.
  const paths = source.trackUrls.map((url) => {
    const path = url.startsWith('/media/') ? pathOfKey(trackKey(url)) : null
    if (!path) throw invalid(`Not a library track: ${url.slice(0, 200)}`)
    return path
  })
  const rows = rowsByPaths(db, paths)
  return paths.map((path) => {
    const row = rows.get(path)
    if (!row) throw new NotFoundError(`Track not found: ${path.slice(0, 200)}`)
    return row
  })
}

// --- writing -------------------------------------------------------------------------------------

const touch = (db: Db, id: string) => db.$client.query('UPDATE playlists SET updated_at = ? WHERE id = ?').run(Date.now(), id)

function refuseOverflow(current: number, adding: number) {
  if (current + adding > PLAYLIST_LIMITS.tracksPerPlaylist)
    throw invalid(`A playlist holds at most ${PLAYLIST_LIMITS.tracksPerPlaylist} tracks (this one has ${current}; ${adding} more would not fit)`)
}

// Every write is a fixed number of statements whatever the playlist's size: the rows to insert,
// delete or renumber go in as one JSON array (json_each), never one statement per row.

/** Inserts rows as entries at `position` (the end when undefined) and renumbers what follows. */
function insertEntries(db: Db, playlistId: string, rows: LibraryRow[], position?: number) {
  if (rows.length === 0) return
  const existing = entryIdsOf(db, playlistId)
  refuseOverflow(existing.length, rows.length)
  const at = position === undefined ? existing.length : Math.min(position, existing.length)
  // Ids only grow (AUTOINCREMENT) and rows go in in the array's order, so the new entries are the
  // ids above the largest one before, in that order.
  const last = db.$client.query<{ id: number | null }, []>('SELECT max(id) AS id FROM playlist_entries').get()?.id ?? 0
  const values = rows.map((r) => [libraryTrackKey(r.path), r.title, displayArtist(r), r.duration])
  db.$client
    .query(
      `INSERT INTO playlist_entries (playlist_id, position, track_key, title, artist, duration, added_at)
       SELECT ?1, ?2 + j.key, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, ?3 FROM json_each(?4) j ORDER BY j.key`,
    )
    .run(playlistId, at, Date.now(), JSON.stringify(values))
  if (at === existing.length) return
  const added = db.$client
    .query<{ id: number }, [string, number]>('SELECT id FROM playlist_entries WHERE playlist_id = ? AND id > ? ORDER BY id')
    .all(playlistId, last)
    .map((e) => e.id)
  renumber(db, [...existing.slice(0, at), ...added, ...existing.slice(at)], existing)
}

/** Writes position = index for every entry of `order` whose place differs from `before`, in one statement. */
function renumber(db: Db, order: number[], before: number[]) {
  const changed: [number, number][] = []
  order.forEach((id, i) => {
    if (before[i] !== id) changed.push([id, i])
  })
  if (changed.length === 0) return
  db.$client
    .query('UPDATE playlist_entries SET position = j.value ->> 1 FROM json_each(?) j WHERE playlist_entries.id = j.value ->> 0')
    .run(JSON.stringify(changed))
}

const inTransaction = <T>(db: Db, work: () => T): T => db.$client.transaction(work)()

export function createPlaylist(db: Db, userId: string, input: { name: string; comment?: string; public?: boolean; source?: TrackSource }): PlaylistSummary {
  return inTransaction(db, () => {
    const owned = db.$client.query<{ n: number }, [string]>('SELECT count(*) AS n FROM playlists WHERE user_id = ?').get(userId)?.n ?? 0
    if (owned >= PLAYLIST_LIMITS.playlistsPerMember) throw invalid(`You can keep at most ${PLAYLIST_LIMITS.playlistsPerMember} playlists`)
    const rows = input.source ? rowsOf(db, input.source) : []
    refuseOverflow(0, rows.length)
    const id = crypto.randomUUID()
    const now = Date.now()
    db.$client
      .query('INSERT INTO playlists (id, user_id, name, comment, is_public, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, userId, input.name, input.comment ?? '', input.public ? 1 : 0, now, now)
    insertEntries(db, id, rows)
    return playlistSummary(db, userId, id)
  })
}

export function updatePlaylist(db: Db, userId: string, id: string, input: { name?: string; comment?: string; public?: boolean }): PlaylistSummary {
  return inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    const current = db.$client
      .query<{ name: string; comment: string; isPublic: number }, [string]>('SELECT name, comment, is_public AS isPublic FROM playlists WHERE id = ?')
      .get(id)!
    db.$client
      .query('UPDATE playlists SET name = ?, comment = ?, is_public = ?, updated_at = ? WHERE id = ?')
      .run(input.name ?? current.name, input.comment ?? current.comment, input.public === undefined ? current.isPublic : input.public ? 1 : 0, Date.now(), id)
    return playlistSummary(db, userId, id)
  })
}

export function deletePlaylist(db: Db, userId: string, id: string): { deleted: true } {
  inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    db.$client.query('DELETE FROM playlists WHERE id = ?').run(id)
  })
  return { deleted: true }
}

/** Adds tracks at the end, or before the entry now at `position`. */
export function addTracks(db: Db, userId: string, id: string, source: TrackSource, position?: number): PlaylistSummary {
  return inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    insertEntries(db, id, rowsOf(db, source), position)
    touch(db, id)
    return playlistSummary(db, userId, id)
  })
}

/** Replaces every entry (OpenSubsonic's createPlaylist with a playlistId). */
export function replaceTracks(db: Db, userId: string, id: string, source: TrackSource): PlaylistSummary {
  return inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    const rows = rowsOf(db, source)
    db.$client.query('DELETE FROM playlist_entries WHERE playlist_id = ?').run(id)
    insertEntries(db, id, rows)
    touch(db, id)
    return playlistSummary(db, userId, id)
  })
}

/** Removes the entries at these positions (as the list stood before the call). */
export function removeEntries(db: Db, userId: string, id: string, indexes: number[]): PlaylistSummary {
  return inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    const before = entryIdsOf(db, id)
    const bad = indexes.find((i) => i >= before.length)
    if (bad !== undefined) throw invalid(`No entry at position ${bad}: the playlist has ${before.length}`)
    const gone = new Set(indexes.map((i) => before[i]))
    db.$client.query('DELETE FROM playlist_entries WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify([...gone]))
    renumber(
      db,
      before.filter((e) => !gone.has(e)),
      before,
    )
    touch(db, id)
    return playlistSummary(db, userId, id)
  })
}

/** Moves the entry at `from` so that it ends up at `to`. */
export function moveEntry(db: Db, userId: string, id: string, from: number, to: number): PlaylistSummary {
  return inTransaction(db, () => {
    ownedPlaylist(db, userId, id)
    const before = entryIdsOf(db, id)
    for (const [name, value] of [
      ['from', from],
      ['to', to],
    ] as const)
      if (value >= before.length) throw invalid(`${name} must be below ${before.length}, the number of entries`)
    const order = [...before]
    const [moved] = order.splice(from, 1)
    order.splice(to, 0, moved)
    renumber(db, order, before)
    touch(db, id)
    return playlistSummary(db, userId, id)
  })
}

// --- M3U8 ------------------------------------------------------------------------------------------

/** The playlist as an M3U8 file: paths relative to MEDIA_ROOT (what import reads back), with #EXTINF lines. */
export function exportM3u8(db: Db, userId: string, id: string): { name: string; m3u8: string } {
  const playlist = playlistSummary(db, userId, id)
  const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(playlist.name)}`]
  for (const e of entriesOf(db, id)) {
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
export function importM3u8(db: Db, userId: string, name: string, m3u8: string): { playlist: PlaylistSummary; unmatched: string[] } {
  const lines = m3u8
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
  const paths = lines.map((l) => libraryPathOfLine(l, config.MEDIA_ROOT))
  const rows = rowsByPaths(
    db,
    paths.filter((p): p is string => p !== null),
  )
  const matched: LibraryRow[] = []
  const unmatched: string[] = []
  lines.forEach((line, i) => {
    const row = paths[i] ? rows.get(paths[i]!) : undefined
    if (row) matched.push(row)
    else unmatched.push(line.slice(0, 500))
  })
  const playlist = createPlaylist(db, userId, { name, source: { trackIds: matched.map((r) => r.id) } })
  return { playlist, unmatched }
}
