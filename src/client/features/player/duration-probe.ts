// Durations before play for tracks whose list carried none (remote folder listings give no
// lengths; a library file without a duration tag): the browser reads each one's metadata with a
// detached media element — preload=metadata, a small range request or two (an ogg's length is in
// its last page) — two at a time, in play order from the current track, at most MAX_PROBES per
// list, so a 5,000-file remote folder is not read whole. Local files get theirs from their tags
// (read-tags.ts). Measured and chosen over a server-side range read: decision 026.
import type { EngineState } from './engine'

export const PROBE_CONCURRENCY = 2
export const MAX_PROBES = 200
const PROBE_TIMEOUT_MS = 10_000

type Probe = (url: string) => Promise<number | null>

const probeable = (url: string) => /^https?:\/\//i.test(url) || url.startsWith('/media/')

export function createDurationProber({ probe, report }: { probe: Probe; report: (url: string, seconds: number) => void }) {
  let seenTracks: EngineState['tracks'] | null = null
  let listKey = ''
  let tried = new Set<string>()
  let queue: string[] = []
  let running = 0

  const pump = () => {
    while (running < PROBE_CONCURRENCY && queue.length > 0) {
      const url = queue.shift() as string
      running++
      void probe(url)
        .then((seconds) => {
          if (seconds !== null && Number.isFinite(seconds) && seconds > 0) report(url, seconds)
        })
        .catch(() => {})
        .finally(() => {
          running--
          pump()
        })
    }
  }

  return {
    /** Every player change: a new list queues its unknown durations, nearest first; an edit adds its new tracks. */
    observe(s: EngineState) {
      if (s.tracks === seenTracks) return
      seenTracks = s.tracks
      const key = `${s.tracks.length}|${s.tracks[0]?.url ?? ''}`
      if (key !== listKey) {
        listKey = key
        tried = new Set()
        queue = []
      }
      const start = Math.max(0, s.order.indexOf(s.index))
      const order = s.order.length === s.tracks.length ? [...s.order.slice(start), ...s.order.slice(0, start)] : s.tracks.map((_, i) => i)
      for (const i of order) {
        if (tried.size >= MAX_PROBES) break
        const t = s.tracks[i]
        if (t.duration > 0 || tried.has(t.url) || !probeable(t.url)) continue
        tried.add(t.url)
        queue.push(t.url)
      }
      pump()
    },
  }
}

/**
 * What a media element reads of a URL's metadata: its duration (NaN or Infinity when it has
 * none), or null when nothing plays there (unreachable, unplayable, or too slow). Also the MIME
 * fallback's test load (player-store.ts).
 */
export function probeMetadata(src: string): Promise<number | null> {
  return new Promise((resolve) => {
    const el = document.createElement('audio')
    el.preload = 'metadata'
    el.muted = true
    const done = (seconds: number | null) => {
      clearTimeout(timer)
      el.onloadedmetadata = null
      el.onerror = null
      el.removeAttribute('src')
      el.load() // lets the connection go
      resolve(seconds)
    }
    const timer = setTimeout(() => done(null), PROBE_TIMEOUT_MS)
    el.onloadedmetadata = () => done(el.duration)
    el.onerror = () => done(null)
    el.src = src
  })
}

/** A track's duration from its metadata, or null (http(s) or /media/ URLs only: probeable). */
export const probeDuration = (url: string): Promise<number | null> => probeMetadata(url).then((d) => (d !== null && Number.isFinite(d) ? d : null))
