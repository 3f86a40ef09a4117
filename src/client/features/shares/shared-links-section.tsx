// /profile "Shared links": the member's share links (a track from the player's Share button, an
// album from its page), each with its expiry and its visit and play counts, a copy button and
// Revoke. A revoked link drops off the list; whoever opens it is told it was revoked.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { FailureAlert } from '~/client/features/auth/auth-card'
import { ListLoadState, ProfileSection, RevokeButton, StatusLine, touchTarget, useOutcome } from '~/client/features/profile/profile-section'
import { listClass, rowClass, rowMeta } from '~/client/features/profile/sessions-section'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { plural } from '~/shared/plural'
import { relativeTime } from '~/shared/relative-time'
import { expiryText } from './expiry'
import type { ShareSummary } from './types'

/** The full address of a share's public page. */
export const shareUrl = (path: string) => `${window.location.origin}${path}`

const badge = { display: 'inline-block', whiteSpace: 'nowrap' } as const
const kindBadge = css({
  ...badge,
  fontSize: 'xs',
  fontWeight: 'semibold',
  color: 'accent.text',
  bg: 'accent.muted',
  borderRadius: 'full',
  px: '2',
  py: '0.5',
  ml: '2',
})
const expiredBadge = css({
  ...badge,
  fontSize: 'xs',
  fontWeight: 'semibold',
  color: 'danger.fg',
  bg: 'danger.muted',
  borderRadius: 'full',
  px: '2',
  py: '0.5',
  ml: '2',
})

export function SharedLinksSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery(trpc.shares.list.queryOptions())
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const revoke = useMutation(
    trpc.shares.revoke.mutationOptions({
      // Said once the list no longer shows it (the button stays pending until then).
      onSuccess: async ({ title }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.shares.list.queryKey() })
        setDone(`Link to "${title}" revoked. Whoever opens it is told it was revoked.`)
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not revoke the link. Please try again.')),
    }),
  )
  const copy = async (share: ShareSummary) => {
    clear()
    try {
      await navigator.clipboard.writeText(shareUrl(share.path))
      setDone(`Link to "${share.title}" copied to the clipboard.`)
    } catch {
      setFailure(`Could not copy: the link is ${shareUrl(share.path)}`)
    }
  }

  return (
    <ProfileSection
      id="shared-links"
      title="Shared links"
      description="Links anyone can open and play without an account, until they expire or you revoke them. Share a track with the player's share button, or an album from its page."
    >
      <StatusLine message={done} />
      <FailureAlert message={failure} />
      <ListLoadState list={list} loading="Loading your shared links" failed="Could not load your shared links." />
      {list.data &&
        (list.data.shares.length === 0 ? (
          <p className={rowMeta}>No shared links yet.</p>
        ) : (
          <ul className={listClass} aria-label="Shared links">
            {list.data.shares.map((s) => (
              <li key={s.id} className={rowClass}>
                {/* At least 16rem wide: on a phone the buttons go below the text. */}
                <div className={css({ minW: '0', flex: '1 1 16rem' })}>
                  <p className={css({ fontWeight: 'medium', wordBreak: 'break-word' })}>
                    {s.title}
                    <span className={kindBadge}>
                      {s.kind === 'album' ? 'Album' : s.kind === 'playlist' ? 'Playlist' : s.trackCount === 1 ? 'Track' : 'Tracks'}
                    </span>
                    {s.expired && <span className={expiredBadge}>Expired</span>}
                  </p>
                  {s.description && <p className={css({ fontSize: 'sm', fontStyle: 'italic', mt: '0.5' })}>{s.description}</p>}
                  <p className={rowMeta}>
                    Created {relativeTime(s.createdAt)} · {expiryText(s.expiresAt)} · {plural(s.visitCount, 'visit')} · {plural(s.playCount, 'play')}
                  </p>
                </div>
                <div className={stack({ direction: 'row', gap: '2' })}>
                  <Button variant="outline" className={touchTarget} aria-label={`Copy link to ${s.title}`} onClick={() => void copy(s)}>
                    Copy link
                  </Button>
                  <RevokeButton
                    label={`Revoke link to ${s.title}`}
                    pending={revoke.isPending}
                    onRevoke={() => {
                      clear()
                      revoke.mutate({ id: s.id })
                    }}
                  />
                </div>
              </li>
            ))}
          </ul>
        ))}
    </ProfileSection>
  )
}
