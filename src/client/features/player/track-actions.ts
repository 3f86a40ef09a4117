// Like and share for the current track: the player bar's buttons, on every page. A like is
// recorded on the play and as an interaction; so is a share that went through. Sharing uses the
// device's share sheet, else copies the text and link to the clipboard; a member's library track
// is shared as a share link (/s/<id>) that plays without an account.
import { useQueryClient } from '@tanstack/react-query'
import { useAuth } from '~/client/features/auth/auth-store'
import { useTRPC, useTRPCClient } from '~/client/trpc'
import { toast } from '~/client/ui/toaster'
import { displayTitle, type Track } from '~/shared/player/track'
import { currentTrack } from './engine'
import { pageTracker } from './listening-tracker'
import { player, usePlayer } from './player-store'
import { trackIdOf } from './track-identity'
import { useLikes } from './use-likes'

export function useTrackActions() {
  const { engine } = usePlayer()
  const auth = useAuth()
  const trpc = useTRPC()
  const client = useTRPCClient()
  const queryClient = useQueryClient()
  const likes = useLikes()
  const current = currentTrack(engine)
  const liked = current ? likes.isLiked(displayTitle(current)) : false

  function toggleLike() {
    if (!current) return
    const nowLiked = likes.toggle(displayTitle(current), current.url)
    player().markPlay({ liked: nowLiked })
    if (nowLiked) pageTracker().recordInteraction(trackIdOf(current.url), 'like')
  }

  /**
   * What the share offers: a member's library track gets a share link (7 days) anyone can play;
   * a remote track its own URL; anything else (a local file) the app's address.
   */
  async function linkFor(track: Track): Promise<string> {
    const plain = /^https?:/.test(track.url) ? track.url : window.location.origin
    if (!auth.isAuthenticated || !track.url.startsWith('/media/')) return plain
    try {
      const share = await client.shares.create.mutate({ target: { kind: 'trackUrl', url: track.url } })
      void queryClient.invalidateQueries({ queryKey: trpc.shares.list.queryKey() })
      return `${window.location.origin}${share.path}`
    } catch {
      // A file not indexed yet, or the member's limit of links: the share still goes out, as the app's address.
      return plain
    }
  }

  async function share() {
    if (!current) return
    const title = displayTitle(current)
    const text = `Listening to "${title}"${current.artist ? ` by ${current.artist}` : ''} on Vibes`
    try {
      const url = await linkFor(current)
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
