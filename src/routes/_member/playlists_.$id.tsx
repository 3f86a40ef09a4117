// /playlists/$id: one playlist (the member's own, or another member's public one).
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { ErrorScreen } from '~/client/features/layout/error-screen'
import { PlaylistPage } from '~/client/features/playlists/playlist-page'
import { httpStatusOf } from '~/client/global-errors'

/** Someone else's private playlist answers 404 like a deleted one: both are "not found" here. */
function PlaylistError({ error, reset, info }: ErrorComponentProps) {
  if (httpStatusOf(error) !== 404 && httpStatusOf(error) !== 400) return <ErrorScreen error={error} reset={reset} info={info} />
  return (
    <section
      className={css({ minH: '50vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '4', textAlign: 'center' })}
    >
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Playlist not found</h1>
      <p className={css({ color: 'fg.muted', maxW: 'md' })}>It may have been deleted, or its owner keeps it private.</p>
      <Link to="/playlists" className={css({ color: 'accent.default', fontWeight: 'medium', minH: '11', display: 'inline-flex', alignItems: 'center' })}>
        Back to playlists
      </Link>
    </section>
  )
}

export const Route = createFileRoute('/_member/playlists_/$id')({
  head: () => ({ meta: [{ title: 'Playlist · Vibes' }] }),
  // The server render reads the session check and the playlist's opening (its header and first
  // rows), so the first HTML shows them and Play all works once the page hydrates (decision 087).
  // Only when both succeed: for a visitor, or a playlist the member may not open, the server
  // renders the guard's spinner as before and the browser finds out itself. In the browser the
  // loader does nothing, so a click on a playlist changes page at once and shows its spinner.
  loader: async ({ context: { queryClient, trpc, sessionUser }, params }) => {
    if (typeof window !== 'undefined' || !sessionUser) return
    const session = trpc.auth.session.queryOptions()
    const opening = trpc.playlists.opening.queryOptions({ id: params.id })
    try {
      await Promise.all([queryClient.fetchQuery(session), queryClient.fetchQuery(opening)])
    } catch {
      queryClient.removeQueries({ queryKey: session.queryKey })
      queryClient.removeQueries({ queryKey: opening.queryKey })
    }
  },
  errorComponent: PlaylistError,
  component: function PlaylistRoute() {
    const { id } = Route.useParams()
    return <PlaylistPage id={id} />
  },
})
