// The member's saved play queue: its limits, shared by the
// schema (validators/play-queue.ts) and the player, here so the player does not ship zod to know
// them.
import type { ReplayGain } from './track'
export const PLAY_QUEUE_LIMITS = { tracks: 5000, url: 4096, title: 500, artist: 300, album: 300, mime: 100, device: 100 } as const

export type QueuedTrack = {
  url: string
  title: string
  artist: string
  album: string
  duration: number
  mime: string
  /** Library tracks, as read back: from the library index, never from what a player saved. */
  replayGain?: ReplayGain
  /** Library tracks, as read back: the signed cover and the year from the index. */
  cover?: string
  year?: number
}

export type SavedQueue = { tracks: QueuedTrack[]; index: number; positionSec: number; updatedAt: number; device: string }

/** Only these URLs can be played from another device: remote (http/https) and library (/media/). */
export const isShareableUrl = (url: string) => /^https?:\/\//i.test(url) || url.startsWith('/media/')

/** One track as the player sends it (PUT /playlist/queue): only `url` is required. */
export type QueuedTrackInput = Pick<QueuedTrack, 'url'> & Partial<QueuedTrack>

/**
 * What the player saves for a track. A library track (/media/) goes as its bare path, without the
 * signature, expiry or tags: the server signs it and fills in its tags from the library when the
 * queue is read. 5,000 signed library URLs with their tags were ≈1.3 MB, over the 1 MB body
 * limit; bare paths are about a third of that.
 */
export function queuedTrackOf(t: QueuedTrack): QueuedTrackInput {
  if (!t.url.startsWith('/media/')) return { url: t.url, title: t.title, artist: t.artist, album: t.album, duration: t.duration, mime: t.mime }
  return { url: bareMediaUrl(t.url) }
}

/** A /media/ URL without its signature and expiry (a converted stream keeps its `t=`). */
export function bareMediaUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  params.delete('exp')
  params.delete('sig')
  const rest = params.toString()
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q)
}
