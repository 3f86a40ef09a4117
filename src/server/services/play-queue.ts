// A member's play queue (CONTRACT §6 "Play queue (members)"): the web player saves it so another
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
import { eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '~/db/client'
import { libraryTracks, playQueues, type QueuedTrack as StoredTrack } from '~/db/schema'
import { deviceName } from '~/shared/player/device'
import type { QueuedTrack, SavedQueue } from '~/shared/player/play-queue'
import type { ReplayGain } from '~/shared/player/track'
import type { PlayQueueSaveSchema } from '~/shared/validators'
import { mediaPathOf } from '../media/request-rules'
import { mediaKindOf, signMediaUrl, verifyMediaSignature } from '../media/sign'
import { mediaSource } from '../media/transcode'
import { isLibraryMediaName } from '../media/transcode-profile'
import { replayGainOf } from './library-index'

type SaveInput = z.output<typeof PlayQueueSaveSchema>

const EMPTY = { tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' } satisfies SavedQueue

export function getPlayQueue(db: Db, userId: string, secret: string): SavedQueue {
  const row = db.select().from(playQueues).where(eq(playQueues.userId, userId)).get()
  if (!row) return EMPTY
  const library = new Map<StoredTrack, { relPath: string; signed: boolean }>()
  for (const t of row.tracks) {
    const found = libraryPathOf(secret, t.url)
    if (found) library.set(t, found)
  }
  const tags = libraryTags(db, [...new Set([...library.values()].map((l) => l.relPath))])
  const tracks = row.tracks.map((t): QueuedTrack => {
    const found = library.get(t)
    const indexed = found && tags.get(found.relPath)
    if (!found || !indexed) return t
    if (!found.signed) return libraryTrack(secret, found.relPath, indexed)
    // Saved signed (an older player): its saved tags stay, the ReplayGain is the index's.
    return { ...t, url: resignMediaUrl(secret, t.url), ...artOf(secret, indexed) }
  })
  return { tracks, index: row.index, positionSec: row.positionSec, updatedAt: row.updatedAt.getTime(), device: row.device }
}

/** Saves the queue (replacing the last one); `device` defaults to a name made from the User-Agent. */
export function savePlayQueue(db: Db, userId: string, input: SaveInput, userAgent: string | null): { updatedAt: number } {
  const values = {
    // A player's ReplayGain, cover and year are not kept: a read takes them from the library index.
    tracks: input.tracks.map(({ replayGain: _gain, cover: _cover, year: _year, ...t }) => t),
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

type Tags = {
  title: string
  artist: string
  album: string
  duration: number
  mime: string
  year: number | null
  coverPath: string | null
  replayGain?: ReplayGain
}

/** What the index adds to a saved track on the way back: its cover (signed), year and ReplayGain. */
function artOf(secret: string, tags: Tags): Pick<QueuedTrack, 'cover' | 'year' | 'replayGain'> {
  return {
    ...(tags.coverPath ? { cover: signMediaUrl(secret, tags.coverPath, 'cover') } : {}),
    ...(tags.year ? { year: tags.year } : {}),
    ...(tags.replayGain ? { replayGain: tags.replayGain } : {}),
  }
}

/** Tags of library paths from the index (SQLite's 32,766 bound variables: 500 a query). */
function libraryTags(db: Db, paths: string[]): Map<string, Tags> {
  const out = new Map<string, Tags>()
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
        year: libraryTracks.year,
        coverPath: libraryTracks.coverPath,
        rgTrackGain: libraryTracks.rgTrackGain,
        rgTrackPeak: libraryTracks.rgTrackPeak,
        rgAlbumGain: libraryTracks.rgAlbumGain,
        rgAlbumPeak: libraryTracks.rgAlbumPeak,
      })
      .from(libraryTracks)
      .where(inArray(libraryTracks.path, chunk))
      .all()
    for (const { path, rgTrackGain, rgTrackPeak, rgAlbumGain, rgAlbumPeak, ...t } of indexed) {
      const replayGain = replayGainOf({ rgTrackGain, rgTrackPeak, rgAlbumGain, rgAlbumPeak })
      out.set(path, replayGain ? { ...t, replayGain } : t)
    }
  }
  return out
}

/** A library track as the library would list it: signed (or its converted stream), with its tags, cover and year. */
function libraryTrack(secret: string, relPath: string, tags: Tags): QueuedTrack {
  const source = mediaSource(secret, relPath, tags.mime)
  return {
    url: source.url,
    title: tags.title,
    artist: tags.artist,
    album: tags.album,
    duration: tags.duration,
    mime: source.mime,
    ...artOf(secret, tags),
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
