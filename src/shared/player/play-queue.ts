// The member's saved play queue (CONTRACT §6 "Play queue (members)"): its limits, shared by the
// schema (validators/play-queue.ts) and the player, here so the player does not ship zod to know
// them.
export const PLAY_QUEUE_LIMITS = { tracks: 5000, url: 4096, title: 500, artist: 300, album: 300, mime: 100, device: 100 } as const

export type QueuedTrack = { url: string; title: string; artist: string; album: string; duration: number; mime: string }

export type SavedQueue = { tracks: QueuedTrack[]; index: number; positionSec: number; updatedAt: number; device: string }

/** Only these URLs can be played from another device: remote (http/https) and library (/media/). */
export const isShareableUrl = (url: string) => /^https?:\/\//i.test(url) || url.startsWith('/media/')
