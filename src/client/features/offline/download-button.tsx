// An album's or playlist's "Download for offline" (album and playlist pages, beside Play): stores
// its tracks on this device within the member's limit, shows the progress, and once stored offers
// "Remove download". Members only, and only where the browser can store files (https or localhost).
import { useState } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { downloadKey } from '~/client/pwa/sw-rules'
import { makeTrack, type Track } from '~/shared/player/track'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { toast } from '~/client/ui/toaster'
import { collectionKey, type DownloadTarget, filesOf, formatBytes, pageDownloads, useDownloads } from './downloads'

type Props = { target: DownloadTarget; tracks: readonly Track[]; className?: string }

export function DownloadButton({ target, tracks, className }: Props) {
  const auth = useAuth()
  const downloads = useDownloads()
  const [removing, setRemoving] = useState(false)
  const files = filesOf(tracks)
  if (!auth.isAuthenticated || !downloads.supported || files.length === 0) return null
  const key = collectionKey(target)
  const running = downloads.progress[key]
  const stored = downloads.collections.find((c) => collectionKey(c) === key)

  if (running)
    return (
      <Button size="lg" variant="outline" className={className} disabled aria-live="polite">
        <Icon name="download" size={18} /> Downloading {running.done} of {running.total}…
      </Button>
    )

  if (stored && stored.files.length >= new Set(files.map((f) => downloadKey(f, location.origin))).size)
    return (
      <Button
        size="lg"
        variant="outline"
        className={className}
        disabled={removing}
        // The name starts with what the button shows, as speech input expects.
        aria-label={`Downloaded · Remove download of ${target.name}`}
        onClick={async () => {
          setRemoving(true)
          try {
            await pageDownloads().remove(target)
            toast({ title: 'Download removed', description: target.name, type: 'success' })
          } finally {
            setRemoving(false)
          }
        }}
      >
        <Icon name="check" size={18} /> Downloaded · Remove
      </Button>
    )

  return (
    <Button
      size="lg"
      variant="outline"
      className={className}
      onClick={async () => {
        try {
          // Plain Tracks, as the player keeps them: the downloads page plays them with no network.
          const playable = tracks.filter((t) => !t.unavailable).map(makeTrack)
          const result = await pageDownloads().download(target, files, playable)
          const { used, limit } = pageDownloads().get()
          if (result.full)
            toast({
              title: 'Download limit reached',
              description: `${result.stored} of ${result.total} files stored (${formatBytes(used)} of ${formatBytes(limit)}). Raise the limit in your profile or remove downloads.`,
              type: 'error',
            })
          else toast({ title: 'Downloaded for offline', description: `${target.name} · ${formatBytes(used)} of ${formatBytes(limit)} used`, type: 'success' })
        } catch (error) {
          toast({ title: 'Download failed', description: error instanceof Error ? error.message : 'Try again', type: 'error' })
        }
      }}
    >
      <Icon name="download" size={18} /> Download for offline
    </Button>
  )
}
