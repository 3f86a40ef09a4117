// A member's play queue: the web player saves it so another
// device can resume it, and OpenSubsonic's getPlayQueue/savePlayQueue will share the same row.
// One row per member; a save replaces it whole, so the newest save wins.
//
// Library tracks are signed /media/ URLs that expire in a day; a queue resumed next week would
// not play. The web player saves them as bare paths (queuedTrackOf: 5,000 signed URLs with tags
// were over the 1 MB body limit), and reading signs each bare library path again and fills in its
// tags and ReplayGain from the library index (ReplayGain never comes from a player: the save
// schema has no field for it).
// Only a file the library index holds is signed: the scanner decides what members may stream
// (media files inside MEDIA_ROOT, no hidden names), and every member can list and stream the
// whole index anyway, so signing an indexed path hands a member nothing new. Any other /media/
// path (a hidden file, one the scan has not seen yet, a non-media file) comes back as it was
// saved, unsigned, and /media refuses it. A signed URL saved by an older player is re-signed
// only if its signature is ours and its file is in the index. Remote URLs come back as saved.
import { eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { type Db, rows, tablesOf } from '~/db/engine'
import { listOf } from '~/db/json-list'
import type { QueuedTrack as StoredTrack } from '~/db/schema'
import { deviceName } from '~/shared/player/device'
import type { QueuedTrack, SavedQueue } from '~/shared/player/play-queue'
import type { PlayQueueSaveSchema } from '~/shared/validators'
import { LIBRARY_SELECT, type LibraryRow, playerTrackOf } from '../catalog/track'
import { mediaPathOf } from '../media/request-rules'
import { mediaKindOf, signMediaUrl, verifyMediaSignature } from '../media/sign'
import { isLibraryMediaName } from '../media/transcode-profile'

type SaveInput = z.output<typeof PlayQueueSaveSchema>

const EMPTY = { tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' } satisfies SavedQueue

/**
 * The saved queue as it was stored, nothing signed: OpenSubsonic's getPlayQueue maps the URLs to
 * song ids itself (signing 5,000 URLs it then throws away would be most of its cost).
 */
export async function storedPlayQueue(db: Db, userId: string) {
  const { playQueues } = tablesOf(db)
  const [row] = await db.select().from(playQueues).where(eq(playQueues.userId, userId))
  return row ? { ...row, updatedAt: row.updatedAt.getTime() } : null
}

export async function getPlayQueue(db: Db, userId: string, secret: string): Promise<SavedQueue> {
  const row = await storedPlayQueue(db, userId)
  if (!row) return EMPTY
  const library = new Map<StoredTrack, { relPath: string; signed: boolean }>()
  for (const t of row.tracks) {
    const found = libraryPathOf(secret, t.url)
    if (found) library.set(t, found)
  }
  const indexed = await libraryRows(db, [...new Set([...library.values()].map((l) => l.relPath))])
  const tracks = row.tracks.map((t): QueuedTrack => {
    const found = library.get(t)
    const row = found && indexed.get(found.relPath)
    if (!found || !row) return t
    const fresh = libraryTrack(secret, row)
    if (!found.signed) return fresh
    // Saved signed (an older player): its saved tags stay, the ReplayGain is the index's.
    return { ...t, url: resignMediaUrl(secret, t.url), ...fromIndex(fresh) }
  })
  return { tracks, index: row.index, positionSec: row.positionSec, updatedAt: row.updatedAt, device: row.device }
}

/** Saves the queue (replacing the last one); `device` defaults to a name made from the User-Agent. */
export async function savePlayQueue(db: Db, userId: string, input: SaveInput, userAgent: string | null): Promise<{ updatedAt: number }> {
  const { playQueues } = tablesOf(db)
  const values = {
    // A player's ReplayGain, cover and year are not kept: a read takes them from the library index.
    tracks: input.tracks.map(({ replayGain: _gain, cover: _cover, year: _year, ...t }) => t),
    index: input.tracks.length > 0 ? input.index : 0,
    positionSec: input.tracks.length > 0 ? input.positionSec : 0,
    device: input.device || deviceName(userAgent),
    updatedAt: new Date(),
  }
  await db
    .insert(playQueues)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: playQueues.userId, set: values })
  return { updatedAt: values.updatedAt.getTime() }
}

/**
 * The library path of a /media/ URL naming a media file — bare (as players save it) or signed by
 * us (an older player's save) — else null.
 */
function libraryPathOf(secret: string, url: string): { relPath: string; signed: boolean } | null {
  if (!url.startsWith('/media/')) return null
  const parsed = new URL(url, 'http://x')
  const relPath = mediaPathOf(parsed.pathname)
  if (!relPath || !isLibraryMediaName(relPath)) return null
  if (!parsed.searchParams.has('sig')) return { relPath, signed: false }
  const kind = mediaKindOf(parsed.searchParams)
  const check = kind && verifyMediaSignature(secret, relPath, kind, parsed.searchParams.get('exp'), parsed.searchParams.get('sig'), 0)
  return check === 'ok' ? { relPath, signed: true } : null
}

/** The index rows of library paths, by path (one bound JSON array, so any number of paths). */
async function libraryRows(db: Db, paths: string[]): Promise<Map<string, LibraryRow>> {
  if (paths.length === 0) return new Map()
  const found = await rows<LibraryRow>(db, sql`${sql.raw(LIBRARY_SELECT)} WHERE t.path IN (${listOf(db, paths)})`)
  return new Map(found.map((r) => [r.path, r]))
}

/** A library track as the library would list it (playerTrackOf), in the saved queue's fields. */
function libraryTrack(secret: string, row: LibraryRow): QueuedTrack {
  const { url, title, artist, album, duration, mime, ...rest } = playerTrackOf(secret, row)
  return { url, title, artist, album, duration, mime, ...fromIndex(rest) }
}

/** What the index adds to a saved track on the way back: its cover (signed), year and ReplayGain. */
function fromIndex(t: Pick<QueuedTrack, 'cover' | 'year' | 'replayGain'>): Pick<QueuedTrack, 'cover' | 'year' | 'replayGain'> {
  return {
    ...(t.cover ? { cover: t.cover } : {}),
    ...(t.year ? { year: t.year } : {}),
    ...(t.replayGain ? { replayGain: t.replayGain } : {}),
  }
}

/** A fresh signature for a /media/ URL we signed before; any other URL is returned as it is. */
export function resignMediaUrl(secret: string, url: string): string {
  if (!url.startsWith('/media/')) return url
  const parsed = new URL(url, 'http://x')
  const relPath = mediaPathOf(parsed.pathname)
  if (!relPath) return url
  const kind = mediaKindOf(parsed.searchParams)
  if (!kind) return url
  // nowSec 0: check the signature only; an expired one is exactly what needs renewing.
  const check = verifyMediaSignature(secret, relPath, kind, parsed.searchParams.get('exp'), parsed.searchParams.get('sig'), 0)
  return check === 'ok' ? signMediaUrl(secret, relPath, kind) : url
}
