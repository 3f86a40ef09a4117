// /profile "Sessions": where the member is signed in (device, last seen), this device marked,
// and Revoke for the others (their next call answers 401 and they land on the login page).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FailureAlert } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { relativeTime } from '~/shared/relative-time'
import { css } from 'styled-system/css'
import { ListLoadState, ProfileSection, RevokeButton, StatusLine, useOutcome } from './profile-section'
import { mutedText } from '~/client/ui/text'

export const listClass = css({ display: 'flex', flexDirection: 'column', divideY: '1px', divideColor: 'border.default' })
export const rowClass = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', py: '3', flexWrap: 'wrap' })
export const rowMeta = mutedText()
const badge = css({ fontSize: 'xs', fontWeight: 'semibold', color: 'accent.text', bg: 'accent.muted', borderRadius: 'full', px: '2', py: '0.5', ml: '2' })

export function SessionsSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery(trpc.profile.sessions.list.queryOptions())
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const revoke = useMutation(
    trpc.profile.sessions.delete.mutationOptions({
      // Said once the list no longer shows it (the button stays pending until then).
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.profile.sessions.list.queryKey() })
        setDone('Session revoked. That device has been logged out.')
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not revoke the session. Please try again.')),
    }),
  )

  return (
    <ProfileSection id="sessions" title="Sessions" description="Where your account is signed in. Revoke a session you do not recognise.">
      <FailureAlert message={failure} />
      <ListLoadState list={list} loading="Loading sessions" failed="Could not load your sessions." />
      {list.data && (
        <ul className={listClass} aria-label="Active sessions">
          {list.data.sessions.map((s) => (
            <li key={s.id} className={rowClass}>
              <div>
                <p className={css({ fontWeight: 'medium' })} title={s.userAgent || undefined}>
                  {s.device}
                  {s.current && <span className={badge}>This device</span>}
                </p>
                <p className={rowMeta}>
                  Last seen {relativeTime(s.lastSeenAt)} · signed in {relativeTime(s.createdAt)}
                </p>
              </div>
              {!s.current && (
                <RevokeButton
                  label={`Revoke session ${s.device}, last seen ${relativeTime(s.lastSeenAt)}`}
                  pending={revoke.isPending}
                  onRevoke={() => {
                    clear()
                    revoke.mutate({ id: s.id })
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      <StatusLine message={done} />
    </ProfileSection>
  )
}
