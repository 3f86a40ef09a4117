// A member's play queue (CONTRACT §6 "Play queue (members)"): the web player saves it so another
// device can resume it, and OpenSubsonic's getPlayQueue/savePlayQueue will share the same row.
// One row per member; a save replaces it whole, so the newest save wins.
//
// Library tracks arrive as signed /media/ URLs that expire in a day; a queue resumed next week
// would not play. So reading re-signs every /media/ URL whose signature we made (expired or not):
// nothing is signed that was not signed before.
import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '~/db/client'
import { playQueues } from '~/db/schema'
import { deviceName } from '~/shared/player/device'
import type { SavedQueue } from '~/shared/player/play-queue'
import type { PlayQueueSaveSchema } from '~/shared/validators'
import { mediaPathOf } from '../media/request-rules'
import { mediaKindOf, signMediaUrl, verifyMediaSignature } from '../media/sign'

type SaveInput = z.output<typeof PlayQueueSaveSchema>

const EMPTY = { tracks: [], index: 0, positionSec: 0, updatedAt: 0, device: '' } satisfies SavedQueue

export function getPlayQueue(db: Db, userId: string, secret: string): SavedQueue {
  const row = db.select().from(playQueues).where(eq(playQueues.userId, userId)).get()
  if (!row) return EMPTY
  const tracks = row.tracks.map((t) => ({ ...t, url: resignMediaUrl(secret, t.url) }))
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
