// The member's bookmark of the current track (shared/player/bookmark.ts says when each is
// offered): the player bar's "Resume from m:ss" when a bookmarked library track plays before its
// bookmark, and "Bookmark position" on long library tracks. The bookmark is the one an
// OpenSubsonic app sees (getBookmarks), kept per library song; the web finds it by the track's URL.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { toast } from '~/client/ui/toaster'
import { canBookmark, isLibraryUrl, resumeFrom } from '~/shared/player/bookmark'
import { formatTime } from '~/shared/player/track'
import { currentTrack } from './engine'
import { player, usePlayer } from './player-store'
import { trackIdOf } from './track-identity'

export function useTrackBookmark() {
  const { engine, currentTime, duration } = usePlayer()
  const auth = useAuth()
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const track = currentTrack(engine)
  const member = auth.ready && auth.isAuthenticated
  const url = member && track && isLibraryUrl(track.url) ? track.url : null
  const options = trpc.library.bookmarks.get.queryOptions({ url: url ?? '/media/' }, { enabled: url !== null, staleTime: 60_000, retry: false })
  const bookmark = useQuery(options).data?.bookmark ?? null
  // The track (by its unsigned URL) whose offer the listener took or dismissed.
  const [settled, setSettled] = useState<string | null>(null)
  const id = track ? trackIdOf(track.url) : null
  const save = useMutation(trpc.library.bookmarks.save.mutationOptions())

  const offer = url ? resumeFrom(bookmark?.positionMs, currentTime, settled === id) : null
  const length = duration > 0 ? duration : (track?.duration ?? 0)

  return {
    /** Seconds to offer resuming from, or null. */
    resumeAt: offer,
    resume() {
      if (offer === null) return
      player().seekTo(offer)
      setSettled(id)
    },
    dismiss: () => setSettled(id),
    canSave: url !== null && canBookmark(url, length),
    save() {
      if (url === null) return
      const positionMs = Math.round(currentTime * 1000)
      save.mutate(
        { url, positionMs },
        {
          onSuccess: (answer) => {
            queryClient.setQueryData(options.queryKey, answer)
            setSettled(id)
            toast({ title: `Bookmarked at ${formatTime(positionMs / 1000)}`, type: 'success' })
          },
          onError: (error) => toast({ title: 'Could not save the bookmark', description: errorMessage(error, 'Please try again.'), type: 'error' }),
        },
      )
    },
  }
}
