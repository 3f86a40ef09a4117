// A member's play queue (CONTRACT §6 "Play queue (members)"): the web player saves it so another
// device can resume it, and OpenSubsonic's getPlayQueue/savePlayQueue will share the same row.
// One row per member; a save replaces it whole, so the newest save wins.
//
// Library tracks are signed /media/ URLs that expire in a day; a queue resumed next week would
// not play. The web player saves them as bare paths (queuedTrackOf: 5,000 signed URLs with tags
// were over the 1 MB body limit), and reading signs each bare library path again and fills in its
// tags from the library index (or the file name). Signing a
// bare path hands a member nothing new: GET /library/folders lists and signs every media file
// under MEDIA_ROOT for any member; only media file names are signed, as the files themselves.
// A signed URL saved by an older player is re-signed only if its signature is ours.
import { eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '~/db/client'
import { libraryTracks, playQueues } from '~/db/schema'
import { deviceName } from '~/shared/player/device'
import { mimeFromName } from '~/shared/player/mime'
import type { QueuedTrack, SavedQueue } from '~/shared/player/play-queue'
import type { PlayQueueSaveSchema } from '~/shared/validators'
import { fileTitle } from '../media/natural'
import { mediaPathOf } from '../media/request-rules'
import { mediaKindOf, signMediaUrl, verifyMediaSignature } from '../media/sign'
import { mediaSource } from '../media/transcode'
import { isLibraryMediaName } from '../media/transcode-profile'

type SaveInput = z.output<typeof PlayQueueSaveSchema>

const EMPTY = { tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' } satisfies SavedQueue

export function getPlayQueue(db: Db, userId: string, secret: string): SavedQueue {
  const row = db.select().from(playQueues).where(eq(playQueues.userId, userId)).get()
  if (!row) return EMPTY
  const bare = new Map<QueuedTrack, string>()
  for (const t of row.tracks) {
    const relPath = bareLibraryPath(t.url)
    if (relPath) bare.set(t, relPath)
  }
  const tags = libraryTags(db, [...new Set(bare.values())])
  const tracks = row.tracks.map((t) => {
    const relPath = bare.get(t)
    return relPath ? libraryTrack(secret, relPath, tags.get(relPath)) : { ...t, url: resignMediaUrl(secret, t.url) }
  })
  return { tracks, index: row.index, positionSec: row.positionSec, updatedAt: row.updatedAt.getTime(), device: row.device }
}

/** Saves the queue (replacing the last one); `device` defaults to a name made from the User-Agent. */
export function savePlayQueue(db: Db, userId: string, input: SaveInput, userAgent: string | null): { updatedAt: number } {
  const values = {
    tracks: input.tracks,
    index: input.tracks.length > 0 ? input.index : 0,
    positionSec: input.tracks.length > 0 ? input.positionSec : 0,
    device: input.device || deviceName(userAgent),
    updatedAt: new Date(),
  }
  db.insert(playQueues)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: playQueues.userId, set: values })
    .run()
  return { updatedAt: values.updatedAt.getTime() }
}

/** The library path of a bare /media/ URL (no signature) naming a media file, else null. */
function bareLibraryPath(url: string): string | null {
  if (!url.startsWith('/media/')) return null
  const parsed = new URL(url, 'http://x')
  if (parsed.searchParams.has('sig')) return null
  const relPath = mediaPathOf(parsed.pathname)
  return relPath && isLibraryMediaName(relPath) ? relPath : null
}

type Tags = { title: string; artist: string; album: string; duration: number; mime: string }

/** Tags of library paths from the index (SQLite's 32,766 bound variables: 500 a query). */
function libraryTags(db: Db, paths: string[]): Map<string, Partial<Tags>> {
  const out = new Map<string, Partial<Tags>>()
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500)
    const indexed = db
      .select({
        path: libraryTracks.path,
        title: libraryTracks.title,
        artist: libraryTracks.artist,
        album: libraryTracks.album,
        duration: libraryTracks.duration,
        mime: libraryTracks.mime,
      })
      .from(libraryTracks)
      .where(inArray(libraryTracks.path, chunk))
      .all()
    for (const { path, ...t } of indexed) out.set(path, t)
  }
  return out
}

/** A library track as the library would list it: signed (or its converted stream), with its tags. */
function libraryTrack(secret: string, relPath: string, tags: Partial<Tags> = {}): QueuedTrack {
  const source = mediaSource(secret, relPath, tags.mime ?? mimeFromName(relPath))
  return {
    url: source.url,
    title: tags.title ?? fileTitle(relPath),
    artist: tags.artist ?? '',
    album: tags.album ?? '',
    duration: tags.duration ?? 0,
    mime: source.mime,
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
