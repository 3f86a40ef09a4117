// When the player offers a member's bookmark: "Resume from m:ss" while a bookmarked library track
// plays before the bookmark (not once the listener is there or past it, nor after they dismissed
// it), and "Bookmark position" on long tracks (audiobooks, mixes, talks), where finding the place
// again by seeking is hard. Library tracks only: bookmarks are kept per library song.

/** A track this long or longer offers "Bookmark position". */
export const LONG_TRACK_SEC = 10 * 60
/** Within this many seconds of the bookmark, there is nothing to resume. */
export const RESUME_MARGIN_SEC = 5

/** A track the server's library serves (a /media/ URL, signed or bare). */
export const isLibraryUrl = (url: string) => url.startsWith('/media/')

export const canBookmark = (url: string, durationSec: number) => isLibraryUrl(url) && durationSec >= LONG_TRACK_SEC

/** The position (s) to offer resuming from, or null when there is none to offer. */
export function resumeFrom(bookmarkMs: number | null | undefined, currentSec: number, dismissed: boolean): number | null {
  if (dismissed || bookmarkMs == null) return null
  const at = bookmarkMs / 1000
  return at - currentSec > RESUME_MARGIN_SEC ? at : null
}
