// Fixed-window limits per client IP and bucket, in memory (one process serves the app).
// RATE_LIMIT=off turns them off for tests of other things.
import { config } from '../config'

export type Bucket = 'auth' | 'contact' | 'events' | 'remote' | 'hits'

// Requests allowed per window, per client.
const LIMITS: Record<Bucket, { max: number; windowMs: number }> = {
  auth: { max: 20, windowMs: 60_000 },
  contact: { max: 5, windowMs: 10 * 60_000 },
  events: { max: 600, windowMs: 60_000 },
  remote: { max: 60, windowMs: 60_000 },
  hits: { max: 120, windowMs: 60_000 },
}

const windows = new Map<string, { start: number; count: number }>()

/** Seconds to wait, or 0 when the request may go ahead (and is counted). */
export function takeToken(bucket: Bucket, client: string, now = Date.now()): number {
  if (!config.RATE_LIMIT) return 0
  const { max, windowMs } = LIMITS[bucket]
  const key = `${bucket}:${client}`
  let w = windows.get(key)
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 }
    windows.set(key, w)
    if (windows.size > 50_000) prune(now)
  }
  if (w.count >= max) return Math.max(1, Math.ceil((w.start + windowMs - now) / 1000))
  w.count++
  return 0
}

function prune(now: number) {
  for (const [key, w] of windows) if (now - w.start > 10 * 60_000) windows.delete(key)
}
