// What apps say they are playing now (decision 067): the OpenSubsonic playbackReport extension (reportPlayback:
// starting, playing, paused, stopped, with a position and a rate) and a scrobble with
// submission=false. Plays are written through listening.ts like every other door: `starting` (or
// the first report of another song) records the play with recordPlay, later reports update it
// with updatePlayEvent, so an app's play counts as a web play does. `ignoreScrobble` reports only
// show in now playing. The live state is one playback_sessions row per member and app (decision
// 100): behind a load balancer an app's reports reach any node, and each must find the session
// the one before left, record the song's play once and show the same "now playing".
import { and, eq, gte, ne, sql } from 'drizzle-orm'
import { type Db, execute, tablesOf } from '~/db/engine'
import type { playbackSessions } from '~/db/schema'
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

/** A stored session (its `app` is '' for an app that named none). */
type Session = typeof playbackSessions.$inferSelect
type PlayUpdate = Parameters<typeof updatePlayEvent>[3]

/** A session not heard from for this long is forgotten (an app that crashed sends no `stopped`). */
const FORGET_AFTER_MS = 30 * 60_000
/** A playing song is still "now" until its end by the server's estimate, plus this much grace for a late or slow app. */
const GRACE_MS = 5 * 60_000
/** The most sessions kept: the oldest beyond it are deleted. */
const MAX_SESSIONS = 10_000
/** How often a node deletes forgotten sessions (whichever node does, the rows are the same). */
const PRUNE_EVERY_MS = 60_000
/** Reports of one session that meet another node's write to it read it again; this many times at most. */
const MAX_ATTEMPTS = 10

const appKey = (app: string | null) => app ?? ''

/** Adds the time since the last report to `listened` when the app was playing. */
function advance(session: Session, now: number) {
  if (session.state === 'playing')
    session.listened = Math.min(session.duration || Infinity, session.listened + (Math.max(0, now - session.at) / 1000) * session.rate)
}

/** What a stopped session's play is closed with: its listened time, completed or skipped at the position, ended at the stop. */
function closing(session: Session): PlayUpdate {
  const listened = round2(session.listened)
  return { listenDuration: listened, ...leaveReport(listened, session.duration, session.positionMs / 1000), endedAt: new Date(session.at) }
}

/** Stops the session; the update that closes its play, when it has one. */
function finish(session: Session, now: number): { playEventId: string; fields: PlayUpdate } | null {
  advance(session, now)
  session.state = 'stopped'
  session.at = now
  return session.playEventId ? { playEventId: session.playEventId, fields: closing(session) } : null
}

type Step = {
  /** The session as the report leaves it, or null when the report changes nothing. */
  next: Session | null
  /** Whether this report records the play whose id `next` holds (claimed by storing it). */
  record: boolean
  /** The plays to update: the one the app moved on from, and the current one's progress. */
  updates: { playEventId: string; fields: PlayUpdate }[]
}

/** Moves the stored session (null: none, or forgotten) along with a report; no writes. */
function step(stored: Session | null, userId: string, report: PlaybackReport, now: number): Step {
  const updates: Step['updates'] = []
  let session = stored && { ...stored }
  const samePlay = session && session.songId === report.row.id && session.state !== 'stopped'
  if (report.state === 'starting' || !samePlay) {
    // A new play; an app that moved on without `stopped` ends the one before here.
    const moving = session && session.state !== 'stopped' ? session : null
    const closed = moving && finish(moving, now)
    if (closed) updates.push(closed)
    // The stop of a song it never reported playing: nothing to record or show.
    if (report.state === 'stopped') return { next: moving, record: false, updates }
    session = {
      userId,
      app: appKey(report.app),
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
      version: stored?.version ?? 0,
    }
  }
  const live = session!
  let record = false
  if (live.scrobble && live.playEventId === null && (report.state === 'starting' || report.state === 'playing')) {
    live.playEventId = crypto.randomUUID()
    record = true
  }
  live.positionMs = report.positionMs
  if (report.state === 'stopped') {
    const closed = finish(live, now)
    if (closed) updates.push(closed)
  } else {
    advance(live, now)
    live.state = report.state
    live.rate = report.playbackRate
    live.at = now
    if (report.state !== 'starting' && live.playEventId) updates.push({ playEventId: live.playEventId, fields: { listenDuration: round2(live.listened) } })
  }
  return { next: live, record, updates }
}

async function readSession(db: Db, userId: string, app: string | null): Promise<Session | undefined> {
  const { playbackSessions: t } = tablesOf(db)
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.userId, userId), eq(t.app, appKey(app))))
  return row
}

/**
 * Stores `next` only over the row as it was read (`read`, or none): a report another node wrote
 * meanwhile makes this one false, and the caller reads again. So two nodes given the first reports
 * of a song at once store one claim of its play, and the other report moves that session along.
 */
async function writeSession(db: Db, next: Session, read: Session | undefined): Promise<boolean> {
  const { playbackSessions: t } = tablesOf(db)
  const values = { ...next, version: (read?.version ?? 0) + 1 }
  const written = read
    ? await db
        .update(t)
        .set(values)
        .where(and(eq(t.userId, next.userId), eq(t.app, next.app), eq(t.version, read.version)))
        .returning({ version: t.version })
    : await db.insert(t).values(values).onConflictDoNothing().returning({ version: t.version })
  return written.length > 0
}

/** Updates a play; one gone (the member deleted their history) or not written yet has nothing to update. */
async function update(db: Db, userId: string, { playEventId, fields }: { playEventId: string; fields: PlayUpdate }) {
  try {
    await updatePlayEvent(db, userId, playEventId, fields)
  } catch {
    // Nothing to update: a later report carries the session's totals again.
  }
}

/**
 * After the play is written: a report that reached another node between the claim and the write
 * found no play to update, so the play takes the session's progress (or its close) as it stands now.
 */
async function catchUp(db: Db, userId: string, app: string | null, playEventId: string) {
  const session = await readSession(db, userId, app)
  if (!session || session.playEventId !== playEventId || session.state === 'starting') return
  const fields = session.state === 'stopped' ? closing(session) : { listenDuration: round2(session.listened) }
  await update(db, userId, { playEventId, fields })
}

let prunedAt = 0
/** Deletes forgotten sessions and the oldest beyond MAX_SESSIONS, at most once a PRUNE_EVERY_MS per node. */
async function prune(db: Db, now: number) {
  if (now - prunedAt < PRUNE_EVERY_MS) return
  prunedAt = now
  await execute(
    db,
    sql`DELETE FROM playback_sessions WHERE at < ${now - FORGET_AFTER_MS}
          OR at < (SELECT at FROM playback_sessions ORDER BY at DESC LIMIT 1 OFFSET ${MAX_SESSIONS - 1})`,
  )
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
  await prune(db, now)
  let moved: Step | null = null
  for (let attempt = 0; attempt < MAX_ATTEMPTS && !moved; attempt++) {
    const read = await readSession(db, user.id, report.app)
    const fresh = read && now - read.at <= FORGET_AFTER_MS ? read : null
    const next = step(fresh, user.id, report, now)
    if (!next.next || (await writeSession(db, next.next, read))) moved = next
  }
  if (!moved) throw new Error('The playback session kept changing while this report was applied')
  const { next, record, updates } = moved
  let recording: Promise<void> | null = null
  if (record && next?.playEventId) {
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
    const playEventId = next.playEventId
    // Its own progress is part of the session it catches up with.
    recording = recordPlay(db, user.id, play, client, playEventId).then(() => catchUp(db, user.id, report.app, playEventId))
  }
  const others = updates.filter((u) => !(record && u.playEventId === next?.playEventId))
  // A play that could not be stored is the app's error, as with a scrobble.
  await Promise.all([recording, ...others.map((u) => update(db, user.id, u))])
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
  // The song the session already plays: only heard from again.
  const { playbackSessions: t } = tablesOf(db)
  const touched = await db
    .update(t)
    .set({ at: now, version: sql`${t.version} + 1` })
    .where(and(eq(t.userId, user.id), eq(t.app, appKey(app)), eq(t.songId, row.id), ne(t.state, 'stopped'), gte(t.at, now - FORGET_AFTER_MS)))
    .returning({ version: t.version })
  if (touched.length > 0) return
  queueNowPlayingInBackground(db, user.id, { artist: row.artist, title: row.title, album: row.album, duration: row.duration })
  await reportPlayback(db, user, { row, state: 'playing', positionMs: 0, playbackRate: 1, ignoreScrobble: true, app, deviceType: null }, client, now)
}

export type LiveSession = { userId: string; username: string; path: string; app: string | null; startedAt: number; at: number; stopped: boolean }

/**
 * Each member's latest session (of `userId` only, when given), stopped ones included so a stop
 * can hide an older play: whether a session is still "now" is the caller's to weigh against plays.
 */
export async function liveSessions(db: Db, userId: string | null, now = Date.now()): Promise<LiveSession[]> {
  const { playbackSessions: t, users } = tablesOf(db)
  // playback_sessions_at_idx, or the primary key for one member.
  const sessions = await db
    .select({
      userId: t.userId,
      username: users.username,
      app: t.app,
      path: t.path,
      duration: t.duration,
      state: t.state,
      startedAt: t.startedAt,
      at: t.at,
      positionMs: t.positionMs,
      rate: t.rate,
    })
    .from(t)
    .innerJoin(users, eq(users.id, t.userId))
    .where(and(gte(t.at, now - FORGET_AFTER_MS), userId === null ? undefined : eq(t.userId, userId)))
  const latest = new Map<string, (typeof sessions)[number]>()
  for (const s of sessions) {
    const prev = latest.get(s.userId)
    if (!prev || s.at > prev.at) latest.set(s.userId, s)
  }
  return [...latest.values()].flatMap((s) => {
    // Paused or playing past its estimated end (at the reported rate) plus the grace: over.
    const left = s.state === 'playing' ? (s.duration * 1000 - s.positionMs) / (s.rate || 1) : 0
    const over = now - s.at > Math.max(left, 0) + GRACE_MS
    if (over && s.state !== 'stopped') return []
    return [{ userId: s.userId, username: s.username, path: s.path, app: s.app || null, startedAt: s.startedAt, at: s.at, stopped: s.state === 'stopped' }]
  })
}
