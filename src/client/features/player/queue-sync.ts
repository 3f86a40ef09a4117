// A member's queue follows them to another device: the player saves its queue on the server
// (PUT /playlist/queue, debounced; while playing at most every 30 s) and, when another device saved a newer one, offers "Resume from <device>".
// Only queues another device can play are saved (remote and library URLs, never local files),
// and nothing is saved until the listener has played something on this page, so merely opening
// a page (a restored queue, paused) never overwrites what another device saved.
//
// "Newer" means saved after this browser's own last save (kept under a vibes:user: key, so logout
// forgets it) and after the offer this browser last dismissed: a device never offers its own
// queue back, whatever the device names. Nor is a queue offered that this device already holds
// at the same track (the same track URLs, signature aside, and the same index): after B resumes
// A's queue and saves it, A is not offered that queue back, so the two never ping-pong; once B
// moves on to another track or list, A is offered B's queue again.
import { bareMediaUrl, isShareableUrl, type QueuedTrackInput, queuedTrackOf, type SavedQueue } from '~/shared/player/play-queue'
import type { EngineState } from './engine'

export const SAVED_AT_KEY = 'vibes:user:queue-saved-at'
export const SAVE_DEBOUNCE_MS = 2000
export const SAVE_WHILE_PLAYING_MS = 30_000

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>
type Api = {
  load: () => Promise<SavedQueue>
  save: (q: Omit<SavedQueue, 'updatedAt' | 'tracks'> & { tracks: QueuedTrackInput[] }) => Promise<{ updatedAt: number }>
}

export function toQueuedTracks(s: EngineState): QueuedTrackInput[] | null {
  if (s.tracks.length === 0 || s.context?.source === 'local' || !s.tracks.every((t) => isShareableUrl(t.url))) return null
  return s.tracks.map(queuedTrackOf)
}

/** Whether the player already holds `q` at its track (URLs compared without their signatures). */
export function holdsQueue(s: Pick<EngineState, 'tracks' | 'index'> | null, q: SavedQueue): boolean {
  return (
    s !== null &&
    s.index === q.index &&
    s.tracks.length === q.tracks.length &&
    s.tracks.every((t, i) => bareMediaUrl(t.url) === bareMediaUrl(q.tracks[i]?.url ?? ''))
  )
}

export function createQueueSync({
  api,
  storage,
  device,
  current = () => null,
  now = Date.now,
}: {
  api: Api
  storage: Storage
  device: string
  /** The player's queue now, to leave out an offer of what it already holds. */
  current?: () => Pick<EngineState, 'tracks' | 'index'> | null
  now?: () => number
}) {
  let offer: SavedQueue | null = null
  const listeners = new Set<() => void>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let played = false
  let lastSig = ''
  let lastSaveAt = 0
  let latest: { s: EngineState; position: number } | null = null

  const stamp = (key: string) => Number(storage.getItem(key)) || 0
  const setOffer = (o: SavedQueue | null) => {
    offer = o
    for (const l of listeners) l()
  }

  async function saveNow() {
    timer = null
    if (!latest) return
    const { s, position } = latest
    const tracks = toQueuedTracks(s)
    if (!tracks) return
    lastSaveAt = now()
    try {
      const { updatedAt } = await api.save({ tracks, index: Math.max(0, s.index), positionSec: Math.round(position * 10) / 10, device })
      storage.setItem(SAVED_AT_KEY, String(updatedAt))
      if (offer && offer.updatedAt <= updatedAt) setOffer(null) // this device's queue is the newest now
    } catch {} // offline or signed out: the next change tries again
  }

  return {
    subscribe(l: () => void) {
      listeners.add(l)
      return () => void listeners.delete(l)
    },
    offer: () => offer,

    /** Asks the server whether another device saved a newer queue. */
    async check() {
      let q: SavedQueue
      try {
        q = await api.load()
      } catch {
        return
      }
      const seen = Math.max(stamp(SAVED_AT_KEY), stamp(`${SAVED_AT_KEY}:dismissed`))
      setOffer(q.tracks.length > 0 && q.updatedAt > seen && !holdsQueue(current(), q) ? q : null)
    },

    dismiss() {
      if (offer) storage.setItem(`${SAVED_AT_KEY}:dismissed`, String(offer.updatedAt))
      setOffer(null)
    },

    /** Taking the offer: it is this device's queue now (the next save carries it on). */
    take(): SavedQueue | null {
      const o = offer
      if (o) storage.setItem(`${SAVED_AT_KEY}:dismissed`, String(o.updatedAt))
      setOffer(null)
      return o
    },

    /** Every player change: schedules a save when the queue, the place or the play state changed. */
    observe(s: EngineState, position: number) {
      if (s.playing) played = true
      if (!played) return
      const sig = `${s.index}|${s.playing}`
      const changed = sig !== lastSig || s.tracks !== latest?.s.tracks
      latest = { s, position }
      lastSig = sig
      if (changed) {
        if (timer) clearTimeout(timer)
        timer = setTimeout(() => void saveNow(), SAVE_DEBOUNCE_MS)
      } else if (s.playing && !timer && now() - lastSaveAt >= SAVE_WHILE_PLAYING_MS) {
        timer = setTimeout(() => void saveNow(), 0)
      }
    },

    stop() {
      if (timer) clearTimeout(timer)
      timer = null
    },
  }
}

export type QueueSync = ReturnType<typeof createQueueSync>
