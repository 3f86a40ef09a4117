// Library tracks into the app's one player, through its public events only: "Play" replaces the
// list and starts, "Play next" puts tracks right after the current one, "Add to queue" appends.
// The player keeps plain Tracks (its saved queue is strict about fields), so the library's ids
// are dropped here.
import { player } from '~/client/features/player/player-store'
import type { LibraryTrack } from '~/shared/library'
import { makeTrack, type Track } from '~/shared/player/track'

const toTrack = (t: Track): Track => makeTrack(t)

/** Replaces the player's list with `tracks` (labelled `label`) and plays from `start`. */
export function playTracks(tracks: readonly Track[], label: string, start = 0) {
  if (tracks.length === 0) return
  const send = player().send
  // A library list plays like a member's folder (signed /media/ URLs); it has no folder id.
  send({ type: 'replace', tracks: tracks.map(toTrack), context: { source: 'folder', label }, autoPlay: true })
  if (start > 0) send({ type: 'select', index: start })
}

/** Plays `tracks` in a random order (the player's shuffle, from a random first track). */
export function shuffleTracks(tracks: readonly LibraryTrack[], label: string) {
  if (tracks.length === 0) return
  playTracks(tracks, label, Math.floor(Math.random() * tracks.length))
  player().send({ type: 'toggleShuffle' })
}

/** Appends `tracks` to the queue (an empty player takes them as its list). */
export function queueTracks(tracks: readonly LibraryTrack[]) {
  if (tracks.length > 0) player().send({ type: 'append', tracks: tracks.map(toTrack) })
}

/** Puts `tracks` right after the current track, the rest of the queue kept after them. */
export function playNextTracks(tracks: readonly LibraryTrack[]) {
  if (tracks.length > 0) player().send({ type: 'playNext', tracks: tracks.map(toTrack) })
}

/** Plays `track` at once and keeps the queue: it goes in after the current track and becomes current. */
export function playNow(track: LibraryTrack, label: string) {
  const p = player()
  if (p.get().engine.tracks.length === 0) return playTracks([track], label)
  p.send({ type: 'playNext', tracks: [toTrack(track)] })
  p.send({ type: 'next' })
}
