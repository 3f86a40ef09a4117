// "Download for offline": an album's or playlist's media files (and covers) stored in this
// browser's Cache Storage, which the service worker answers /media requests from when there is no
// network (src/client/pwa/service-worker.ts), so they play in the one player as they are.
//
// Rules: files are stored under their link without its signature and expiry (downloadKey: the same
// file, whatever link it came by), one copy however many albums or playlists hold it; a download stops at the
// size the member set for this device (the files stored so far stay); removing a collection
// removes the files no other collection holds. Downloads belong to the member who made them: the
// index names its owner, and when anyone else (or no one) is signed in, all of it is deleted
// (checkOwner: the page runs it on every sign-in and sign-out), so a shared device never shows one
// member's music to another.
//
// `createDownloads({ storage, caches, fetch, origin, owner })` holds the rules with injected
// dependencies (tests/unit/downloads.test.ts); the page makes one (pageDownloads).
import { useSyncExternalStore } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { DOWNLOADS_CACHE, downloadKey } from '~/client/pwa/sw-rules'
import type { Track } from '~/shared/player/track'

/** The index of stored files; 'vibes:user:' keys are removed at sign-out with the rest of the member's state. */
export const DOWNLOADS_INDEX_KEY = 'vibes:user:downloads'
/** The size limit is this device's, whoever signs in. */
export const DOWNLOAD_LIMIT_KEY = 'vibes:download-limit'
const MB = 1024 * 1024
export const LIMIT_CHOICES = [250 * MB, 500 * MB, 1024 * MB, 2048 * MB, 5120 * MB, 10240 * MB]
export const DEFAULT_LIMIT = 1024 * MB

export type DownloadTarget = { kind: 'album' | 'playlist'; id: string; name: string }
/** `tracks`: what the downloads page lists and plays with no network (the player's own Tracks). */
export type StoredCollection = DownloadTarget & { files: string[]; tracks?: Track[] }
type Index = { owner: string; collections: StoredCollection[]; sizes: Record<string, number> }

export type DownloadsSnapshot = {
  /** False where the browser has no Cache Storage (plain http away from localhost). */
  supported: boolean
  used: number
  limit: number
  collections: Array<StoredCollection & { bytes: number }>
  /** Collections being downloaded now: files done of all. */
  progress: Record<string, { done: number; total: number }>
}

export type DownloadResult = { stored: number; total: number; full: boolean }

export type DownloadsDeps = {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  caches: Pick<CacheStorage, 'open' | 'delete'> | null
  fetch: (url: string) => Promise<Response>
  origin: string
  /** The signed-in member's id, or null. */
  owner: () => string | null
  /** Whether the device has a network (no one can sign in or out without one). */
  online?: () => boolean
}

export const collectionKey = (t: Pick<DownloadTarget, 'kind' | 'id'>) => `${t.kind}:${t.id}`

export function createDownloads(deps: DownloadsDeps) {
  const { storage } = deps
  const listeners = new Set<() => void>()
  const progress: Record<string, { done: number; total: number }> = {}
  let snapshot: DownloadsSnapshot | null = null
  let snapshotOwner: string | null = null

  function readIndex(): Index | null {
    try {
      const raw = storage.getItem(DOWNLOADS_INDEX_KEY)
      return raw ? (JSON.parse(raw) as Index) : null
    } catch {
      return null
    }
  }

  function writeIndex(index: Index | null) {
    if (!index || index.collections.length === 0) storage.removeItem(DOWNLOADS_INDEX_KEY)
    else storage.setItem(DOWNLOADS_INDEX_KEY, JSON.stringify(index))
    changed()
  }

  function limit(): number {
    const stored = Number(storage.getItem(DOWNLOAD_LIMIT_KEY))
    return Number.isFinite(stored) && stored > 0 ? stored : DEFAULT_LIMIT
  }

  function changed() {
    snapshot = null
    for (const l of listeners) l()
  }

  function get(): DownloadsSnapshot {
    const owner = deps.owner()
    if (snapshot && snapshotOwner === owner) return snapshot
    snapshotOwner = owner
    const index = readIndex()
    const mine = index && index.owner === owner ? index : null
    const sizes = mine?.sizes ?? {}
    snapshot = {
      supported: deps.caches !== null,
      used: Object.values(sizes).reduce((a, b) => a + b, 0),
      limit: limit(),
      collections: (mine?.collections ?? []).map((c) => ({ ...c, bytes: c.files.reduce((a, f) => a + (sizes[f] ?? 0), 0) })),
      progress: { ...progress },
    }
    return snapshot
  }

  /** Deletes every stored file and the index. */
  async function removeAll() {
    storage.removeItem(DOWNLOADS_INDEX_KEY)
    await deps.caches?.delete(DOWNLOADS_CACHE)
    changed()
  }

  /**
   * Downloads belong to the member who made them: anyone else signed in (or no one) clears them.
   * Except no one signed in with no network: a sign-in that expired on a plane keeps the music
   * (signing out removes the index itself, and signing in takes a network).
   */
  async function checkOwner() {
    const index = readIndex()
    const owner = deps.owner()
    if (index && index.owner === owner) return
    if (index && owner === null && deps.online?.() === false) return
    await removeAll()
  }

  /**
   * Stores `urls` (the collection's media files and covers, same-origin /media links) as
   * `target`, skipping files already stored, with `tracks` to list and play offline. Stops before
   * a file that would pass the limit: the files stored so far stay, and `full` says it stopped.
   */
  async function download(target: DownloadTarget, urls: readonly string[], tracks: readonly Track[] = []): Promise<DownloadResult> {
    const owner = deps.owner()
    if (!deps.caches || !owner) throw new Error('Sign in on a secure (https) connection to download')
    await checkOwner()
    const key = collectionKey(target)
    const files = [...new Set(urls.map((u) => downloadKey(u, deps.origin)))]
    const byKey = new Map(urls.map((u) => [downloadKey(u, deps.origin), u]))
    const cache = await deps.caches.open(DOWNLOADS_CACHE)
    const stored: string[] = []
    let full = false
    progress[key] = { done: 0, total: files.length }
    changed()
    try {
      for (const file of files) {
        const index = readIndex() ?? { owner, collections: [], sizes: {} }
        if (index.sizes[file] === undefined) {
          const answer = await deps.fetch(byKey.get(file)!)
          if (!answer.ok) throw new Error(`Could not download a file (HTTP ${answer.status})`)
          const blob = await answer.blob()
          const used = Object.values(index.sizes).reduce((a, b) => a + b, 0)
          if (used + blob.size > limit()) {
            full = true
            break
          }
          const type = answer.headers.get('content-type') ?? 'application/octet-stream'
          await cache.put(file, new Response(blob, { headers: { 'content-type': type, 'content-length': String(blob.size) } }))
          index.sizes[file] = blob.size
        }
        stored.push(file)
        const at = index.collections.findIndex((c) => collectionKey(c) === key)
        const entry = { ...target, files: [...stored], tracks: [...tracks] }
        if (at >= 0) index.collections[at] = { ...entry, files: [...new Set([...index.collections[at].files, ...stored])] }
        else index.collections.push(entry)
        progress[key] = { done: stored.length, total: files.length }
        writeIndex(index)
      }
    } finally {
      delete progress[key]
      changed()
    }
    return { stored: stored.length, total: files.length, full }
  }

  /** Removes a collection and the files no other collection holds. */
  async function remove(target: Pick<DownloadTarget, 'kind' | 'id'>) {
    const index = readIndex()
    if (!index) return
    const key = collectionKey(target)
    const gone = index.collections.find((c) => collectionKey(c) === key)
    if (!gone) return
    index.collections = index.collections.filter((c) => c !== gone)
    const kept = new Set(index.collections.flatMap((c) => c.files))
    const cache = await deps.caches?.open(DOWNLOADS_CACHE)
    for (const file of gone.files)
      if (!kept.has(file)) {
        await cache?.delete(file)
        delete index.sizes[file]
      }
    writeIndex(index)
  }

  return {
    get,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    download,
    remove,
    removeAll,
    checkOwner,
    setLimit(bytes: number) {
      storage.setItem(DOWNLOAD_LIMIT_KEY, String(bytes))
      changed()
    },
  }
}

export type Downloads = ReturnType<typeof createDownloads>

let page: Downloads | null = null

/** The page's downloads: localStorage, the browser's Cache Storage, the signed-in member. */
export function pageDownloads(): Downloads {
  page ??= createDownloads({
    storage: localStorage,
    caches: typeof caches === 'undefined' ? null : caches,
    fetch: (url) => fetch(url),
    origin: location.origin,
    owner: () => authStore.get().user?.id ?? null,
    online: () => navigator.onLine,
  })
  return page
}

const SERVER_SNAPSHOT: DownloadsSnapshot = { supported: false, used: 0, limit: DEFAULT_LIMIT, collections: [], progress: {} }

export function useDownloads(): DownloadsSnapshot {
  return useSyncExternalStore(
    (l) => pageDownloads().subscribe(l),
    () => pageDownloads().get(),
    () => SERVER_SNAPSHOT,
  )
}

/** The files a collection needs offline: each playable track's media and its cover, when served from /media. */
export function filesOf(tracks: ReadonlyArray<{ url: string; cover?: string; unavailable?: string }>): string[] {
  const isMedia = (u: string | undefined): u is string => !!u && u.startsWith('/media/')
  return tracks.filter((t) => !t.unavailable && isMedia(t.url)).flatMap((t) => [t.url, ...(isMedia(t.cover) ? [t.cover] : [])])
}

/** The tracks of a stored collection whose media file is on this device, in the collection's order. */
export function storedTracks(collection: StoredCollection, origin: string): Track[] {
  const files = new Set(collection.files)
  return (collection.tracks ?? []).filter((t) => files.has(downloadKey(t.url, origin)))
}

/** "12.3 MB", "1.5 GB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${(bytes / (1024 * MB)).toFixed(1).replace(/\.0$/, '')} GB`
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`
}
