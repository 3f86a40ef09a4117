// Share links (docs/decisions/069): a member shares library tracks, an album or one of their own
// playlists as a link,
// /s/<id>, that anyone may open and play without an account until it expires or is revoked.
// What a visitor gets is only the shared tracks' tags, covers and signed /media URLs, which end
// with the link (signMediaUrl's notAfterSec) and name only those files; never the member, nor
// anything else of the server. Every door (tRPC and REST for the web, /rest for apps) goes
// through these functions; their refusals are the domain errors of src/server/errors.ts.
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm'
import { type Db, firstRow, rows, tablesOf, transaction } from '~/db/engine'
import { listOf } from '~/db/json-list'
import type { Share } from '~/db/schema'
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

async function contentOf(db: Db, share: Pick<Share, 'targetKind' | 'targetIds' | 'userId'>): Promise<ShareContent | null> {
  const target = targetOf(share)
  if (target.kind === 'playlist') {
    const playlist = await playlistRows(db, share.userId, target.id)
    return playlist && { target, ...playlist }
  }
  const found = await rowsOfTarget(db, target)
  return { target, title: await titleOf(db, target, found), rows: found }
}

/**
 * The sharer's playlist as it is now (the link follows later edits): its name and available
 * tracks in playlist order, entries whose file has gone left out, at most MAX_SHARE_TRACKS. Null
 * when the playlist is gone.
 */
async function playlistRows(db: Db, ownerId: string, id: string): Promise<{ title: string; rows: LibraryRow[] } | null> {
  const own = await firstRow<{ id: string }>(db, sql`SELECT id FROM playlists WHERE id = ${id} AND user_id = ${ownerId}`)
  if (!own) return null
  const playlist = await playlistWithRows(db, ownerId, id)
  return { title: playlist.name, rows: playlist.entries.flatMap((e) => e.row ?? []).slice(0, MAX_SHARE_TRACKS) }
}

/** The library rows of a track or album target, in play order (an album by disc and track number); gone files are left out. */
async function rowsOfTarget(db: Db, target: Exclude<ShareTarget, { kind: 'playlist' }>): Promise<LibraryRow[]> {
  if (target.kind === 'album') return await albumRows(db, target.id)
  const found = await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.id IN (${listOf(db, target.ids)})`)
  const byId = new Map(found.map((r) => [r.id, r]))
  return target.ids.flatMap((id) => byId.get(id) ?? [])
}

const albumName = async (db: Db, id: string) => (await firstRow<{ name: string }>(db, sql`SELECT name FROM library_albums WHERE id = ${id}`))?.name ?? null

/** A share's title: the album's name, the one track's title, or "N tracks". */
async function titleOf(db: Db, target: Exclude<ShareTarget, { kind: 'playlist' }>, tracks: LibraryRow[]): Promise<string> {
  if (target.kind === 'album') return (await albumName(db, target.id)) ?? tracks[0]?.album ?? 'Album'
  return tracks.length === 1 ? tracks[0].title : `${tracks.length} tracks`
}

/** A web input's target as stored: a track named by id or /media/ URL, an album, or one of the member's playlists; unknown ones are refused. */
export async function resolveTarget(db: Db, userId: string, input: ShareCreateInput['target']): Promise<ShareTarget> {
  if (input.kind === 'playlist') {
    // Another member's public playlist is visible but not theirs to share: not found, as a private one.
    if (!(await playlistSummary(db, userId, input.id)).mine) throw new NotFoundError(PLAYLIST_NOT_FOUND)
    return { kind: 'playlist', id: input.id }
  }
  if (input.kind === 'album') {
    if ((await albumName(db, input.id)) === null) throw new NotFoundError('Album not found')
    return { kind: 'album', id: input.id }
  }
  const path = input.kind === 'track' ? null : libraryPathOf(input.url)
  if (input.kind !== 'track' && path === null) throw new InvalidError('Only tracks of the server library can be shared as a link')
  const where = input.kind === 'track' ? sql`t.id = ${input.id}` : sql`t.path = ${path}`
  const row = await firstRow<{ id: string }>(db, sql`SELECT t.id FROM library_tracks t WHERE ${where}`)
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

async function summaryOf(db: Db, row: Share, now: number): Promise<ShareSummary & { rows: LibraryRow[] }> {
  const content = await contentOf(db, row)
  const tracks = content?.rows ?? []
  return {
    id: row.id,
    path: sharePath(row.id),
    kind: targetOf(row).kind,
    title: content?.title ?? DELETED_PLAYLIST_TITLE,
    trackCount: tracks.length,
    description: row.description,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt?.getTime() ?? null,
    expired: row.expiresAt !== null && row.expiresAt.getTime() <= now,
    visitCount: row.visitCount,
    playCount: row.playCount,
    lastVisitedAt: row.lastVisitedAt?.getTime() ?? null,
    rows: tracks,
  }
}

const withoutRows = ({ rows: _rows, ...summary }: ShareSummary & { rows: LibraryRow[] }): ShareSummary => summary

/** A new share of `target` for the member; `expiresAt` null never expires. */
export async function createShare(
  db: Db,
  userId: string,
  share: { target: ShareTarget; expiresAt: Date | null; description: string | null },
  now = Date.now(),
): Promise<ShareSummary & { rows: LibraryRow[] }> {
  const { shares } = tablesOf(db)
  const ids = share.target.kind === 'tracks' ? share.target.ids : [share.target.id]
  if (ids.length === 0) throw new InvalidError('Nothing to share: name a track, an album or a playlist')
  if (ids.length > MAX_SHARE_TRACKS) throw new InvalidError(`A share holds at most ${MAX_SHARE_TRACKS} tracks`)
  if (share.expiresAt && share.expiresAt.getTime() <= now) throw new InvalidError('Expiry must be in the future')
  const [live] = await db
    .select({ n: count() })
    .from(shares)
    .where(and(eq(shares.userId, userId), isNull(shares.revokedAt)))
  if (Number(live?.n ?? 0) >= MAX_SHARES_PER_USER) throw new InvalidError(`You can keep at most ${MAX_SHARES_PER_USER} share links; revoke one first`)
  const [row] = await db
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
  return summaryOf(db, row, now)
}

/** The web's create: a target as the page names it, an expiry from the offered choices. */
export async function createShareFromWeb(db: Db, userId: string, input: ShareCreateInput, now = Date.now()): Promise<ShareSummary> {
  const ms = SHARE_EXPIRY_MS[input.expiresIn]
  const expiresAt = ms === null ? null : new Date(now + ms)
  const target = await resolveTarget(db, userId, input.target)
  return withoutRows(await createShare(db, userId, { target, expiresAt, description: input.description }, now))
}

/** The member's live (not revoked) shares, newest first, expired ones included and marked. */
export async function listShareRows(db: Db, userId: string, now = Date.now()): Promise<Array<ShareSummary & { rows: LibraryRow[] }>> {
  const { shares } = tablesOf(db)
  const own = await db
    .select()
    .from(shares)
    .where(and(eq(shares.userId, userId), isNull(shares.revokedAt)))
    .orderBy(desc(shares.createdAt))
  const summaries: Array<ShareSummary & { rows: LibraryRow[] }> = []
  for (const r of own) summaries.push(await summaryOf(db, r, now))
  return summaries
}

export async function listShares(db: Db, userId: string, now = Date.now()): Promise<{ shares: ShareSummary[] }> {
  return { shares: (await listShareRows(db, userId, now)).map(withoutRows) }
}

/** One of the member's live shares; another member's, a revoked or an unknown id is not found. */
async function ownLiveShare(db: Db, userId: string, id: string): Promise<Share> {
  const { shares } = tablesOf(db)
  const [row] = await db
    .select()
    .from(shares)
    .where(and(eq(shares.id, id), eq(shares.userId, userId), isNull(shares.revokedAt)))
  if (!row) throw new NotFoundError(SHARE_NOT_FOUND)
  return row
}

/** Changes the description and/or the expiry (null: never) of one of the member's shares. */
export async function updateShare(
  db: Db,
  userId: string,
  id: string,
  change: { description?: string | null; expiresAt?: Date | null },
  now = Date.now(),
): Promise<ShareSummary> {
  const { shares } = tablesOf(db)
  const own = await ownLiveShare(db, userId, id)
  if (change.expiresAt && change.expiresAt.getTime() <= now) throw new InvalidError('Expiry must be in the future')
  // Nothing to change (an app may send only the id) is not an error.
  if (change.description === undefined && change.expiresAt === undefined) return withoutRows(await summaryOf(db, own, now))
  const [row] = await db.update(shares).set(change).where(eq(shares.id, id)).returning()
  return withoutRows(await summaryOf(db, row, now))
}

/** Revokes one of the member's shares: its link answers "was revoked" from now on. */
export async function revokeShare(db: Db, userId: string, id: string, now = Date.now()): Promise<ShareSummary> {
  const { shares } = tablesOf(db)
  await ownLiveShare(db, userId, id)
  const [row] = await db
    .update(shares)
    .set({ revokedAt: new Date(now) })
    .where(eq(shares.id, id))
    .returning()
  return withoutRows(await summaryOf(db, row, now))
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
async function liveShare(db: Db, id: string, now: number): Promise<Share | Exclude<ShareOpening, { state: 'open' }>> {
  const { shares } = tablesOf(db)
  const [row] = await db.select().from(shares).where(eq(shares.id, id))
  if (!row) return { state: 'missing', message: SHARE_MISSING }
  if (row.revokedAt) return { state: 'revoked', message: SHARE_REVOKED }
  if (row.expiresAt && row.expiresAt.getTime() <= now) return { state: 'expired', message: SHARE_EXPIRED }
  return row
}

/** Opens a link for a visitor: counts the visit and answers the shared tracks with URLs that end with the link. */
export async function openShare(db: Db, secret: string, id: string, now = Date.now()): Promise<ShareOpening> {
  const { shares } = tablesOf(db)
  const row = await liveShare(db, id, now)
  if ('state' in row) return row
  const content = await contentOf(db, row)
  if (!content) return { state: 'gone', message: SHARE_PLAYLIST_DELETED }
  await db
    .update(shares)
    .set({ visitCount: sql`${shares.visitCount} + 1`, lastVisitedAt: new Date(now) })
    .where(eq(shares.id, id))
  const { target, title } = content
  const notAfterSec = row.expiresAt ? row.expiresAt.getTime() / 1000 : undefined
  const nowSec = Math.floor(now / 1000)
  const tracks = content.rows.map((r): PublicShareTrack => {
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
export async function recordSharePlay(db: Db, id: string, index: number, client: ClientInfo, now = Date.now()): Promise<{ playCount: number }> {
  const { shares } = tablesOf(db)
  const row = await liveShare(db, id, now)
  if ('state' in row) throw new NotFoundError(row.message)
  const content = await contentOf(db, row)
  if (!content) throw new NotFoundError(SHARE_PLAYLIST_DELETED)
  const track = content.rows[index]
  if (!track) throw new NotFoundError('This share has no such track')
  const { path, title, duration, genre, artist, album, year } = track
  // The play and the share's count: both or neither.
  return transaction(db, async (tx) => {
    await recordPlay(tx, null, { trackUrl: libraryTrackKey(path), title, duration, genre, artist, album, year, source: SHARE_SOURCE }, client)
    const [updated] = await tx
      .update(shares)
      .set({ playCount: sql`${shares.playCount} + 1` })
      .where(eq(shares.id, id))
      .returning({ playCount: shares.playCount })
    return { playCount: updated?.playCount ?? 0 }
  })
}
