// Members' listening records (§3, CONTRACT §3 "Analytics"): play events and their updates,
// interactions and likes. Times are server time; the device class comes from the User-Agent and
// the place from trusted request data, never from the client's word.
import { TRPCError } from '@trpc/server'
import { and, eq } from 'drizzle-orm'
import type { Db } from '~/db/client'
import { interactions, likes, playEvents } from '~/db/schema'
import { classifyDevice } from '~/shared/player/device'
import type { z } from 'zod'
import type { InteractionSchema, LikeSetSchema, PlayEventCreateSchema, PlayEventUpdateFields } from '~/shared/validators'
import type { ClientInfo } from '../http/client-info'

type CreateInput = z.output<typeof PlayEventCreateSchema>
type UpdateInput = z.output<typeof PlayEventUpdateFields>

export const PLAY_EVENT_NOT_FOUND = 'Play event not found'

export function createPlayEvent(db: Db, userId: string, input: CreateInput, client: ClientInfo): { playEventId: string } {
  const fromAgent = classifyDevice(client.userAgent)
  const now = new Date()
  const row = db
    .insert(playEvents)
    .values({
      userId,
      trackUrl: input.trackUrl,
      title: input.title,
      duration: input.duration,
      deviceType: fromAgent === 'unknown' && input.deviceType ? input.deviceType : fromAgent,
      genre: input.genre,
      artist: input.artist,
      album: input.album,
      year: input.year ?? null,
      source: input.source,
      playlistId: input.playlistId,
      previousTrack: input.previousTrack,
      nextTrack: input.nextTrack,
      sessionId: input.sessionId ?? null,
      sessionPosition: input.sessionPosition ?? null,
      networkType: input.networkType,
      country: client.country,
      region: client.region,
      city: client.city,
      startedAt: now,
      updatedAt: now,
    })
    .returning({ id: playEvents.id })
    .get()
  return { playEventId: row.id }
}

/** Applies an update to the caller's own play event; anyone else's is NOT_FOUND. */
export function updatePlayEvent(db: Db, userId: string, playEventId: string, input: UpdateInput) {
  const now = new Date()
  const set: Partial<typeof playEvents.$inferInsert> = { updatedAt: now }
  if (input.listenDuration !== undefined) set.listenDuration = input.listenDuration
  if (input.completed !== undefined) set.completed = input.completed
  if (input.skipped !== undefined) set.skipped = input.skipped
  if (input.skipTime !== undefined) set.skipTime = input.skipTime
  if (input.liked !== undefined) set.liked = input.liked
  if (input.shared !== undefined) set.shared = input.shared
  if (input.repeated !== undefined) set.repeated = input.repeated
  if (input.bufferCount !== undefined) set.bufferCount = input.bufferCount
  if (input.qualityDrops !== undefined) set.qualityDrops = input.qualityDrops
  // The client's end time (queued updates arrive late) but never in the future.
  if (input.endedAt !== undefined) set.endedAt = input.endedAt === null ? null : new Date(Math.min(input.endedAt.getTime(), now.getTime()))
  const row = db
    .update(playEvents)
    .set(set)
    .where(and(eq(playEvents.id, playEventId), eq(playEvents.userId, userId)))
    .returning({ id: playEvents.id, updatedAt: playEvents.updatedAt })
    .get()
  if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: PLAY_EVENT_NOT_FOUND })
  return { playEventId: row.id, updatedAt: row.updatedAt.toISOString() }
}

export function createInteraction(db: Db, userId: string, input: z.output<typeof InteractionSchema>) {
  const now = Date.now()
  // A client clock far off (or a replayed queue) cannot put interactions in the future.
  const at = input.timestamp ? Math.min(input.timestamp.getTime(), now) : now
  const row = db
    .insert(interactions)
    .values({ userId, trackId: input.trackId, interactionType: input.interactionType, timestamp: new Date(at) })
    .returning({ id: interactions.id })
    .get()
  return { interactionId: row.id }
}

export function listLikes(db: Db, userId: string) {
  const rows = db.select({ trackKey: likes.trackKey, liked: likes.liked, updatedAt: likes.updatedAt }).from(likes).where(eq(likes.userId, userId)).all()
  const out: Record<string, { liked: boolean; timestamp: number }> = {}
  for (const r of rows) out[r.trackKey] = { liked: r.liked, timestamp: r.updatedAt.getTime() }
  return { likes: out }
}

export function setLike(db: Db, userId: string, input: z.output<typeof LikeSetSchema>) {
  const now = new Date()
  db.insert(likes)
    .values({ userId, trackKey: input.title, trackUrl: input.trackUrl, liked: input.liked, updatedAt: now })
    .onConflictDoUpdate({ target: [likes.userId, likes.trackKey], set: { liked: input.liked, updatedAt: now, ...(input.trackUrl ? { trackUrl: input.trackUrl } : {}) } })
    .run()
  return { title: input.title, liked: input.liked, timestamp: now.getTime() }
}
