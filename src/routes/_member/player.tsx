// /player?fid=<folder id>: a member's folder as a playlist. The
// folder comes from ?fid, else the last one that loaded (kept under a vibes:user: key, so logout
// clears it). The folder plays in the app's one player, which goes on when this page is left.
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { lazy, useEffect, useState } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { lastFolder, rememberFolder } from '~/client/features/folders/last-folder'
import { Player } from '~/client/features/player/player'
import { player } from '~/client/features/player/player-store'
import { trackIdOf } from '~/client/features/player/track-identity'
import { errorMessage } from '~/client/global-errors'
import { plural } from '~/shared/plural'
import { useTRPC } from '~/client/trpc'
import { Button, button } from '~/client/ui/button'
import { Spinner } from '~/client/ui/spinner'
import { css, cx } from 'styled-system/css'

export const Route = createFileRoute('/_member/player')({
  validateSearch: (search: Record<string, unknown>): { fid?: string } => (typeof search.fid === 'string' && search.fid ? { fid: search.fid } : {}),
  head: () => ({ meta: [{ title: 'Player · Vibes' }] }),
  component: PlayerPage,
})

// The full player's lyrics panel, loaded with the first track it shows (as on the home player).
const LyricsPanel = lazy(() => import('~/client/features/player/lyrics-panel'))

const backLink = cx(button({ variant: 'outline', size: 'sm' }))

function PlayerPage() {
  const { fid } = Route.useSearch()
  const auth = useAuth()
  const trpc = useTRPC()
  // undefined until the browser has read storage; null when there is no folder at all.
  const [folderId, setFolderId] = useState<string | null | undefined>(fid)
  useEffect(() => setFolderId(fid ?? lastFolder()), [fid])

  const playlist = useQuery({
    ...trpc.folders.playlist.queryOptions({ id: folderId ?? '' }),
    enabled: !!folderId && auth.isAuthenticated,
    retry: false,
    staleTime: 5 * 60_000,
  })
  const tracks = playlist.data?.tracks ?? []
  const title = playlist.data?.folder.label || 'Music Player'

  // Only a folder that loaded becomes "the last folder" (a bad ?fid must not stick), and it plays
  // in the one player unless that folder is what plays already (coming back to this page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the folder's playlist arrives, not on every refetch of its data
  useEffect(() => {
    if (!folderId || !playlist.isSuccess) return
    rememberFolder(folderId)
    const { engine } = player().get()
    const ids = playlist.data.tracks.map((t) => trackIdOf(t.url))
    const same =
      engine.context?.source === 'folder' &&
      engine.context.playlistId === folderId &&
      engine.tracks.length === ids.length &&
      engine.tracks.every((t, i) => trackIdOf(t.url) === ids[i])
    if (!same)
      player().send({ type: 'replace', tracks: playlist.data.tracks, context: { source: 'folder', playlistId: folderId, label: title }, autoPlay: true })
  }, [folderId, playlist.isSuccess, playlist.data])

  return (
    <section className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <div>
        <Link to="/folders" className={backLink}>
          <span aria-hidden="true">←</span> Back to Folders
        </Link>
      </div>
      <header>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', overflowWrap: 'anywhere' })}>{title}</h1>
        {playlist.isSuccess && tracks.length > 0 && (
          <p className={css({ color: 'fg.muted', mt: '1' })}>Playing {plural(tracks.length, 'track')} from your collection</p>
        )}
      </header>
      {folderId === null ? (
        <Problem message="No folder selected" />
      ) : folderId === undefined || playlist.isPending ? (
        <div role="status" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16', color: 'fg.muted' })}>
          <Spinner label="Loading your music" />
          <p>Loading your music...</p>
        </div>
      ) : playlist.isError ? (
        <Problem
          title="Could not load this folder"
          message={errorMessage(playlist.error, 'Failed to load playlist')}
          onRetry={() => void playlist.refetch()}
          retrying={playlist.isFetching}
        />
      ) : tracks.length === 0 ? (
        <p className={css({ textAlign: 'center', py: '16', color: 'fg.muted' })}>No tracks found in this folder.</p>
      ) : (
        <Player Lyrics={LyricsPanel} />
      )}
    </section>
  )
}

/** Why nothing plays; a folder that failed to load (its server down, a 404) can be tried again. */
function Problem({ title, message, onRetry, retrying }: { title?: string; message: string; onRetry?: () => void; retrying?: boolean }) {
  return (
    <div
      role="alert"
      className={css({ textAlign: 'center', py: '12', px: '4', bg: 'danger.muted', borderRadius: '2xl', borderWidth: '1px', borderColor: 'danger.default' })}
    >
      {title && <p className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>{title}</p>}
      <p className={css({ fontWeight: title ? 'normal' : 'semibold', mt: title ? '1' : '0', overflowWrap: 'anywhere' })}>{message}</p>
      <div className={css({ display: 'flex', gap: '3', justifyContent: 'center', flexWrap: 'wrap', mt: '4' })}>
        {onRetry && (
          <Button onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying...' : 'Retry'}
          </Button>
        )}
        <Link to="/folders" className={button({ variant: 'outline' })}>
          Return to Folders
        </Link>
      </div>
    </div>
  )
}
