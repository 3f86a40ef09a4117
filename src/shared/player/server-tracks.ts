// Track lists from the server (a remote listing) made ready for the player.
import { inferArtist, inferYear } from './file-name'
import { makeTrack, normalizeTrackUrl, type Track } from './track'

/**
 * Server items to tracks: defaults filled, URLs made absolute, items without a URL dropped; a
 * title like 'Artist - Title' (or 'a: b') without an artist gives the artist, and a 19xx/20xx in
 * it the year.
 */
export function toTracks(items: readonly Partial<Track>[], base: string): { tracks: Track[]; dropped: number } {
  const tracks: Track[] = []
  let dropped = 0
  for (const item of items) {
    if (!item || typeof item.url !== 'string' || !item.url.trim()) {
      dropped++
      continue
    }
    const title = typeof item.title === 'string' ? item.title.trim() : ''
    const inferred = !item.artist?.trim() && title ? inferArtist(title) : null
    const year = item.year ?? (title ? inferYear(title) : undefined)
    tracks.push(makeTrack({ ...item, ...(inferred ?? {}), year, url: normalizeTrackUrl(item.url, base) }))
  }
  return { tracks, dropped }
}
