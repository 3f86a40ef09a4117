// Playlists kept in localStorage for members (cleared on logout with the other vibes:user: keys),
// so a reload keeps the remote or folder list; the player's media fallback patches them too.
import type { Track } from '~/shared/player/track'

const PREFIX = 'vibes:user:playlist:'

export type StoredPlaylist = { label: string; url?: string; tracks: Track[] }

export function saveStoredPlaylist(name: string, playlist: StoredPlaylist) {
  try {
    localStorage.setItem(PREFIX + name, JSON.stringify(playlist))
  } catch {}
}

export function loadStoredPlaylist(name: string): StoredPlaylist | null {
  try {
    const raw = localStorage.getItem(PREFIX + name)
    const parsed = raw ? (JSON.parse(raw) as StoredPlaylist) : null
    return parsed && Array.isArray(parsed.tracks) ? parsed : null
  } catch {
    return null
  }
}

export function clearStoredPlaylist(name: string) {
  try {
    localStorage.removeItem(PREFIX + name)
  } catch {}
}

/** Changes one track's mime in every stored list that holds it (after a media error the track falls back to audio/mpeg). */
export function patchStoredMime(url: string, mime: string) {
  try {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith(PREFIX)) continue
      const list = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredPlaylist | null
      if (!list?.tracks?.some((t) => t.url === url)) continue
      list.tracks = list.tracks.map((t) => (t.url === url ? { ...t, mime } : t))
      localStorage.setItem(key, JSON.stringify(list))
    }
  } catch {}
}
