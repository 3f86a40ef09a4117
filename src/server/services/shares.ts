// Share links (docs/decisions/069): a member shares library tracks, an album or one of their own
// playlists as a link,
// /s/<id>, that anyone may open and play without an account until it expires or is revoked.
// What a visitor gets is only the shared tracks' tags, covers and signed /media URLs, which end
// with the link (signMediaUrl's notAfterSec) and name only those files; never the member, nor
// anything else of the server. Every door (tRPC and REST for the web, /rest for apps) goes
// through these functions; their refusals are the domain errors of src/server/errors.ts.
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { type Share, shares } from '~/db/schema'
import { SHARE_SOURCE } from '~/shared/validators'
import { SHARE_EXPIRY_MS, type ShareCreateInput } from '~/shared/validators/shares'
import { LIBRARY_SELECT, type LibraryRow, libraryTrackKey, signedMediaUrl, displayArtist } from '../catalog/track'
import { InvalidError, NotFoundError } from '../errors'
import type { ClientInfo } from '../http/client-info'
import { mediaPathOf } from '../media/request-rules'
import { signMediaUrl } from '../media/sign'
import { albumRows } from './library-index'
import { recordPlay } from './listening'
import { PLAYLIST_NOT_FOUND, playlistSummary, playlistWithRows } from './playlists'

/** What a share names. A playlist is always the sharer's own. */
export type ShareTarget = { kind: 'tracks'; ids: string[] } | { kind: 'album'; id: string } | { kind: 'playlist'; id: string }

export const MAX_SHARES_PER_USER = 200
/** Tracks one share may name (an app's createShare may send many ids). */
export const MAX_SHARE_TRACKS = 500
export const SHARE_NOT_FOUND = 'Share not found'
export const SHARE_EXPIRED = 'This share link has expired'
export const SHARE_REVOKED = 'This share link was revoked'
export const SHARE_MISSING = 'This share link does not exist'
export const SHARE_PLAYLIST_DELETED = 'The shared playlist was deleted'

/** The public page's path of a share. */
export const sharePath = (id: string) => `/s/${id}`

/** 18 random bytes: 144 bits, 24 base64url characters. */
function newShareId(): string {
  const bytes = new Uint8Array(18)
  crypto.getRandomValues(bytes)
  return Buffer.from(bytes).toString('base64url')
}

function targetOf(row: Pick<Share, 'targetKind' | 'targetIds'>): ShareTarget {
  const ids = JSON.parse(row.targetIds) as string[]
  if (row.targetKind === 'album' || row.targetKind === 'playlist') return { kind: row.targetKind, id: ids[0] ?? '' }
  return { kind: 'tracks', ids }
}

/** A share's content as it is now: its title and library rows in play order, or null once the playlist it names was deleted. */
type ShareContent = { target: ShareTarget; title: string; rows: LibraryRow[] }

function contentOf(db: Db, share: Pick<Share, 'targetKind' | 'targetIds' | 'userId'>): ShareContent | null {
  const target = targetOf(share)
  if (target.kind === 'playlist') {
    const rows = playlistRows(db, share.userId, target.id)
    return rows && { target, ...rows }
  }
  const rows = rowsOfTarget(db, target)
  return { target, title: titleOf(db, target, rows), rows }
}

/**
 * The sharer's playlist as it is now (the link follows later edits): its name and available
 * tracks in playlist order, entries whose file has gone left out, at most MAX_SHARE_TRACKS. Null
 * when the playlist is gone.
 */
function playlistRows(db: Db, ownerId: string, id: string): { title: string; rows: LibraryRow[] } | null {
  const own = db.$client.query<{ id: string }, [string, string]>('SELECT id FROM playlists WHERE id = ? AND user_id = ?').get(id, ownerId)
  if (!own) return null
  const playlist = playlistWithRows(db, ownerId, id)
  return { title: playlist.name, rows: playlist.entries.flatMap((e) => e.row ?? []).slice(0, MAX_SHARE_TRACKS) }
}

/** The library rows of a track or album target, in play order (an album by disc and track number); gone files are left out. */
function rowsOfTarget(db: Db, target: Exclude<ShareTarget, { kind: 'playlist' }>): LibraryRow[] {
  if (target.kind === 'album') return albumRows(db, target.id)
  const rows = db.$client.query<LibraryRow, [string]>(`${LIBRARY_SELECT} WHERE t.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(target.ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return target.ids.flatMap((id) => byId.get(id) ?? [])
}

const albumName = (db: Db, id: string) => db.$client.query<{ name: string }, [string]>('SELECT name FROM library_albums WHERE id = ?').get(id)?.name ?? null

/** A share's title: the album's name, the one track's title, or "N tracks". */
function titleOf(db: Db, target: Exclude<ShareTarget, { kind: 'playlist' }>, rows: LibraryRow[]): string {
  if (target.kind === 'album') return albumName(db, target.id) ?? rows[0]?.album ?? 'Album'
  return rows.length === 1 ? rows[0].title : `${rows.length} tracks`
}

/** A web input's target as stored: a track named by id or /media/ URL, an album, or one of the member's playlists; unknown ones are refused. */
export function resolveTarget(db: Db, userId: string, input: ShareCreateInput['target']): ShareTarget {
  if (input.kind === 'playlist') {
    // Another member's public playlist is visible but not theirs to share: not found, as a private one.
    if (!playlistSummary(db, userId, input.id).mine) throw new NotFoundError(PLAYLIST_NOT_FOUND)
    return { kind: 'playlist', id: input.id }
  }
  if (input.kind === 'album') {
    if (albumName(db, input.id) === null) throw new NotFoundError('Album not found')
    return { kind: 'album', id: input.id }
  }
  const where = input.kind === 'track' ? { sql: 't.id = ?', value: input.id } : { sql: 't.path = ?', value: libraryPathOf(input.url) }
  if (where.value === null) throw new InvalidError('Only tracks of the server library can be shared as a link')
  const row = db.$client.query<{ id: string }, [string]>(`SELECT t.id FROM library_tracks t WHERE ${where.sql}`).get(where.value)
  if (!row) throw new NotFoundError('Track not found')
  return { kind: 'tracks', ids: [row.id] }
}

/** The library path of a /media/ URL (signed or not, absolute or not), or null. */
function libraryPathOf(url: string): string | null {
  try {
    const parsed = new URL(url, 'http://vibes.invalid')
    return parsed.pathname.startsWith('/media/') ? mediaPathOf(parsed.pathname) : null
  } catch {
    return null
  }
}

export type ShareSummary = {
  id: string
  /** The public page's path (/s/<id>); the client puts its origin in front. */
  path: string
  kind: ShareTarget['kind']
  title: string
  trackCount: number
  description: string | null
  createdAt: number
  expiresAt: number | null
  expired: boolean
  visitCount: number
  playCount: number
  lastVisitedAt: number | null
}

const DELETED_PLAYLIST_TITLE = 'Deleted playlist'

function summaryOf(db: Db, row: Share, now: number): ShareSummary & { rows: LibraryRow[] } {
  const content = contentOf(db, row)
  const rows = content?.rows ?? []
  return {
    id: row.id,
    path: sharePath(row.id),
    kind: targetOf(row).kind,
    title: content?.title ?? DELETED_PLAYLIST_TITLE,
    trackCount: rows.length,
    description: row.description,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now,
    visitCount: row.visitCount,
    playCount: row.playCount,
    lastVisitedAt: row.lastVisitedAt?.getTime() ?? null,
    rows,
  }
}

const withoutRows = ({ rows: _rows, ...summary }: ShareSummary & { rows: LibraryRow[] }): ShareSummary => summary

/** A new share of `target` for the member; `expiresAt` null never expires. */
export function createShare(
  db: Db,
  userId: string,
  share: { target: ShareTarget; expiresAt: Date | null; description: string | null },
  now = Date.now(),
): ShareSummary & { rows: LibraryRow[] } {
  const ids = share.target.kind === 'tracks' ? share.target.ids : [share.target.id]
  if (ids.length === 0) throw new InvalidError('Nothing to share: name a track, an album or a playlist')
  if (ids.length > MAX_SHARE_TRACKS) throw new InvalidError(`A share holds at most ${MAX_SHARE_TRACKS} tracks`)
  if (share.expiresAt && share.expiresAt.getTime() <= now) throw new InvalidError('Expiry must be in the future')
  const live = db
    .select({ n: count() })
    .from(shares)
    .where(and(eq(shares.userId, userId), isNull(shares.revokedAt)))
    .get()
  if ((live?.n ?? 0) >= MAX_SHARES_PER_USER) throw new InvalidError(`You can keep at most ${MAX_SHARES_PER_USER} share links; revoke one first`)
  const row = db
    .insert(shares)
    .values({
      id: newShareId(),
      userId,
      targetKind: share.target.kind,
      targetIds: JSON.stringify(ids),
      description: share.description,
      createdAt: new Date(now),
      expiresAt: share.expiresAt,
    })
    .returning()
    .get()
  return summaryOf(db, row, now)
}

/** The web's create: a target as the page names it, an expiry from the offered choices. */
export function createShareFromWeb(db: Db, userId: string, input: ShareCreateInput, now = Date.now()): ShareSummary {
  const ms = SHARE_EXPIRY_MS[input.expiresIn]
  const expiresAt = ms === null ? null : new Date(now + ms)
  return withoutRows(createShare(db, userId, { target: resolveTarget(db, userId, input.target), expiresAt, description: input.description }, now))
}

/** The member's live (not revoked) shares, newest first, expired ones included and marked. */
export function listShareRows(db: Db, userId: string, now = Date.now()): Array<ShareSummary & { rows: LibraryRow[] }> {
  const rows = db
    .select()
    .from(shares)
    .where(and(eq(shares.userId, userId), isNull(shares.revokedAt)))
    .orderBy(desc(shares.createdAt))
    .all()
  return rows.map((r) => summaryOf(db, r, now))
}

export function listShares(db: Db, userId: string, now = Date.now()): { shares: ShareSummary[] } {
  return { shares: listShareRows(db, userId, now).map(withoutRows) }
}

/** One of the member's live shares; another member's, a revoked or an unknown id is not found. */
function ownLiveShare(db: Db, userId: string, id: string): Share {
  const row = db
    .select()
    .from(shares)
    .where(and(eq(shares.id, id), eq(shares.userId, userId), isNull(shares.revokedAt)))
    .get()
  if (!row) throw new NotFoundError(SHARE_NOT_FOUND)
  return row
}

/** Changes the description and/or the expiry (null: never) of one of the member's shares. */
export function updateShare(
  db: Db,
  userId: string,
  id: string,
  change: { description?: string | null; expiresAt?: Date | null },
  now = Date.now(),
): ShareSummary {
  const own = ownLiveShare(db, userId, id)
  if (change.expiresAt && change.expiresAt.getTime() <= now) throw new InvalidError('Expiry must be in the future')
  // Nothing to change (an app may send only the id) is not an error.
  if (change.description === undefined && change.expiresAt === undefined) return withoutRows(summaryOf(db, own, now))
  const row = db.update(shares).set(change).where(eq(shares.id, id)).returning().get()
  return withoutRows(summaryOf(db, row, now))
}

/** Revokes one of the member's shares: its link answers "was revoked" from now on. */
export function revokeShare(db: Db, userId: string, id: string, now = Date.now()): ShareSummary {
  ownLiveShare(db, userId, id)
  const row = db
    .update(shares)
    .set({ revokedAt: new Date(now) })
    .where(eq(shares.id, id))
    .returning()
    .get()
  return withoutRows(summaryOf(db, row, now))
}

/** A shared track as the public page shows it: tags, cover and signed URLs, no ids. */
export type PublicShareTrack = {
  title: string
  artist: string
  album: string
  duration: number
  url: string
  mime: string
  cover?: string
  unavailable?: string
}
export type PublicShare = {
  id: string
  kind: ShareTarget['kind']
  title: string
  description: string | null
  expiresAt: number | null
  tracks: PublicShareTrack[]
}
/** What a link opens to: the share, or why not (the page says it; HTTP 410 or 404). */
export type ShareOpening =
  | { state: 'open'; share: PublicShare }
  // 'gone': the playlist the link names was deleted; like an expired link, it will not come back.
  | { state: 'expired' | 'revoked' | 'gone'; message: string }
  | { state: 'missing'; message: string }

/** The share behind a link if it may still be played, else why not. */
function liveShare(db: Db, id: string, now: number): Share | Exclude<ShareOpening, { state: 'open' }> {
  const row = db.select().from(shares).where(eq(shares.id, id)).get()
  if (!row) return { state: 'missing', message: SHARE_MISSING }
  if (row.revokedAt) return { state: 'revoked', message: SHARE_REVOKED }
  if (row.expiresAt && row.expiresAt.getTime() <= now) return { state: 'expired', message: SHARE_EXPIRED }
  return row
}

/** Opens a link for a visitor: counts the visit and answers the shared tracks with URLs that end with the link. */
export function openShare(db: Db, secret: string, id: string, now = Date.now()): ShareOpening {
  const row = liveShare(db, id, now)
  if ('state' in row) return row
  const content = contentOf(db, row)
  if (!content) return { state: 'gone', message: SHARE_PLAYLIST_DELETED }
  db.update(shares)
    .set({ visitCount: sql`${shares.visitCount} + 1`, lastVisitedAt: new Date(now) })
    .where(eq(shares.id, id))
    .run()
  const { target, title, rows } = content
  const notAfterSec = row.expiresAt ? row.expiresAt.getTime() / 1000 : undefined
  const nowSec = Math.floor(now / 1000)
  const tracks = rows.map((r): PublicShareTrack => {
    const track: PublicShareTrack = {
      title: r.title,
      artist: displayArtist(r),
      album: r.album,
      duration: r.duration,
      ...signedMediaUrl(secret, r.path, r.mime, notAfterSec),
    }
    if (r.coverPath) track.cover = signMediaUrl(secret, r.coverPath, 'cover', nowSec, notAfterSec)
    return track
  })
  return {
    state: 'open',
    share: {
      id: row.id,
      kind: target.kind,
      title,
      description: row.description,
      expiresAt: row.expiresAt?.getTime() ?? null,
      tracks,
    },
  }
}

/** A visitor played the share's track number `index`: one play event (source `share`, no member) and the share's play count. */
export function recordSharePlay(db: Db, id: string, index: number, client: ClientInfo, now = Date.now()): { playCount: number } {
  const row = liveShare(db, id, now)
  if ('state' in row) throw new NotFoundError(row.message)
  const content = contentOf(db, row)
  if (!content) throw new NotFoundError(SHARE_PLAYLIST_DELETED)
  const track = content.rows[index]
  if (!track) throw new NotFoundError('This share has no such track')
  const { path, title, duration, genre, artist, album, year } = track
  // recordPlay's statement is prepared on db's connection, so it runs inside this transaction.
  return db.transaction(() => {
    recordPlay(db, null, { trackUrl: libraryTrackKey(path), title, duration, genre, artist, album, year, source: SHARE_SOURCE }, client)
    const updated = db
      .update(shares)
      .set({ playCount: sql`${shares.playCount} + 1` })
      .where(eq(shares.id, id))
      .returning({ playCount: shares.playCount })
      .get()
    return { playCount: updated?.playCount ?? 0 }
  })
}
