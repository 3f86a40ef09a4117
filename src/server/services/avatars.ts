// Members' profile pictures (decision 076). An upload is at most AVATAR_MAX_BYTES and must be a
// PNG, JPEG or WebP image by its bytes (the name and the declared type are not trusted). It is
// never kept as sent: ffmpeg, reading the bytes on stdin only (no file name, no option from the
// caller, only the pipe protocol), crops it to a centred square and scales it to at most
// AVATAR_SIZE px as a JPEG, which drops whatever else the file carried (metadata, a second
// image, a script). The copy lives in DATA_DIR/avatars/<user id>.jpg, never under MEDIA_ROOT,
// so the library's readers never see it. At most MAX_RUNNING conversions run at once; beyond
// that an upload is told to try again shortly.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { imageTypeOf } from '~/shared/image-type'
import { config } from '../config'
import { InvalidError, RateLimitedError } from '../errors'
import { imageToJpeg } from '../media/image-to-jpeg'
import { transcodeTools } from '../media/transcode'

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_SIZE = 512
const ACCEPTED = new Set(['image/png', 'image/jpeg', 'image/webp'])
const MAX_RUNNING = 2
let running = 0

const avatarFile = (userId: string) => path.join(config.DATA_DIR, 'avatars', `${userId}.jpg`)

async function squareJpeg(ffmpeg: string, image: Uint8Array): Promise<Uint8Array | null> {
  const square = `crop='min(iw,ih)':'min(iw,ih)',scale='min(${AVATAR_SIZE},iw)':'min(${AVATAR_SIZE},ih)'`
  return imageToJpeg(ffmpeg, image, square)
}

/** Checks, converts and keeps a member's new picture; InvalidError naming the problem when refused. */
export async function saveAvatar(userId: string, image: Uint8Array): Promise<void> {
  if (image.byteLength === 0) throw new InvalidError('No picture was sent', 'avatar')
  if (image.byteLength > AVATAR_MAX_BYTES) throw new InvalidError('The picture is larger than 2 MB', 'avatar')
  const type = imageTypeOf(image)
  if (!type || !ACCEPTED.has(type)) throw new InvalidError('The picture must be a PNG, JPEG or WebP image', 'avatar')
  const { ffmpeg } = transcodeTools()
  if (!ffmpeg) throw new InvalidError('Profile pictures need ffmpeg on the server', 'avatar')
  if (running >= MAX_RUNNING) throw new RateLimitedError(2, 'Too many pictures are being converted; try again in a few seconds')
  running++
  let square: Uint8Array | null
  try {
    square = await squareJpeg(ffmpeg, image)
  } finally {
    running--
  }
  if (!square) throw new InvalidError('The picture could not be read as an image', 'avatar')
  const file = avatarFile(userId)
  mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.${process.pid}.${Date.now()}.part`
  writeFileSync(partial, square)
  renameSync(partial, file)
}

export function removeAvatar(userId: string): void {
  rmSync(avatarFile(userId), { force: true })
}

/** The member's picture (always a JPEG) and when it was saved, or null. */
export function avatarOf(userId: string): { data: Uint8Array<ArrayBuffer>; savedAt: number } | null {
  const file = avatarFile(userId)
  if (!existsSync(file)) return null
  try {
    return { data: new Uint8Array(readFileSync(file)), savedAt: Math.floor(statSync(file).mtimeMs) }
  } catch {
    return null
  }
}
