// Remote folders: fetch a URL under the address policy and read it as a track list (a directory
// listing with its sub-folders, or a playlist), with each file's own tags read by range; and the
// save-time check that a folder's URL is one the server can load. Bounds: decision 049.
import { InvalidError } from '../errors'
import { config } from '../config'
import { DEFAULT_ALBUM, type Track } from '~/shared/player/track'
import { naturalCompare } from '../media/natural'
import type { AddressPolicy } from './address-policy'
import { fetchRemote, REMOTE_TIMEOUT_MS, RemoteError } from './fetch'
import { cachedTags, type FileTags, readIntoCache } from './file-tags'
import { decodeName, type Listing, MAX_REMOTE_TRACKS, parseRemote, titleFromUrl } from './parse'

/** The operator's policy (REMOTE_ALLOW_HOSTS, REMOTE_ALLOW_PRIVATE) for every outgoing fetch. */
export const remotePolicy = (): AddressPolicy => ({ allowHosts: config.REMOTE_ALLOW_HOSTS, allowPrivate: config.REMOTE_ALLOW_PRIVATE })

/** Sub-folders are followed this many levels below the folder given… */
export const MAX_FOLDER_DEPTH = 3
/** …and at most this many of them in all, read this many at once, within the listing timeout. */
export const MAX_SUBFOLDERS = 50
const SUBFOLDER_CONCURRENCY = 4
/** How long a load waits for files' tags; files not read by then keep their names and are read on (the cache has them next time). */
export const TAGS_BUDGET_MS = 4_000
/** Files of one load whose tags are read (a bigger folder shows the rest by name). */
const MAX_FILES_READ = 2_000
/** Embedded covers (data: URLs) one answer carries at most; past that, tracks go without. */
const MAX_COVER_CHARS_PER_LOAD = 1024 * 1024

export async function loadRemotePlaylist(url: string): Promise<Track[]> {
  try {
    const policy = remotePolicy()
    const res = await fetchRemote(url, policy)
    const answer = parseRemote(res.body, res.url, res.contentType)
    const tracks = answer.playlist ? answer.tracks : await withSubfolders(answer, policy)
    return await withFileTags(tracks, policy, !answer.playlist)
  } catch (error) {
    if (error instanceof RemoteError) throw new InvalidError(error.message, 'url')
    throw error
  }
}

const folderName = (url: string) => decodeName(new URL(url).pathname.replace(/\/+$/, '').split('/').pop() ?? '')

/** Runs tasks at most `n` at a time, in order of start. */
function limiter(n: number) {
  let active = 0
  const waiting: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < n) active++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}

/**
 * A listing's tracks followed by those of its sub-folders (each in natural order, depth first), as
 * a library folder plays. A sub-folder that cannot be read, or is past the bounds, is left out.
 */
async function withSubfolders(root: Listing, policy: AddressPolicy): Promise<Track[]> {
  const deadline = Date.now() + REMOTE_TIMEOUT_MS
  const seen = new Set<string>()
  const run = limiter(SUBFOLDER_CONCURRENCY)
  let left = MAX_SUBFOLDERS
  const read = (url: string) =>
    run(async () => {
      const timeoutMs = deadline - Date.now()
      if (timeoutMs <= 0) return null
      const res = await fetchRemote(url, policy, { timeoutMs }).catch(() => null)
      if (!res) return null
      const answer = parseRemote(res.body, res.url, res.contentType)
      return answer.playlist ? null : answer
    })
  const expand = async (listing: Listing, depth: number): Promise<Track[]> => {
    const children =
      depth >= MAX_FOLDER_DEPTH ? [] : listing.subfolders.filter((u) => !seen.has(u)).sort((a, b) => naturalCompare(folderName(a), folderName(b)))
    const taken = children.slice(0, Math.max(0, left))
    left -= taken.length
    for (const u of taken) seen.add(u)
    const nested = await Promise.all(
      taken.map(async (u) => {
        const sub = await read(u)
        return sub ? expand(sub, depth + 1) : []
      }),
    )
    return [...listing.tracks, ...nested.flat()]
  }
  return (await expand(root, 0)).slice(0, MAX_REMOTE_TRACKS)
}

/**
 * Each track with what its file's tags say: for a directory listing the tag title replaces the
 * file name; a playlist's own titles stay. Waits TAGS_BUDGET_MS at most.
 */
async function withFileTags(tracks: Track[], policy: AddressPolicy, fromListing: boolean): Promise<Track[]> {
  const toRead = tracks.slice(0, MAX_FILES_READ).filter((t) => !cachedTags(t.url))
  if (toRead.length) {
    let timer: ReturnType<typeof setTimeout> | undefined
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, TAGS_BUDGET_MS)))
    await Promise.race([Promise.all(toRead.map((t) => readIntoCache(t.url, t.mime, policy))), budget])
    clearTimeout(timer)
  }
  let coverChars = 0
  return tracks.map((t) => {
    const tags = cachedTags(t.url)
    if (!tags?.cover || t.cover) return withTags(t, tags, fromListing)
    coverChars += tags.cover.length
    return withTags(t, coverChars <= MAX_COVER_CHARS_PER_LOAD ? tags : { ...tags, cover: undefined }, fromListing)
  })
}

function withTags(t: Track, tags: FileTags | undefined, fromListing: boolean): Track {
  if (!tags) return t
  const named = fromListing || t.title === titleFromUrl(t.url)
  const out: Track = {
    ...t,
    title: named && tags.title ? tags.title : t.title,
    artist: t.artist || tags.artist || '',
    album: t.album !== DEFAULT_ALBUM ? t.album : (tags.album ?? t.album),
    duration: t.duration || tags.duration || 0,
  }
  const genre = t.genre ?? tags.genre
  const year = t.year ?? tags.year
  const cover = t.cover ?? tags.cover
  if (genre) out.genre = genre
  if (year) out.year = year
  if (cover) out.cover = cover
  return out
}

/**
 * Refuses (400, naming the problem) a folder URL that does not load now: an address the policy
 * refuses, a name that does not resolve, nothing answering, an HTTP error, a timeout. The same
 * fetch as playing it, so what is saved is what plays (decision 049).
 */
export async function checkRemoteFolderUrl(url: string): Promise<void> {
  try {
    await fetchRemote(url, remotePolicy())
  } catch (error) {
    if (error instanceof RemoteError) throw new InvalidError(error.message, 'path')
    throw error
  }
}
