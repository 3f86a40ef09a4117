// Resume after a reload (library and remote tracks; local files ask for their folder again): the queue,
// the place in it, the position and the volume, shuffle and repeat settings are kept in
// localStorage. Two keys, so the frequent write is small: the track list (written when the list
// or its order changes) and the place and settings (written on a change of track or setting, on
// pause, and every few seconds while playing). A factory with injected storage and clock, so the
// write rules are unit tests (tests/unit/player-queue-keeper.test.ts).
//
// Local files cannot come back by themselves — the browser gives a page no way to reopen a
// picked folder — so their list is kept and the player asks for the folder again; the object
// URLs of their cover art are never kept.
import type { EngineState, QueueContext, RepeatMode, RestoredQueue } from './engine'
import type { Track } from '~/shared/player/track'

export const QUEUE_KEY = 'vibes:player:queue'
export const PLACE_KEY = 'vibes:player:place'
/** While playing, the position is written at most this often. */
export const PLACE_WRITE_MS = 5000

type StoredQueue = { tracks: Track[]; context: QueueContext | null; order: number[] }
type StoredPlace = { index: number; positionSec: number; shuffle: boolean; repeat: RepeatMode | boolean; volume: number; muted: boolean; savedAt: number }

/** What a reload brings back: a queue to restore, or a local folder to ask for again. */
export type Resume = { queue: RestoredQueue; savedAt: number; local: boolean }

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>

const isLocal = (ctx: QueueContext | null) => ctx?.source === 'local'
const keepable = (t: Track): Track => (t.cover?.startsWith('blob:') ? { ...t, cover: undefined } : t)

function parse<T>(storage: Storage, key: string): T | null {
  try {
    const raw = storage.getItem(key)
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null
  }
}

export function createQueueKeeper({ storage, now = Date.now }: { storage: Storage; now?: () => number }) {
  let lastTracks: readonly Track[] | null = null
  let lastOrder: readonly number[] | null = null
  let lastSettings = ''
  let lastPlaceAt = -Infinity
  // Until this page has had a queue, its empty start must not overwrite what the last page kept
  // (a local folder waiting to be picked again).
  let hadQueue = false

  const write = (key: string, value: unknown) => {
    try {
      storage.setItem(key, JSON.stringify(value))
    } catch {} // full or forbidden storage: resume is a convenience
  }

  function writePlace(s: EngineState, positionSec: number) {
    const place: StoredPlace = {
      index: s.index,
      positionSec: Math.round(positionSec * 10) / 10,
      shuffle: s.shuffle,
      repeat: s.repeat,
      volume: s.volume,
      muted: s.muted,
      savedAt: now(),
    }
    write(PLACE_KEY, place)
    lastPlaceAt = now()
  }

  return {
    /** What the last page kept, or null. */
    read(): Resume | null {
      const q = parse<StoredQueue>(storage, QUEUE_KEY)
      const p = parse<StoredPlace>(storage, PLACE_KEY)
      if (!q || !Array.isArray(q.tracks) || q.tracks.length === 0 || !p) return null
      if (!q.tracks.every((t) => t && typeof t.url === 'string' && typeof t.title === 'string')) return null
      const queue: RestoredQueue = {
        tracks: q.tracks,
        context: q.context ?? null,
        order: q.order,
        index: p.index,
        positionSec: Number(p.positionSec) || 0,
        shuffle: p.shuffle,
        repeat: p.repeat,
        volume: p.volume,
        muted: p.muted,
      }
      return { queue, savedAt: Number(p.savedAt) || 0, local: isLocal(q.context) }
    },

    /** The settings alone (volume, mute, shuffle, repeat) when there is no queue to restore. */
    readSettings(): Pick<StoredPlace, 'volume' | 'muted'> | null {
      const p = parse<StoredPlace>(storage, PLACE_KEY)
      return p && typeof p.volume === 'number' ? { volume: p.volume, muted: !!p.muted } : null
    },

    /** Called on every change and time update; writes only what changed, and the place throttled. */
    observe(s: EngineState, positionSec: number, { force = false } = {}) {
      if (s.tracks.length > 0) hadQueue = true
      if (!hadQueue) return
      if (s.tracks !== lastTracks || s.order !== lastOrder) {
        lastTracks = s.tracks
        lastOrder = s.order
        if (s.tracks.length === 0) {
          // An emptied queue (cleared, logged out) is not resumed; the volume stays.
          try {
            storage.removeItem(QUEUE_KEY)
          } catch {}
        } else write(QUEUE_KEY, { tracks: s.tracks.map(keepable), context: s.context, order: s.order } satisfies StoredQueue)
      }
      const settings = `${s.index}|${s.shuffle}|${s.repeat}|${s.volume}|${s.muted}|${s.playing}|${s.tracks.length}`
      if (force || settings !== lastSettings || (s.playing && now() - lastPlaceAt >= PLACE_WRITE_MS)) {
        lastSettings = settings
        writePlace(s, positionSec)
      }
    },
  }
}

export type QueueKeeper = ReturnType<typeof createQueueKeeper>
