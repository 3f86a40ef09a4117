// Listening-session and play-report rules: session ids and positions, when a play counts as
// completed or skipped, and the progress-report interval.

export const COMPLETION_RATIO = 0.8
export const PROGRESS_REPORT_MS = 30_000

export type ListeningSession = { id: string; startedAt: number; position: number; tracks: string[] }

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'

/** session_{timestamp}_{9 base-36 characters}. */
export function newSessionId(now = Date.now(), rng: () => number = Math.random): string {
  let random = ''
  for (let i = 0; i < 9; i++) random += BASE36[Math.floor(rng() * 36) % 36]
  return `session_${now}_${random}`
}

/**
 * Text limits of a play event and an interaction: the shared schema (validators/playlist.ts)
 * enforces them and the player trims to them before sending. Here, not in the schema module, so
 * the player does not ship zod to get a few numbers.
 */
export const PLAY_EVENT_LIMITS = {
  trackUrl: 2048,
  title: 500,
  genre: 200,
  artist: 300,
  album: 300,
  playlistId: 200,
  previousTrack: 2048,
  nextTrack: 2048,
  trackId: 2048,
} as const

export const SESSION_ID_PATTERN = /^session_\d{1,16}_[0-9a-z]{9}$/

/**
 * A play's client key: the web player sends a UUID it keeps with the play, on every send of it,
 * so that a play re-sent after its answer was lost is recorded once (docs/decisions/107).
 */
export const CLIENT_PLAY_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/

export function newSession(now = Date.now(), rng?: () => number): ListeningSession {
  return { id: newSessionId(now, rng), startedAt: now, position: 0, tracks: [] }
}

/** Records a track once (first time only) and always advances the position. */
export function addTrack(session: ListeningSession, trackId: string): ListeningSession {
  return {
    ...session,
    position: session.position + 1,
    tracks: session.tracks.includes(trackId) ? session.tracks : [...session.tracks, trackId],
  }
}

/** The second-to-last recorded track (the one before the current), or null. */
export function previousTrackOf(session: ListeningSession): string | null {
  return session.tracks.length >= 2 ? session.tracks[session.tracks.length - 2] : null
}

/** The url of the entry following `url` in `list`, if any. */
export function nextTrackOf(list: readonly { url: string }[], url: string): string | null {
  const i = list.findIndex((t) => t.url === url)
  return i >= 0 && i + 1 < list.length ? list[i + 1].url : null
}

/** Elapsed whole seconds since the session started. */
export function sessionDuration(session: ListeningSession, now = Date.now()): number {
  return Math.max(0, Math.floor((now - session.startedAt) / 1000))
}

/** A play counts as completed once 80 % or more of a known duration was heard. */
export function isCompleted(listened: number, duration: number): boolean {
  return Number.isFinite(duration) && duration > 0 && Number.isFinite(listened) && listened >= COMPLETION_RATIO * duration
}

/** What leaving a track early reports: completed at ≥80 %, otherwise skipped at the current time. */
export function leaveReport(listened: number, duration: number, currentTime: number): { completed: boolean; skipped: boolean; skipTime?: number } {
  if (isCompleted(listened, duration)) return { completed: true, skipped: false }
  return { completed: false, skipped: true, skipTime: round2(Math.max(0, currentTime)) }
}

export const round2 = (n: number) => Math.round(n * 100) / 100
