// Streams library files the browser cannot play, converted by ffmpeg (decision 025).
//
// A converted file is cached in DATA_DIR/transcode-cache under a hash of the source's real path,
// size, mtime and the profile; the handler serves a complete copy like any file (ranges, ETag),
// so seeking works once it is there. Without one, the answer streams at once (200, chunked, no
// ranges) while the same bytes go to a temporary name that is renamed when ffmpeg finishes
// cleanly; the cache keeps the most recently used files up to CACHE_LIMITS.transcodeBytes (cache-dir.ts).
// A conversion that starts part way in (an app seeking, decision 075) neither reads nor fills the
// cache: each seek lands elsewhere, so such copies would only push whole tracks out.
//
// ffmpeg costs a core, so conversions hold slots: globalLimit() in all (TRANSCODE_SLOTS, else one
// fewer than the cores, so the server keeps one), and holderLimit() per holder — the member
// (/rest/stream, or a /media request carrying the session cookie), else the client address (a
// /media URL is signed per file, not per user) — always fewer than all, so one member's players
// cannot lock the others out; beyond that, 429 with Retry-After. ffmpeg runs on one thread at a
// lower priority (spawnFfmpeg), so the conversions that do run leave the server responsive.
// A client that goes away (request aborted, stream cancelled) ends its ffmpeg at once and the
// partial copy is dropped: the slot is free for the next track the moment a listener skips. A
// client that stays but stops reading (a paused player, or one reading a few KB/s on purpose)
// leaves ffmpeg waiting once the read-ahead is full; after STALL_MS without a read its ffmpeg is
// ended and the answer cut off, so a slot is never held by a reader that does not read.
// Processes are spawned with an argument array, never a shell (transcode-profile.ts).
import { mkdirSync, renameSync, rmSync, statSync, type Stats } from 'node:fs'
import { cpus, setPriority } from 'node:os'
import path from 'node:path'
import { authenticate } from '../auth/sessions'
import { config } from '../config'
import { getDb } from '../db'
import { readCookie, SESSION_COOKIE } from '../http/cookies'
import { addressKey, clientInfo } from '../http/client-info'
import { logger } from '../logger'
import { CACHE_LIMITS, touchCached, trimCacheDir } from './cache-dir'
import { ffmpegArgs, parseProbe, probeArgs, TRANSCODE_PROFILES, type StreamCodecs, type TranscodeProfile } from './transcode-profile'

/** Conversions at once in all: TRANSCODE_SLOTS, else one fewer than the cores (at least one). */
const globalLimit = () => config.TRANSCODE_SLOTS ?? Math.max(1, cpus().length - 1)
/** Conversions one holder may run: two (a track and the next one), never all of them when there are more than one. */
const holderLimit = () => Math.min(2, Math.max(1, globalLimit() - 1))
/** A conversion whose answer is not read for this long is ended. */
const STALL_MS = 10_000
/** ffmpeg's niceness: conversions give way to the server's own work. */
const FFMPEG_NICE = 10
const RETRY_AFTER_SEC = 5
const FFMPEG_LOOKUP_TTL_MS = 60_000

type TranscodeState = {
  running: number
  byHolder: Map<string, number>
  /** Cache keys being written now: a second request for one streams without writing. */
  filling: Set<string>
  tools: { at: number; ffmpeg: string | null; ffprobe: string | null } | null
}
const state: TranscodeState = { running: 0, byHolder: new Map(), filling: new Set(), tools: null }

/** Conversions streaming now (GET /metrics). */
export const runningTranscodes = () => state.running

/** ffmpeg (FFMPEG_PATH, a name on PATH or a path) and the ffprobe beside it; null when missing. */
export function transcodeTools(): { ffmpeg: string | null; ffprobe: string | null } {
  const now = Date.now()
  if (!state.tools || now - state.tools.at > FFMPEG_LOOKUP_TTL_MS) {
    const ffmpeg = Bun.which(config.FFMPEG_PATH)
    const ffprobe = ffmpeg ? Bun.which(path.join(path.dirname(ffmpeg), 'ffprobe')) : null
    state.tools = { at: now, ffmpeg, ffprobe }
  }
  return state.tools
}

/** Spawns ffmpeg (argv, no shell) at a lower priority than the server. */
export function spawnFfmpeg<Options extends Parameters<typeof Bun.spawn>[1]>(argv: string[], options: Options) {
  const proc = Bun.spawn(argv, options)
  try {
    setPriority(proc.pid, FFMPEG_NICE)
  } catch {}
  return proc
}

/**
 * Who a conversion's slot is counted for: the member given (/rest/stream knows it), else the
 * member whose session cookie the request carries, else the client address.
 */
async function holderOf(request: Request, member: string | undefined): Promise<string> {
  if (member) return `member:${member}`
  const token = readCookie(request.headers, SESSION_COOKIE)
  const user = token ? await authenticate(getDb(), token, config.AUTH_SECRET) : null
  return user ? `member:${user.id}` : `address:${addressKey(clientInfo(request.headers).ip)}`
}

/** Where complete converted copies are kept (offload.ts hands them to nginx from here). */
export const cacheDir = () => path.join(config.DATA_DIR, 'transcode-cache')

function cacheKey(real: string, st: Stats, profile: TranscodeProfile): string {
  return new Bun.CryptoHasher('sha256')
    .update(`${real}\n${st.size}\n${Math.floor(st.mtimeMs)}\n${profile}`)
    .digest('hex')
    .slice(0, 40)
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers } })

async function probe(ffprobe: string | null, real: string): Promise<StreamCodecs> {
  const args = probeArgs(real)
  if (!ffprobe || !args) return { video: null, audio: null }
  const proc = Bun.spawn([ffprobe, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' })
  const out = await new Response(proc.stdout).text()
  await proc.exited
  return parseProbe(out)
}

/**
 * The converted copy of a checked library file: `{ path, size }` of the complete cached copy
 * (the handler serves it with ranges), or a Response — the live stream, a 429, or a 503 when
 * there is no ffmpeg. `member`: the id of the member asking, when the caller knows it. `startMs`:
 * where the conversion starts (a whole number of milliseconds; 0, the start, is the cached one).
 */
export async function convertedFile(
  request: Request,
  real: string,
  st: Stats,
  profile: TranscodeProfile,
  member?: string,
  startMs = 0,
): Promise<{ path: string; size: number } | Response> {
  const { mime, ext } = TRANSCODE_PROFILES[profile]
  const key = cacheKey(real, st, profile)
  const cached = path.join(cacheDir(), `${key}.${ext}`)
  const whole = startMs === 0
  if (whole) {
    try {
      const cst = statSync(cached)
      touchCached(cached)
      return { path: cached, size: cst.size }
    } catch {}
  }

  const tools = transcodeTools()
  if (!tools.ffmpeg) return text(503, 'This file needs ffmpeg to play, and the server has none (FFMPEG_PATH)')
  const streamHeaders = { 'content-type': mime, 'cache-control': 'no-store', 'accept-ranges': 'none' }
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers: streamHeaders })

  const holder = await holderOf(request, member)
  if (state.running >= globalLimit() || (state.byHolder.get(holder) ?? 0) >= holderLimit())
    return text(429, 'Too many conversions at once; try again in a few seconds', { 'retry-after': String(RETRY_AFTER_SEC) })
  state.running++
  state.byHolder.set(holder, (state.byHolder.get(holder) ?? 0) + 1)
  let released = false
  const release = () => {
    if (released) return
    released = true
    state.running--
    const n = (state.byHolder.get(holder) ?? 1) - 1
    if (n > 0) state.byHolder.set(holder, n)
    else state.byHolder.delete(holder)
  }

  const codecs = profile === 'mp4' ? await probe(tools.ffprobe, real) : undefined
  if (request.signal.aborted) {
    release()
    return text(499, 'Client went away')
  }
  const args = ffmpegArgs(real, profile, codecs, startMs)
  if (!args) {
    release()
    return text(415, 'This file could not be converted for playback')
  }
  const proc = spawnFfmpeg([tools.ffmpeg, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const stderr = new Response(proc.stderr).text()
  void proc.exited.finally(release)

  const fills = whole && !state.filling.has(key)
  let temp: string | null = null
  let sink: ReturnType<ReturnType<typeof Bun.file>['writer']> | null = null
  if (fills) {
    state.filling.add(key)
    mkdirSync(cacheDir(), { recursive: true })
    temp = `${cached}.${process.pid}-${crypto.randomUUID()}.part`
    sink = Bun.file(temp).writer()
  }
  let settled = false
  const dropFill = () => {
    if (settled) return
    settled = true
    if (fills) state.filling.delete(key)
    if (sink && temp) {
      const file = temp
      void Promise.resolve(sink.end()).finally(() => rmSync(file, { force: true }))
    }
  }
  const stop = () => {
    proc.kill('SIGKILL')
    dropFill()
  }
  request.signal.addEventListener('abort', stop, { once: true })

  const reader = proc.stdout.getReader()
  const first = await reader.read()
  if (first.done) {
    const code = await proc.exited
    request.signal.removeEventListener('abort', stop)
    dropFill()
    if (code !== 0 && !request.signal.aborted) logger.warn({ code, error: (await stderr).slice(0, 500) }, 'ffmpeg could not convert a library file')
    return text(415, 'This file could not be converted for playback')
  }
  sink?.write(first.value)

  const finish = async () => {
    const code = await proc.exited
    request.signal.removeEventListener('abort', stop)
    if (code !== 0 || settled || !sink || !temp) {
      if (code !== 0 && !request.signal.aborted) logger.warn({ code, error: (await stderr).slice(0, 500) }, 'ffmpeg stopped converting a library file')
      return dropFill()
    }
    settled = true
    try {
      await sink.end()
      renameSync(temp, cached)
      await trimCacheDir(cacheDir(), CACHE_LIMITS.transcodeBytes, cached)
    } catch (error) {
      logger.error({ err: error }, 'could not keep a converted file in the cache')
      rmSync(temp, { force: true })
    } finally {
      state.filling.delete(key)
    }
  }

  // The answer asks for more (pull) whenever the client has taken some of the read-ahead; a
  // pull that does not come for STALL_MS while ffmpeg still runs means nobody is reading.
  let pulling = false
  let lastPull = Date.now()
  let stalled: ReturnType<typeof setInterval> | undefined
  void proc.exited.finally(() => clearInterval(stalled))
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(first.value)
        stalled = setInterval(() => {
          if (pulling || Date.now() - lastPull < STALL_MS) return
          clearInterval(stalled)
          stop()
          controller.error(new Error('the client stopped reading a converted stream'))
        }, 1000)
      },
      async pull(controller) {
        pulling = true
        try {
          const next = await reader.read()
          if (next.done) {
            await finish()
            controller.close()
            return
          }
          if (!settled) sink?.write(next.value)
          controller.enqueue(next.value)
        } finally {
          pulling = false
          lastPull = Date.now()
        }
      },
      cancel: stop,
    },
    // Reads ahead of a slow client, then waits (and so does ffmpeg). Audio gets 32 MB, about
    // half an hour of MP3, so a track's conversion reaches the cache (and becomes seekable) even
    // while the browser has stopped reading; video keeps 4 MB (its copy is rarely finished in one play).
    { highWaterMark: (profile === 'mp4' ? 4 : 32) * 1024 * 1024, size: (chunk) => chunk?.byteLength ?? 0 },
  )
  return new Response(body, { status: 200, headers: streamHeaders })
}
