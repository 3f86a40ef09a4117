// A folder picked from the device: media files by extension, natural order,
// titles and artists from file names at once, then real tags read in the background and merged
// in batches. A folder's own picture (cover/folder/front .jpg/.png beside the files) is the art
// of its tracks until a track's embedded picture is read. Tracks carry local:{path} URLs (see track-identity.ts); object URLs for media and
// covers are revoked when the playlist is replaced (not when a page unmounts: the player plays on).
import { useSyncExternalStore } from 'react'
import { inferArtist, inferYear, parseFileName } from '~/shared/player/file-name'
import { isMediaFileName, mimeFromName } from '~/shared/player/mime'
import { makeTrack, type Track } from '~/shared/player/track'
import { readTags, type FileTags } from './read-tags'
import { localTrackUrl, registerLocalFile, releaseLocalFiles } from './track-identity'

export const NO_MEDIA_MESSAGE = 'No media files (audio/video) found in the selected folder'

export type PickedFile = { file: File; path: string }

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

const FOLDER_IMAGE = /^(cover|folder|front)\.(jpe?g|png)$/i
const FOLDER_IMAGE_RANK = ['cover', 'folder', 'front']
export const isFolderImageName = (name: string) => FOLDER_IMAGE.test(name)
const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1)

/** Each picked folder's picture (cover before folder before front), typed by its extension. */
export function folderImagesOf(picked: PickedFile[]): Map<string, Blob> {
  const best = new Map<string, { file: File; rank: number }>()
  for (const { file, path } of picked) {
    const m = FOLDER_IMAGE.exec(file.name)
    if (!m) continue
    const rank = FOLDER_IMAGE_RANK.indexOf(m[1].toLowerCase())
    const had = best.get(dirOf(path))
    if (!had || rank < had.rank) best.set(dirOf(path), { file, rank })
  }
  // The blob's type comes from the name's extension, never the file's own type (read-tags.ts).
  return new Map([...best].map(([dir, { file }]) => [dir, file.slice(0, file.size, /png$/i.test(file.name) ? 'image/png' : 'image/jpeg')]))
}

/** Media files of a picked folder in natural order, as tracks named from their file names. */
export function tracksFromFiles(
  picked: PickedFile[],
  register: (url: string, file: File) => void = registerLocalFile,
): { tracks: Track[]; files: File[]; paths: string[] } {
  const media = picked.filter((p) => isMediaFileName(p.file.name)).sort((a, b) => collator.compare(a.path, b.path))
  const seen = new Set<string>()
  const tracks = media.map(({ file, path }) => {
    let url = localTrackUrl(path)
    for (let n = 2; seen.has(url); n++) url = localTrackUrl(`${path}#${n}`)
    seen.add(url)
    register(url, file)
    const parsed = parseFileName(file.name)
    const inferred = parsed.artist ? null : inferArtist(parsed.title)
    return makeTrack({
      url,
      title: inferred?.title ?? parsed.title,
      artist: inferred?.artist ?? parsed.artist,
      mime: mimeFromName(file.name),
      year: inferYear(parsed.title),
    })
  })
  return { tracks, files: media.map((m) => m.file), paths: media.map((m) => m.path) }
}

/** The folder's name from the first file's relative path (webkitdirectory gives "Folder/x.mp3"). */
export function folderLabelOf(picked: PickedFile[]): string {
  const first = picked[0]?.path ?? ''
  return first.includes('/') ? first.split('/')[0] : 'Local Files'
}

type LibraryState = { tracks: Track[]; label: string; error: string | null; version: number }

const TAG_CONCURRENCY = 2
const TAG_BATCH_MS = 400
const FIRST_TAGS_WAIT_MS = 400

/** A track with what its tags say (cover art becomes an object URL, revoked with the list). */
function withTags(t: Track, tags: FileTags, urls: string[]): Track {
  const cover = tags.cover ? URL.createObjectURL(tags.cover) : undefined
  if (cover) urls.push(cover)
  return makeTrack({
    ...t,
    title: tags.title ?? t.title,
    artist: tags.artist ?? t.artist,
    album: tags.album ?? t.album,
    genre: tags.genre ?? t.genre,
    year: tags.year ?? t.year,
    duration: tags.duration ?? t.duration,
    cover: cover ?? t.cover,
  })
}

/**
 * The picked folder as a store that lives for the whole page (the player above the routes keeps
 * playing it while the home screen is gone); object URLs are revoked when the folder is replaced.
 */
function createLocalLibrary() {
  let state: LibraryState = { tracks: [], label: '', error: null, version: 0 }
  const listeners = new Set<() => void>()
  let urls: string[] = []
  let generation = 0

  const setState = (update: (s: LibraryState) => LibraryState) => {
    state = update(state)
    for (const l of listeners) l()
  }

  // Cover-art object URLs of the current folder (media object URLs live in track-identity).
  const revokeAll = () => {
    for (const url of urls) URL.revokeObjectURL(url)
    urls = []
    releaseLocalFiles()
  }

  async function load(picked: PickedFile[], label = folderLabelOf(picked)): Promise<boolean> {
    performance.mark('vibes:files-picked')
    const found: Array<[string, File]> = []
    const { tracks, files, paths } = tracksFromFiles(picked, (url, file) => found.push([url, file]))
    if (tracks.length === 0) {
      setState((s) => ({ ...s, error: NO_MEDIA_MESSAGE }))
      return false
    }
    const gen = ++generation
    // The first track starts at once: give its tags a moment so its play event carries them.
    const firstRead = readTags(files[0]).catch(() => null)
    const first = await Promise.race([firstRead, new Promise<'late'>((r) => setTimeout(() => r('late'), FIRST_TAGS_WAIT_MS))])
    if (gen !== generation) return false
    // Only now is the old folder let go: until the new list is handed over (in the same task as
    // this promise settles) the player plays on in the old one — its current element, the spare
    // preloading what follows, a track's end — and each needs the old files' object URLs.
    revokeAll()
    for (const [url, file] of found) registerLocalFile(url, file)
    const folderCovers = new Map<string, string>()
    for (const [dir, image] of folderImagesOf(picked)) {
      const url = URL.createObjectURL(image)
      urls.push(url)
      folderCovers.set(dir, url)
    }
    for (const [i, p] of paths.entries()) {
      const cover = folderCovers.get(dirOf(p))
      if (cover) tracks[i] = { ...tracks[i], cover }
    }
    if (first && first !== 'late') tracks[0] = withTags(tracks[0], first, urls)
    setState((s) => ({ tracks, label, error: null, version: s.version + 1 }))
    void enrich(gen, tracks, files, first === 'late' ? firstRead : null)
    return true
  }

  // Reads tags a few files at a time and publishes merged tracks in batches.
  async function enrich(gen: number, initial: Track[], files: File[], lateFirst: Promise<FileTags | null> | null) {
    const current = [...initial]
    let dirty = false
    // The first file was read already (or is still being read: merge it when it lands).
    let next = 1
    const flush = () => {
      if (!dirty || gen !== generation) return
      dirty = false
      setState((s) => ({ ...s, tracks: [...current] }))
    }
    const timer = setInterval(flush, TAG_BATCH_MS)
    const worker = async () => {
      while (next < files.length && gen === generation) {
        const i = next++
        try {
          const tags = await readTags(files[i])
          if (gen !== generation) return
          current[i] = withTags(current[i], tags, urls)
          dirty = true
        } catch {
          // Unreadable tags: the file-name guess stays.
        }
      }
    }
    const first = lateFirst?.then((tags) => {
      if (!tags || gen !== generation) return
      current[0] = withTags(current[0], tags, urls)
      dirty = true
    })
    await Promise.all([first, ...Array.from({ length: TAG_CONCURRENCY }, worker)])
    clearInterval(timer)
    flush()
  }

  function clear() {
    generation++
    revokeAll()
    setState((s) => ({ tracks: [], label: '', error: null, version: s.version + 1 }))
  }

  const setError = (error: string | null) => setState((s) => ({ ...s, error }))

  return {
    get: () => state,
    subscribe(l: () => void) {
      listeners.add(l)
      return () => void listeners.delete(l)
    },
    load,
    clear,
    setError,
  }
}

export const localLibrary = createLocalLibrary()
const EMPTY_LIBRARY: LibraryState = { tracks: [], label: '', error: null, version: 0 }

export function useLocalLibrary() {
  const state = useSyncExternalStore(localLibrary.subscribe, localLibrary.get, () => EMPTY_LIBRARY)
  return { ...state, load: localLibrary.load, clear: localLibrary.clear, setError: localLibrary.setError }
}

// ---- getting files from the three pickers ---------------------------------------------------

/** Files from <input webkitdirectory>. */
export function filesFromInput(list: FileList | null): PickedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, path: file.webkitRelativePath || file.name }))
}

type Entry = FileSystemEntry
const MAX_FILES = 50_000

/** Files from a drop: folders are walked recursively. */
export async function filesFromDrop(dt: DataTransfer): Promise<{ files: PickedFile[]; label?: string }> {
  const entries = Array.from(dt.items)
    .map((i) => i.webkitGetAsEntry?.())
    .filter((e): e is Entry => !!e)
  if (entries.length === 0) return { files: Array.from(dt.files).map((file) => ({ file, path: file.name })) }
  const out: PickedFile[] = []
  for (const entry of entries) await walkEntry(entry, out)
  const dir = entries.length === 1 && entries[0].isDirectory ? entries[0].name : undefined
  return { files: out, label: dir }
}

async function walkEntry(entry: Entry, out: PickedFile[]): Promise<void> {
  if (out.length >= MAX_FILES) return
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
    out.push({ file, path: entry.fullPath.replace(/^\//, '') })
    return
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  for (;;) {
    // readEntries answers in chunks (100 in Chromium) until it returns an empty list.
    const chunk = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (chunk.length === 0) break
    for (const child of chunk) await walkEntry(child, out)
  }
}

type DirHandle = { name: string; kind: 'directory'; values: () => AsyncIterable<DirHandle | FileHandle> }
type FileHandle = { name: string; kind: 'file'; getFile: () => Promise<File> }

export const hasDirectoryPicker = () => typeof window !== 'undefined' && 'showDirectoryPicker' in window

/** Files through the File System Access API (Chromium), where the browser has it. */
export async function filesFromDirectoryPicker(): Promise<{ files: PickedFile[]; label: string } | null> {
  const picker = (window as unknown as { showDirectoryPicker: (o?: object) => Promise<DirHandle> }).showDirectoryPicker
  let root: DirHandle
  try {
    root = await picker({ mode: 'read' })
  } catch {
    return null // cancelled
  }
  const out: PickedFile[] = []
  const walk = async (dir: DirHandle, prefix: string) => {
    for await (const handle of dir.values()) {
      if (out.length >= MAX_FILES) return
      if (handle.kind === 'file') {
        if (isMediaFileName(handle.name) || isFolderImageName(handle.name)) out.push({ file: await handle.getFile(), path: `${prefix}${handle.name}` })
      } else await walk(handle, `${prefix}${handle.name}/`)
    }
  }
  await walk(root, `${root.name}/`)
  return { files: out, label: root.name }
}
