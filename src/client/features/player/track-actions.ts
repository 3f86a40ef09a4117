// Like and share for the current track: the player bar's buttons, on every page. A like is
// recorded on the play and as an interaction; so is a share that went through.
import { toast } from '~/client/ui/toaster'
import { displayTitle } from '~/shared/player/track'
import { currentTrack } from './engine'
import { pageTracker } from './listening-tracker'
import { player, usePlayer } from './player-store'
import { trackIdOf } from './track-identity'
import { useLikes } from './use-likes'

export function useTrackActions() {
  const { engine } = usePlayer()
  const likes = useLikes()
  const current = currentTrack(engine)
  const liked = current ? likes.isLiked(displayTitle(current)) : false

  function toggleLike() {
    if (!current) return
    const nowLiked = likes.toggle(displayTitle(current), current.url)
    player().markPlay({ liked: nowLiked })
    if (nowLiked) pageTracker().recordInteraction(trackIdOf(current.url), 'like')
  }

  async function share() {
    if (!current) return
    const title = displayTitle(current)
    const text = `Listening to "${title}"${current.artist ? ` by ${current.artist}` : ''} on Vibes`
    const url = /^https?:/.test(current.url) ? current.url : window.location.origin
    try {
      if (typeof navigator.share === 'function') await navigator.share({ title, text, url })
      else {
        await navigator.clipboard.writeText(`${text} ${url}`)
        toast({ title: 'Copied to clipboard', description: 'Share it anywhere you like.', type: 'success' })
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') return // the share sheet was dismissed
      toast({ title: 'Share failed', description: 'Could not share or copy this track.', type: 'error' })
      return
    }
    player().markPlay({ shared: true })
    pageTracker().recordInteraction(trackIdOf(current.url), 'share')
  }

  return { liked, toggleLike, share }
}
