// Library tracks into the app's one player, through its public events only: "Play" replaces the
// list and starts, "Add to queue" appends. The player keeps plain Tracks (its saved queue is
// strict about fields), so the library's ids are dropped here.
import { player } from '~/client/features/player/player-store'
import type { LibraryTrack } from '~/shared/library'
import { makeTrack, type Track } from '~/shared/player/track'

const toTrack = (t: LibraryTrack): Track => makeTrack(t)

/** Replaces the player's list with `tracks` (labelled `label`) and plays from `start`. */
export function playTracks(tracks: readonly LibraryTrack[], label: string, start = 0) {
  if (tracks.length === 0) return
  const send = player().send
  // A library list plays like a member's folder (signed /media/ URLs); it has no folder id.
  send({ type: 'replace', tracks: tracks.map(toTrack), context: { source: 'folder', label }, autoPlay: true })
  if (start > 0) send({ type: 'select', index: start })
}

/** Appends `tracks` to the queue (an empty player takes them as its list). */
export function queueTracks(tracks: readonly LibraryTrack[]) {
  if (tracks.length > 0) player().send({ type: 'append', tracks: tracks.map(toTrack) })
}
