// Reading what a remote folder URL answers: an HTML directory listing (nginx autoindex, Apache
// mod_autoindex, lighttpd, Caddy, Python http.server — all of them are links in HTML), a JSON
// directory listing (Caddy answers one to a client that accepts JSON, as ours does; nginx with
// `autoindex_format json`), an M3U/M3U8 or PLS playlist, or a JSON track list. Media files only,
// absolute URLs (relative links resolved against the listing URL). Directory listings, whatever
// their format, are sorted one way (inListingOrder: naturally by title); playlists keep their
// author's order. Titles come from the text given (link text, #EXTINF, TitleN,
// JSON title) unless it is empty or truncated with '..>', then from the file name in the URL,
// percent-decoded (a double-encoded %25 decoded too), without extension.
import { extensionOf, isMediaExtension, isMediaFileName, mimeFromName } from '~/shared/player/mime'
import { DEFAULT_ALBUM, type Track } from '~/shared/player/track'
import { LIBRARY_LIMITS } from '../library/search'
import { fileTitle, naturalCompare } from '../media/natural'

export type PlaylistFormat = 'html' | 'm3u' | 'pls' | 'json'

/** A playlist keeps at most this many tracks (as a library folder does)… */
export const MAX_REMOTE_TRACKS = LIBRARY_LIMITS.tracksPerFolderPlaylist
/** …and reading stops after this many links, lines or items, media or not. */
export const MAX_REMOTE_ENTRIES = 100_000

/** Decodes percent-escapes; when the text was double-encoded (%25xx), decodes the second layer too. */
export function decodeName(s: string): string {
  const once = (t: string) => {
    try {
      return decodeURIComponent(t)
    } catch {
      return t.replace(/%([0-9a-f]{2})/gi, (m, h) => {
        const c = parseInt(h, 16)
        return c < 0x80 ? String.fromCharCode(c) : m
      })
    }
  }
  const first = once(s)
  return /%25[0-9a-f]{2}/i.test(s) && /%[0-9a-f]{2}/i.test(first) ? once(first) : first
}

/** The file name of a URL, decoded, without extension. */
export function titleFromUrl(url: string): string {
  try {
    const path = new URL(url).pathname.replace(/\/+$/, '')
    return fileTitle(decodeName(path.slice(path.lastIndexOf('/') + 1))) || url
  } catch {
    return fileTitle(decodeName(url))
  }
}

/** The title rule: given text unless blank or truncated ('..>'), else the URL's file name. */
export function titleFor(text: string | undefined, url: string): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim()
  if (!t || t.endsWith('..>') || t.endsWith('..&gt;')) return titleFromUrl(url)
  if (isMediaFileName(t)) return fileTitle(t)
  // Python's http.server marks symlinks with a trailing '@' ('song.mp3@').
  if (t.endsWith('@') && isMediaFileName(t.slice(0, -1))) return fileTitle(t.slice(0, -1))
  return t
}

// A Map, so '&constructor;' in a listing is left as text instead of finding Object's prototype.
const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
])
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m
    }
    return ENTITIES.get(e.toLowerCase()) ?? m
  })
}

/** An absolute http(s) URL without fragment, or null. */
function absolute(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
    u.hash = ''
    return u.href
  } catch {
    return null
  }
}

const urlPath = (url: string) => {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

/** Playlists may list streams without an extension; anything else must be a media file. */
function playlistEntryOk(url: string, mime?: string): boolean {
  const ext = extensionOf(urlPath(url))
  if (mime && /^(audio|video)\//i.test(mime)) return true
  return ext === '' || isMediaExtension(ext)
}

const track = (url: string, title: string, extra: Partial<Track> = {}): Track => ({
  url,
  title,
  mime: mimeFromName(urlPath(url)),
  artist: '',
  album: DEFAULT_ALBUM,
  duration: 0,
  ...extra,
})

export function detectFormat(body: string, url: string, contentType: string): PlaylistFormat {
  const ct = contentType.toLowerCase()
  const ext = extensionOf(urlPath(url))
  const head = body.trimStart().slice(0, 64)
  if (/^#EXTM3U/i.test(head) || ct.includes('mpegurl') || ext === 'm3u' || ext === 'm3u8') return 'm3u'
  if (/^\[playlist\]/i.test(head) || ct.includes('scpls') || ext === 'pls') return 'pls'
  if (ct.includes('json') || ((head.startsWith('[') || head.startsWith('{')) && !ct.includes('html'))) return 'json'
  // A plain-text list of URLs reads like an M3U without tags.
  if (ct.startsWith('text/plain') && !/<a\s/i.test(body.slice(0, 4096))) return 'm3u'
  return 'html'
}

// Hostile listings must cost no more than linear time (a 5 MB answer is allowed). One regular
// expression over the whole page (`<a …>(.*?)</a>`) is quadratic on a page of unclosed anchors:
// 450 kB of them took 47 s. So: anchors are found moving forward only, and a link's text is
// read only between its tag and the next anchor (at most 4 kB), so the texts never overlap.
const ANCHOR_OPEN = /<a\s/gi
const ANCHOR_CLOSE = /<\/a\s*>/i
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i
const MAX_LINK_TEXT = 4096

/** Text without its tags, in one pass (an unclosed '<' drops the rest). */
function stripTags(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; ) {
    const lt = s.indexOf('<', i)
    if (lt < 0) return out + s.slice(i)
    out += s.slice(i, lt)
    const gt = s.indexOf('>', lt)
    if (gt < 0) break
    i = gt + 1
  }
  return out
}

/** The one order of every directory listing: natural by title ('2' before '10'), then by URL. */
function inListingOrder(tracks: Track[]): Track[] {
  return tracks.sort((a, b) => naturalCompare(a.title, b.title) || naturalCompare(a.url, b.url))
}

// A folder's own picture (cover/folder/front .jpg/.png, in that order of preference) is the art of
// the listing's tracks, as players of local folders show it (the pages' CSP admits http(s) images).
const FOLDER_IMAGE = /\/(cover|folder|front)\.(jpe?g|png)$/i
const FOLDER_IMAGE_RANK = ['cover', 'folder', 'front']
const folderImageRank = (url: string) => FOLDER_IMAGE_RANK.indexOf(FOLDER_IMAGE.exec(urlPath(url))?.[1]?.toLowerCase() ?? '')

/** A directory listing's media files, and the folders directly inside it (to read in turn). */
export type Listing = { tracks: Track[]; subfolders: string[] }

/** A link to a folder directly inside the listed one: not its parent, not a sort link, not another site. */
function childFolder(url: string, base: string): string | null {
  const u = new URL(url)
  const b = new URL(base)
  if (u.origin !== b.origin || u.search || !u.pathname.endsWith('/')) return null
  const dir = b.pathname.slice(0, b.pathname.lastIndexOf('/') + 1)
  if (!u.pathname.startsWith(dir)) return null
  const rest = u.pathname.slice(dir.length, -1)
  return rest && !rest.includes('/') ? u.href : null
}

export function parseHtmlListing(html: string, base: string): Track[] {
  return readHtmlListing(html, base).tracks
}

function readHtmlListing(html: string, base: string): Listing {
  const seen = new Set<string>()
  const out: Track[] = []
  const subfolders = new Set<string>()
  const folderImages: string[] = []
  const opens = new RegExp(ANCHOR_OPEN)
  let open = opens.exec(html)
  for (let n = 0; open && n < MAX_REMOTE_ENTRIES && out.length < MAX_REMOTE_TRACKS; n++) {
    const tagEnd = html.indexOf('>', open.index)
    if (tagEnd < 0) break
    opens.lastIndex = tagEnd + 1
    const next = opens.exec(html)
    const m = HREF.exec(html.slice(open.index, tagEnd + 1))
    open = next
    const href = decodeEntities(m?.[1] ?? m?.[2] ?? m?.[3] ?? '')
    if (!href || href.startsWith('?') || href.startsWith('#')) continue
    const url = absolute(href, base)
    if (url && FOLDER_IMAGE.test(urlPath(url))) folderImages.push(url)
    const folder = url && childFolder(url, base)
    if (folder) subfolders.add(folder)
    if (!url || seen.has(url) || !isMediaFileName(urlPath(url))) continue
    seen.add(url)
    const region = html.slice(tagEnd + 1, Math.min(next ? next.index : html.length, tagEnd + 1 + MAX_LINK_TEXT))
    const close = ANCHOR_CLOSE.exec(region)
    const text = close ? decodeEntities(stripTags(region.slice(0, close.index))) : ''
    out.push(track(url, titleFor(text, url)))
  }
  const cover = folderImages.sort((a, b) => folderImageRank(a) - folderImageRank(b))[0]
  if (cover) for (const t of out) t.cover = cover
  return { tracks: inListingOrder(out), subfolders: [...subfolders] }
}

export function parseM3u(body: string, base: string): Track[] {
  const out: Track[] = []
  let pending: { title?: string; duration?: number } = {}
  const lines = body.split(/\r\n|\r|\n/, 2 * MAX_REMOTE_ENTRIES)
  for (let n = 0; n < lines.length && out.length < MAX_REMOTE_TRACKS; n++) {
    const line = lines[n].replace(/^\uFEFF/, '').trim()
    if (!line) continue
    if (line.startsWith('#')) {
      // '#EXTINF:<seconds> <attributes>,<title>' read with indexOf (a backtracking pattern here
      // is quadratic on a long line without a comma).
      const colon = line.indexOf(':')
      const comma = line.indexOf(',')
      if (/^#EXTINF\s*:/i.test(line) && comma > colon) {
        const seconds = Number(/^\s*(-?[\d.]+)/.exec(line.slice(colon + 1, comma))?.[1])
        pending = { duration: seconds > 0 ? seconds : undefined, title: line.slice(comma + 1) }
      }
      continue
    }
    const url = absolute(line, base)
    if (url && playlistEntryOk(url)) out.push(track(url, titleFor(pending.title, url), pending.duration ? { duration: pending.duration } : {}))
    pending = {}
  }
  return out
}

export function parsePls(body: string, base: string): Track[] {
  const entries = new Map<number, { file?: string; title?: string; length?: number }>()
  for (const rawLine of body.split(/\r\n|\r|\n/, 3 * MAX_REMOTE_ENTRIES)) {
    const m = /^\s*(File|Title|Length)(\d+)\s*=(.*)$/i.exec(rawLine)
    if (!m) continue
    const n = Number(m[2])
    const e = entries.get(n) ?? {}
    const key = m[1].toLowerCase()
    if (key === 'file') e.file = m[3].trim()
    else if (key === 'title') e.title = m[3].trim()
    else e.length = Number(m[3])
    entries.set(n, e)
  }
  const out: Track[] = []
  for (const [, e] of [...entries].sort((a, b) => a[0] - b[0])) {
    if (out.length >= MAX_REMOTE_TRACKS) break
    const url = e.file ? absolute(e.file, base) : null
    if (url && playlistEntryOk(url)) out.push(track(url, titleFor(e.title, url), e.length && e.length > 0 ? { duration: e.length } : {}))
  }
  return out
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)
const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
  return Number.isFinite(n) && n > 0 ? n : undefined
}

export function parseJsonTracks(body: string, base: string): Track[] {
  let data: unknown
  try {
    data = JSON.parse(body)
  } catch {
    return []
  }
  // A bare array, or an object holding one (our own REST envelope's `data` included).
  for (let i = 0; i < 3 && data && !Array.isArray(data) && typeof data === 'object'; i++) {
    const o = data as Record<string, unknown>
    data = o.tracks ?? o.data ?? o.items ?? o.playlist ?? o.files ?? o.results
  }
  if (!Array.isArray(data)) return []
  if (isJsonDirectoryListing(data)) return readJsonListing(data, base).tracks
  const out: Track[] = []
  for (const item of data.slice(0, MAX_REMOTE_ENTRIES)) {
    if (out.length >= MAX_REMOTE_TRACKS) break
    const o: Record<string, unknown> = typeof item === 'string' ? { url: item } : item && typeof item === 'object' ? (item as Record<string, unknown>) : {}
    const href = str(o.url) ?? str(o.src) ?? str(o.href) ?? str(o.file) ?? str(o.path) ?? str(o.link)
    const url = href ? absolute(href, base) : null
    const givenMime = str(o.mime) ?? str(o.mimeType) ?? str(o.type)
    if (!url || !playlistEntryOk(url, givenMime)) continue
    const extra: Partial<Track> = {}
    if (givenMime && /^(audio|video)\//i.test(givenMime)) extra.mime = givenMime.toLowerCase()
    if (str(o.artist)) extra.artist = str(o.artist)
    if (str(o.album)) extra.album = str(o.album)
    if (str(o.genre)) extra.genre = str(o.genre)
    const year = num(o.year)
    if (year && year < 10_000) extra.year = Math.floor(year)
    const duration = num(o.duration) ?? num(o.length)
    if (duration) extra.duration = duration
    const cover = str(o.cover) ?? str(o.image) ?? str(o.artwork)
    const coverUrl = cover ? absolute(cover, base) : null
    if (coverUrl) extra.cover = coverUrl
    out.push(track(url, titleFor(str(o.title) ?? str(o.name), url), extra))
  }
  return out
}

type ListingEntry = { name: string; url?: unknown; is_dir?: unknown; type?: unknown }

/** Caddy's entries carry `name` and a boolean `is_dir`; nginx's `name` and `type` file/directory/other. */
const isListingEntry = (item: unknown): item is ListingEntry => {
  if (!item || typeof item !== 'object') return false
  const o = item as Record<string, unknown>
  return typeof o.name === 'string' && (typeof o.is_dir === 'boolean' || o.type === 'file' || o.type === 'directory' || o.type === 'other')
}

function isJsonDirectoryListing(items: unknown[]): items is ListingEntry[] {
  return items.length > 0 && items.length <= MAX_REMOTE_ENTRIES && items.every(isListingEntry)
}

/** A JSON directory listing: media files in listing order, and the sub-directories. */
function readJsonListing(entries: ListingEntry[], base: string): Listing {
  const out: Track[] = []
  const subfolders: string[] = []
  for (const e of entries) {
    if (out.length >= MAX_REMOTE_TRACKS) break
    if (e.is_dir === true || e.type === 'directory') {
      const href = str(e.url) ?? encodeURIComponent(e.name)
      const url = absolute(href.endsWith('/') ? href : `${href}/`, base)
      const folder = url && childFolder(url, base)
      if (folder) subfolders.push(folder)
      continue
    }
    // Caddy gives a relative URL; nginx only the plain name.
    const url = absolute(str(e.url) ?? encodeURIComponent(e.name), base)
    if (!url || !isMediaFileName(urlPath(url))) continue
    out.push(track(url, titleFor(e.name, url)))
  }
  return { tracks: inListingOrder(out), subfolders }
}

/**
 * Reads a remote answer: a directory listing (HTML, or JSON entries) gives its files and
 * sub-folders; a playlist gives its entries, in its author's order, and is a playlist.
 */
export function parseRemote(body: string, url: string, contentType: string): Listing & { playlist: boolean } {
  const format = detectFormat(body, url, contentType)
  if (format === 'html') return { ...readHtmlListing(body, url), playlist: false }
  if (format === 'json') {
    const entries = jsonDirectoryEntries(body)
    if (entries) return { ...readJsonListing(entries, url), playlist: false }
  }
  return { tracks: parsePlaylist(body, url, contentType), subfolders: [], playlist: true }
}

/** The entries of a JSON directory listing (nginx's or Caddy's), or null for anything else. */
function jsonDirectoryEntries(body: string): ListingEntry[] | null {
  try {
    const data: unknown = JSON.parse(body)
    return Array.isArray(data) && isJsonDirectoryListing(data) ? data : null
  } catch {
    return null
  }
}

/** Reads a remote answer as a track list. */
export function parsePlaylist(body: string, url: string, contentType: string): Track[] {
  switch (detectFormat(body, url, contentType)) {
    case 'm3u':
      return parseM3u(body, url)
    case 'pls':
      return parsePls(body, url)
    case 'json':
      return parseJsonTracks(body, url)
    default:
      return parseHtmlListing(body, url)
  }
}
