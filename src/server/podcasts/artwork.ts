// A podcast channel's artwork, through the server: the page's CSP shows only same-origin images,
// and apps ask getCoverArt for it. The feed's image URL is fetched under the remote address policy
// (size and time caps, every redirect checked), must really be a picture by its bytes (an HTML
// page labelled image/jpeg is refused), and is re-encoded by ffmpeg as a JPEG scaled to one of
// the cover sizes (never the feed's own bytes). Copies are kept in DATA_DIR/cover-cache beside
// the cover thumbnails (one budget, least recently used first) under a hash of the URL and size;
// an image that failed is not fetched again for a while, so a page of broken artwork does not
// reach the feed's host at every view.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { imageTypeOf } from '~/shared/image-type'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import { config } from '../config'
import { NotFoundError, RateLimitedError } from '../errors'
import { CACHE_LIMITS, touchCached, trimCacheDir } from '../media/cache-dir'
import { MEDIA_SECURITY_HEADERS } from '../media/handler'
import { transcodeTools } from '../media/transcode'
import { remotePolicy } from '../remote'
import { fetchRemoteBytes, RemoteError } from '../remote/fetch'
import { requireAccess } from '../services/podcasts'
import { BUSY_RETRY_AFTER_SEC, COVER_SIZES, coverSizeFor, scale, turn } from '../subsonic/cover-size'

export const ARTWORK_MAX_BYTES = 5 * 1024 * 1024
export const ARTWORK_TIMEOUT_MS = 10_000
/** How long a failed artwork URL is answered from memory before it is tried again. */
const FAILURE_MEMORY_MS = 10 * 60_000
const FAILURES_KEPT = 1000
/** The size sent when none is asked: large enough for a channel page's header. */
const DEFAULT_SIZE = 512

const failures = new Map<string, { reason: string; until: number }>()
/** One fetch and scale per artwork and size at a time: a grid's many requests share it. */
const inFlight = new Map<string, Promise<string>>()

type Member = { id: string; isAdmin: boolean }

const noArtwork = (reason: string) => new NotFoundError(`No artwork for this podcast: ${reason}`)

function rememberFailure(url: string, reason: string) {
  if (failures.size >= FAILURES_KEPT) failures.delete(failures.keys().next().value as string)
  failures.set(url, { reason, until: Date.now() + FAILURE_MEMORY_MS })
}

/** Fetches, checks and scales the image at `url` into `file`; throws NotFoundError naming why not. */
async function makeArtwork(url: string, size: number, file: string, signal: AbortSignal): Promise<void> {
  // Reasons that will hold on the next try are remembered; a cancelled request is not.
  const refuse = (reason: string) => {
    rememberFailure(url, reason)
    return noArtwork(reason)
  }
  const { ffmpeg } = transcodeTools()
  if (!ffmpeg) throw noArtwork('this server has no image converter')
  let bytes: Uint8Array
  try {
    const got = await fetchRemoteBytes(url, remotePolicy(), { first: 0, last: ARTWORK_MAX_BYTES - 1 }, ARTWORK_TIMEOUT_MS)
    // A part of a larger file would be a broken picture: only whole images are used.
    if (got.size !== null && got.bytes.length < got.size) throw new RemoteError(`the image is larger than ${ARTWORK_MAX_BYTES / (1024 * 1024)} MB`)
    bytes = got.bytes
  } catch (error) {
    if (error instanceof RemoteError) throw refuse(error.message)
    throw error
  }
  if (!imageTypeOf(bytes)) throw refuse('the address does not give a picture')
  const scaled = await turn(signal, () => scale(ffmpeg, bytes, size))
  if (scaled === 'busy') throw new RateLimitedError(BUSY_RETRY_AFTER_SEC, 'Too many pictures are being scaled; try again in a few seconds')
  if (scaled === 'gone') throw noArtwork('the request was cancelled')
  if (!scaled) throw refuse('the picture could not be read')
  const dir = path.dirname(file)
  mkdirSync(dir, { recursive: true })
  const partial = `${file}.${process.pid}.${Date.now()}.part`
  writeFileSync(partial, scaled)
  renameSync(partial, file)
  await trimCacheDir(dir, CACHE_LIMITS.coverBytes, file)
}

/**
 * The channel's artwork as a JPEG that fits `asked`×`asked` (rounded up to a cover size), for a
 * member who follows the channel (or an admin). NotFoundError when the channel is not theirs, has
 * no artwork, or its artwork is no usable picture; RateLimitedError when too many are scaling.
 */
export async function channelArtwork(db: Db, member: Member, channelId: string, asked: number | undefined, signal: AbortSignal): Promise<Response> {
  const { podcastChannels } = tablesOf(db)
  await requireAccess(db, member, channelId)
  const [row] = await db.select({ url: podcastChannels.artworkUrl }).from(podcastChannels).where(eq(podcastChannels.id, channelId))
  const url = row?.url
  if (!url) throw noArtwork('its feed names no image')
  const size = asked === undefined ? DEFAULT_SIZE : (coverSizeFor(asked) ?? COVER_SIZES[COVER_SIZES.length - 1])
  const failed = failures.get(url)
  if (failed && failed.until > Date.now()) throw noArtwork(failed.reason)
  const key = new Bun.CryptoHasher('sha256').update(`podcast-artwork\n${url}\n${size}`).digest('hex').slice(0, 40)
  const file = path.join(config.DATA_DIR, 'cover-cache', `${key}.jpg`)
  if (existsSync(file)) touchCached(file)
  else {
    let making = inFlight.get(key)
    if (!making) {
      making = makeArtwork(url, size, file, signal)
        .then(() => file)
        .finally(() => inFlight.delete(key))
      inFlight.set(key, making)
    }
    await making
  }
  return new Response(Bun.file(file), {
    headers: { ...MEDIA_SECURITY_HEADERS, 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=86400', etag: `"${key}"` },
  })
}
