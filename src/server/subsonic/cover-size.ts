// getCoverArt's `size`: apps ask for grid thumbnails (size=300) and a cover embedded in a file
// can be megabytes. ffmpeg (already the converter, decision 025) scales the image to fit in
// size×size, never up, as a JPEG; copies are kept in DATA_DIR/cover-cache under a hash of the
// file, its size and mtime, and the asked size, so each thumbnail is made once; the directory is
// kept to CACHE_LIMITS.coverBytes, least recently used first, as the transcode cache is
// (cache-dir.ts). The only input
// to ffmpeg is the image's bytes on stdin and a checked integer; at most two run at a time (a
// grid asks for dozens at once) and the others wait their turn. Without ffmpeg, or when scaling
// fails, the caller sends the original image.
import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { imageTypeOf } from '~/shared/image-type'
import { config } from '../config'
import { CACHE_LIMITS, touchCached, trimCacheDir } from '../media/cache-dir'
import { readCover } from '../media/covers'
import { MEDIA_SECURITY_HEADERS } from '../media/handler'
import { resolveInside } from '../media/library-path'
import { transcodeTools } from '../media/transcode'

const MAX_RUNNING = 2
let running = 0
const waiting: (() => void)[] = []

async function turn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

async function scale(ffmpeg: string, image: Uint8Array, size: number): Promise<Uint8Array | null> {
  const fit = `scale='min(${size},iw)':'min(${size},ih)':force_original_aspect_ratio=decrease`
  const proc = Bun.spawn(
    [
      ffmpeg,
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'image2pipe',
      '-i',
      'pipe:0',
      '-vf',
      fit,
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '3',
      '-f',
      'image2',
      'pipe:1',
    ],
    { stdin: image, stdout: 'pipe', stderr: 'ignore' },
  )
  const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer())
  return (await proc.exited) === 0 && imageTypeOf(out) === 'image/jpeg' ? out : null
}

/** The cover at `coverPath` scaled to fit size×size, as an answer; null to send the original. */
export async function sizedCover(coverPath: string, size: number): Promise<Response | null> {
  const { ffmpeg } = transcodeTools()
  const real = resolveInside(coverPath)
  if (!ffmpeg || !real) return null
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
    const scaled = await turn(() => scale(ffmpeg, cover.data, size))
    if (!scaled) return null
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
