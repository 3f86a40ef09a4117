// getCoverArt's `size`: apps ask for grid thumbnails (size=300) and a cover embedded in a file
// can be megabytes. ffmpeg (already the converter, decision 025) scales the image to fit in
// size×size, never up, as a JPEG; copies are kept in DATA_DIR/cover-cache under a hash of the
// file, its size and mtime, and the size, so each thumbnail is made once; the directory is
// kept to CACHE_LIMITS.coverBytes, least recently used first, as the transcode cache is
// (cache-dir.ts). The asked size is rounded up to one of COVER_SIZES (above the largest, the
// original is sent): a client stepping through size=1…10000 would otherwise start an ffmpeg and
// leave a cache file for each. The only input to ffmpeg is the image's bytes on stdin and one of
// those sizes; at most MAX_RUNNING run at a time (a grid asks for dozens at once), at most
// MAX_WAITING wait their turn (beyond that, 'busy': the caller answers 429), and a waiting
// request whose caller has gone away leaves the queue without running. Without ffmpeg, or when
// scaling fails, the caller sends the original image.
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { config } from '../config'
import { CACHE_LIMITS, touchCached, trimCacheDir } from '../media/cache-dir'
import { readCover } from '../media/covers'
import { MEDIA_SECURITY_HEADERS } from '../media/handler'
import { resolveInside } from '../media/library-path'
import { imageToJpeg } from '../media/image-to-jpeg'
import { transcodeTools } from '../media/transcode'

/** The sizes a scaled cover is made in: the asked size rounds up to the next one. */
export const COVER_SIZES = [64, 128, 256, 512, 1024] as const
const MAX_RUNNING = 2
export const MAX_WAITING = 32
export const BUSY_RETRY_AFTER_SEC = 2

/** The size a cover is scaled to for an asked size, or null above the largest (the original is sent). */
export const coverSizeFor = (asked: number): number | null => COVER_SIZES.find((size) => size >= asked) ?? null

let running = 0
/** Callers waiting for a slot, first in first out; a finishing run hands its slot to the first. */
const waiting: (() => void)[] = []

function releaseSlot() {
  const next = waiting.shift()
  if (next) next()
  else running--
}

/** Runs `work` in its turn (also podcast artwork's scaling, so both share the slots); 'busy' when the queue is full, 'gone' when the caller left before its turn. */
export async function turn<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T | 'busy' | 'gone'> {
  if (signal.aborted) return 'gone'
  if (running < MAX_RUNNING) running++
  else {
    if (waiting.length >= MAX_WAITING) return 'busy'
    const handed = await new Promise<boolean>((resolve) => {
      const go = () => {
        signal.removeEventListener('abort', leave)
        resolve(true)
      }
      const leave = () => {
        const at = waiting.indexOf(go)
        if (at >= 0) waiting.splice(at, 1)
        resolve(false)
      }
      waiting.push(go)
      signal.addEventListener('abort', leave, { once: true })
    })
    if (!handed) return 'gone'
    if (signal.aborted) {
      releaseSlot()
      return 'gone'
    }
  }
  try {
    return await work()
  } finally {
    releaseSlot()
  }
}

export async function scale(ffmpeg: string, image: Uint8Array, size: number): Promise<Uint8Array | null> {
  const fit = `scale='min(${size},iw)':'min(${size},ih)':force_original_aspect_ratio=decrease`
  return imageToJpeg(ffmpeg, image, fit)
}

/**
 * The cover at `coverPath` scaled to fit the asked size (rounded up, coverSizeFor), as an answer;
 * null to send the original; 'busy' when too many are waiting. `signal`: the caller's request.
 */
export async function sizedCover(coverPath: string, asked: number, signal: AbortSignal): Promise<Response | null | 'busy'> {
  const { ffmpeg } = transcodeTools()
  const real = resolveInside(coverPath)
  const size = coverSizeFor(asked)
  if (!ffmpeg || !real || size === null) return null
  const st = statSync(real, { throwIfNoEntry: false })
  if (!st?.isFile()) return null
  const key = new Bun.CryptoHasher('sha256')
    .update(`${real}\n${st.size}\n${Math.floor(st.mtimeMs)}\n${size}`)
    .digest('hex')
    .slice(0, 40)
  const dir = path.join(config.DATA_DIR, 'cover-cache')
  const file = path.join(dir, `${key}.jpg`)
  if (existsSync(file)) touchCached(file)
  else {
    const cover = await readCover(real, st)
    if (!cover) return null
    const scaled = await turn(signal, () => scale(ffmpeg, cover.data, size))
    if (scaled === 'busy') return 'busy'
    // 'gone': nobody reads the answer; the original is the cheapest one to drop.
    if (!scaled || scaled === 'gone') return null
    mkdirSync(dir, { recursive: true })
    const partial = `${file}.${process.pid}.${Date.now()}.part`
    writeFileSync(partial, scaled)
    renameSync(partial, file)
    await trimCacheDir(dir, CACHE_LIMITS.coverBytes, file)
  }
  return new Response(Bun.file(file), {
    headers: { ...MEDIA_SECURITY_HEADERS, 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=86400', etag: `"${key}"` },
  })
}
