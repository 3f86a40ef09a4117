// What apps say they are playing now (decision 067): the OpenSubsonic playbackReport extension (reportPlayback:
// starting, playing, paused, stopped, with a position and a rate) and a scrobble with
// submission=false. Plays are written through listening.ts like every other door: `starting` (or
// the first report of another song) records the play with recordPlay, later reports update it
// with updatePlayEvent, so an app's play counts as a web play does. `ignoreScrobble` reports only
// show in now playing. The live state is kept in memory, one session per member and app: it is
// only "now", and a restart forgets it as an app would expect from a server that went away.
import type { Db } from '~/db/client'
import type { DeviceType } from '~/shared/player/device'
import { leaveReport, round2 } from '~/shared/player/listening'
import { SCROBBLE_SOURCE } from '~/shared/validators'
import { type LibraryRow, libraryTrackKey } from '../catalog/track'
import type { ClientInfo } from '../http/client-info'
import { recordPlay, updatePlayEvent } from './listening'
import { queueNowPlayingInBackground } from './scrobbling'

export const PLAYBACK_STATES = ['starting', 'playing', 'paused', 'stopped'] as const
export type PlaybackState = (typeof PLAYBACK_STATES)[number]

export type PlaybackReport = {
  row: LibraryRow
  state: PlaybackState
  positionMs: number
  playbackRate: number
  ignoreScrobble: boolean
  /** The app (OpenSubsonic `c`) and its device class guess. */
  app: string | null
  deviceType: DeviceType | null
}

type Session = {
  userId: string
  username: string
  app: string | null
  songId: string
  path: string
  duration: number
  state: PlaybackState
  /** False when the app asked not to scrobble (ignoreScrobble): now playing only. */
  scrobble: boolean
  /** The play event this session writes to, once the song started or played: the write under
   *  way, so that a report arriving meanwhile updates this play rather than recording another. */
  playEventId: Promise<string | null> | null
  startedAt: number
  /** The last report (ms): now playing orders by it. */
  at: number
  positionMs: number
  rate: number
  /** Seconds heard so far by the server's clock: time in `playing` times the rate. */
  listened: number
}

/** A session not heard from for this long is forgotten (an app that crashed sends no `stopped`). */
const FORGET_AFTER_MS = 30 * 60_000
/** A playing song is still "now" until its end by the server's estimate, plus this much grace for a late or slow app. */
const GRACE_MS = 5 * 60_000
const MAX_SESSIONS = 10_000
const sessions = new Map<string, Session>()

const keyOf = (userId: string, app: string | null) => `${userId}\n${app ?? ''}`

/** Adds the time since the last report to `listened` when the app was playing. */
function advance(session: Session, now: number) {
  if (session.state === 'playing') session.listened = Math.min(session.duration || Infinity, session.listened + ((now - session.at) / 1000) * session.rate)
}

async function update(db: Db, session: Session, fields: Parameters<typeof updatePlayEvent>[3]) {
  const playEventId = await session.playEventId
  if (!playEventId) return
  try {
    await updatePlayEvent(db, session.userId, playEventId, fields)
  } catch {
    // The member deleted their history meanwhile: nothing left to update.
    session.playEventId = null
  }
}

/** Closes a session's play: its listened time, completed or skipped at the position, ended now. */
async function finish(db: Db, session: Session, now: number) {
  advance(session, now)
  const listened = round2(session.listened)
  const closing = { listenDuration: listened, ...leaveReport(listened, session.duration, session.positionMs / 1000), endedAt: new Date(now) }
  session.state = 'stopped'
  session.at = now
  await update(db, session, closing)
}

function prune(now: number) {
  for (const [key, s] of sessions) if (now - s.at > FORGET_AFTER_MS) sessions.delete(key)
  while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!)
}

/**
 * reportPlayback: moves the member's session with this app along. The play is recorded when the
 * song starts or plays (not when an app merely loads it paused), and updated as it goes.
 */
export async function reportPlayback(
  db: Db,
  user: { id: string; username: string },
  report: PlaybackReport,
  client: ClientInfo,
  now = Date.now(),
): Promise<void> {
  prune(now)
  const key = keyOf(user.id, report.app)
  let session = sessions.get(key)
  // The session moves on before anything is awaited, so that a report arriving while this one's
  // writes are under way finds it as this report left it; the writes are awaited at the end.
  let before: Promise<void> | null = null
  const samePlay = session && session.songId === report.row.id && session.state !== 'stopped'
  if (report.state === 'starting' || !samePlay) {
    // A new play; an app that moved on without `stopped` ends the one before here.
    if (session && session.state !== 'stopped') before = finish(db, session, now)
    // The stop of a song it never reported playing: nothing to record or show.
    if (report.state === 'stopped') return void (await before)
    session = {
      userId: user.id,
      username: user.username,
      app: report.app,
      songId: report.row.id,
      path: report.row.path,
      duration: report.row.duration,
      state: 'starting',
      scrobble: !report.ignoreScrobble,
      playEventId: null,
      startedAt: now,
      at: now,
      positionMs: report.positionMs,
      rate: report.playbackRate,
      listened: 0,
    }
    sessions.delete(key)
    sessions.set(key, session)
  }
  const live = session!
  let recording: Promise<string> | null = null
  if (live.scrobble && live.playEventId === null && (report.state === 'starting' || report.state === 'playing')) {
    const { path, title, duration, genre, artist, album, year } = report.row
    const play = {
      trackUrl: libraryTrackKey(path),
      title,
      duration,
      genre,
      artist,
      album,
      year,
      source: SCROBBLE_SOURCE,
      app: report.app,
      deviceType: report.deviceType,
    }
    recording = recordPlay(db, user.id, play, client).then(({ playEventId }) => playEventId)
    live.playEventId = recording.catch(() => null)
  }
  live.positionMs = report.positionMs
  let progress: Promise<void> | null = null
  if (report.state === 'stopped') progress = finish(db, live, now)
  else {
    advance(live, now)
    live.state = report.state
    live.rate = report.playbackRate
    live.at = now
    if (report.state !== 'starting') progress = update(db, live, { listenDuration: round2(live.listened) })
  }
  // A play that could not be stored is the app's error, as with a scrobble.
  await Promise.all([before, recording, progress])
}

/** scrobble with submission=false: "now playing" only (here and at the member's scrobbling services), no play recorded. */
export async function reportNowPlaying(
  db: Db,
  user: { id: string; username: string },
  row: LibraryRow,
  app: string | null,
  client: ClientInfo,
  now = Date.now(),
): Promise<void> {
  const session = sessions.get(keyOf(user.id, app))
  if (session && session.songId === row.id && session.state !== 'stopped') {
    session.at = now
    return
  }
  queueNowPlayingInBackground(db, user.id, { artist: row.artist, title: row.title, album: row.album, duration: row.duration })
  await reportPlayback(db, user, { row, state: 'playing', positionMs: 0, playbackRate: 1, ignoreScrobble: true, app, deviceType: null }, client, now)
}

export type LiveSession = { userId: string; username: string; path: string; app: string | null; startedAt: number; at: number; stopped: boolean }

/**
 * Each member's latest session (of `userId` only, when given), stopped ones included so a stop
 * can hide an older play: whether a session is still "now" is the caller's to weigh against plays.
 */
export function liveSessions(userId: string | null, now = Date.now()): LiveSession[] {
  const latest = new Map<string, Session>()
  for (const s of sessions.values()) {
    if (userId !== null && s.userId !== userId) continue
    const prev = latest.get(s.userId)
    if (!prev || s.at > prev.at) latest.set(s.userId, s)
  }
  return [...latest.values()].flatMap((s) => {
    // Paused or playing past its estimated end (at the reported rate) plus the grace: over.
    const left = s.state === 'playing' ? (s.duration * 1000 - s.positionMs) / (s.rate || 1) : 0
    const over = now - s.at > Math.max(left, 0) + GRACE_MS
    if (now - s.at > FORGET_AFTER_MS || (over && s.state !== 'stopped')) return []
    return [{ userId: s.userId, username: s.username, path: s.path, app: s.app, startedAt: s.startedAt, at: s.at, stopped: s.state === 'stopped' }]
  })
}
