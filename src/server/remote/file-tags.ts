// The tags, length and embedded cover of remote media files, read on the server by range (the
// file's head, and its tail where the format keeps something there) under the address policy,
// and kept in a bounded in-memory cache. Bounds, budget and cache rules: decision 049.
import type { IAudioMetadata } from 'music-metadata'
import { imageTypeOf } from '~/shared/image-type'
import { extensionOf } from '~/shared/player/mime'
import { OGG_MAX_PAGE, oggDurationInTail, oggGranuleRate } from '~/shared/player/ogg-last-page'
import type { Track } from '~/shared/player/track'
import { pickCover } from '../media/covers'
import type { AddressPolicy } from './address-policy'
import { fetchRemoteBytes } from './fetch'
import { HeadTailTokenizer } from './head-tail-tokenizer'

/** The first bytes read of every file: ID3v2/Vorbis/FLAC/MP4 headers and tags usually fit. */
const HEAD_BYTES = 128 * 1024
/** An ID3v2 tag larger than the head (a big embedded picture) is read whole up to this size. */
const MAX_TAG_BYTES = 1024 * 1024
/** The last bytes, where the format needs them: one whole Ogg page; ID3v1 (128 B) and APE tags. */
const TAIL_BYTES = OGG_MAX_PAGE + 1024
/** A file this small is read whole for its tail when its server ignores Range requests. */
const WHOLE_FOR_TAIL_BYTES = 1024 * 1024
/** Each range read of one file. */
const FILE_TIMEOUT_MS = 5_000
/** An embedded picture larger than this is left out (it travels in every listing answer). */
const MAX_COVER_BYTES = 96 * 1024
/** Files read at once, across every listing being loaded. */
export const READ_CONCURRENCY = 4
/** Files waiting for a reader, across every listing; more are not read (their names stand). */
const MAX_WAITING = 4_000
/** Cached files, and how long a reading stands before the file is read again. */
const CACHE_ENTRIES = 5_000
const CACHE_BYTES = 24 * 1024 * 1024
const FRESH_MS = 10 * 60_000

/** What a file's own tags say; each field only where they say it. */
export type FileTags = Partial<Pick<Track, 'title' | 'artist' | 'album' | 'genre' | 'year' | 'duration' | 'cover'>>

const clean = (s: string | undefined | null, max = 500) => {
  const text = s?.replace(/\p{Cc}+/gu, ' ').trim()
  return text ? text.slice(0, max) : undefined
}

/** Formats whose length or tags may be at the end of the file. */
const OGG = new Set(['ogg', 'oga', 'opus', 'spx'])
const TAIL_WHEN_NO_ID3V2 = new Set(['mp3', 'mp2', 'aac'])
const MP4 = new Set(['m4a', 'm4b', 'mp4', 'm4v', 'mov'])

/** The ID3v2 tag's full size (header included) from its first 10 bytes, or 0. */
function id3v2Size(head: Uint8Array): number {
  if (head.length < 10 || head[0] !== 0x49 || head[1] !== 0x44 || head[2] !== 0x33) return 0
  const syncsafe = ((head[6] & 0x7f) << 21) | ((head[7] & 0x7f) << 14) | ((head[8] & 0x7f) << 7) | (head[9] & 0x7f)
  return 10 + syncsafe + (head[5] & 0x10 ? 10 : 0)
}

/** Reads one remote file's tags. Throws when the file cannot be read at all (the caller keeps its name). */
export async function readRemoteFileTags(url: string, mime: string, policy: AddressPolicy): Promise<FileTags> {
  const ext = extensionOf(new URL(url).pathname)
  let head = await fetchRemoteBytes(url, policy, { first: 0, last: HEAD_BYTES - 1 }, FILE_TIMEOUT_MS)
  const tagSize = id3v2Size(head.bytes)
  if (tagSize > head.bytes.length && tagSize <= MAX_TAG_BYTES && !head.whole && head.size !== null)
    head = await fetchRemoteBytes(url, policy, { first: 0, last: tagSize + 4095 }, FILE_TIMEOUT_MS)
  const size = head.whole ? head.bytes.length : head.size
  if (size === null) return {}
  const needsTail = OGG.has(ext) || MP4.has(ext) || (TAIL_WHEN_NO_ID3V2.has(ext) && tagSize === 0)
  const tail =
    needsTail && size > head.bytes.length
      ? (await fetchRemoteBytes(url, policy, { suffix: Math.min(TAIL_BYTES, size - head.bytes.length) }, FILE_TIMEOUT_MS, WHOLE_FOR_TAIL_BYTES)).bytes
      : new Uint8Array()
  const { parseFromTokenizer } = await import('music-metadata')
  const tokenizer = new HeadTailTokenizer(head.bytes, tail, size, { mimeType: mime, path: new URL(url).pathname })
  const meta: IAudioMetadata = await parseFromTokenizer(tokenizer, { duration: false, skipCovers: false })
  const { common, format } = meta
  let duration = format.duration
  // A file no bigger than its head was read whole: its last page is in the head.
  if (!duration && OGG.has(ext)) duration = oggDurationInTail(tail.length ? tail : head.bytes, oggGranuleRate(format.codec, format.sampleRate)) ?? undefined
  const picture = pickCover(common.picture)
  const year = common.year && common.year > 0 && common.year < 10_000 ? common.year : undefined
  const tags: FileTags = {
    title: clean(common.title),
    artist: clean(common.artist),
    album: clean(common.album),
    genre: clean(common.genre?.[0], 200),
    year,
    duration: duration && Number.isFinite(duration) && duration > 0 ? Math.round(duration * 1000) / 1000 : undefined,
  }
  if (picture && picture.data.length <= MAX_COVER_BYTES && imageTypeOf(picture.data))
    tags.cover = `data:${picture.mime};base64,${Buffer.from(picture.data).toString('base64')}`
  for (const key of Object.keys(tags) as (keyof FileTags)[]) if (tags[key] === undefined) delete tags[key]
  return tags
}

// The cache: insertion order is recency (a hit moves its entry to the end); the oldest go first
// when there are more entries or more bytes (covers, mostly) than the bounds allow.
type Entry = { tags: FileTags; at: number; bytes: number }
const cache = new Map<string, Entry>()
let cachedBytes = 0

function remember(url: string, tags: FileTags) {
  forget(url)
  const bytes = 200 + (tags.cover?.length ?? 0)
  cache.set(url, { tags, at: Date.now(), bytes })
  cachedBytes += bytes
  for (const [oldest] of cache) {
    if (cache.size <= CACHE_ENTRIES && cachedBytes <= CACHE_BYTES) break
    forget(oldest)
  }
}

function forget(url: string) {
  const entry = cache.get(url)
  if (!entry) return
  cachedBytes -= entry.bytes
  cache.delete(url)
}

/** A fresh cached reading, or undefined. */
export function cachedTags(url: string): FileTags | undefined {
  const entry = cache.get(url)
  if (!entry) return undefined
  if (Date.now() - entry.at > FRESH_MS) return undefined
  cache.delete(url)
  cache.set(url, entry)
  return entry.tags
}

// One pool of readers for the whole server; a file already being read is not read twice.
const reading = new Map<string, Promise<void>>()
const waiting: Array<() => void> = []
let active = 0

/** A reader's slot: taken at once while fewer than READ_CONCURRENCY run, else handed over by release. */
async function acquire() {
  if (active < READ_CONCURRENCY) active++
  else await new Promise<void>((resolve) => waiting.push(resolve))
}

function release() {
  const next = waiting.shift()
  if (next) next()
  else active--
}

/**
 * Reads a file's tags into the cache (a file that cannot be read is cached with no tags, so it is
 * not tried again while fresh). Resolves when done; never rejects.
 */
export function readIntoCache(url: string, mime: string, policy: AddressPolicy): Promise<void> {
  const current = reading.get(url)
  if (current) return current
  if (waiting.length >= MAX_WAITING) return Promise.resolve()
  const job = (async () => {
    await acquire()
    try {
      remember(url, await readRemoteFileTags(url, mime, policy).catch(() => ({})))
    } finally {
      release()
      reading.delete(url)
    }
  })()
  reading.set(url, job)
  return job
}
