// /profile "Sign-in providers": the provider accounts (OpenID Connect, GitHub, Google) that sign
// this member in, with the address each vouched for and when it was linked, and Unlink after a
// confirmation. The member's last way in cannot be unlinked: its button is off and the row says
// why (the server refuses it too). Shown only where a provider is turned on or a link exists.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FailureAlert } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { relativeTime } from '~/shared/relative-time'
import { css } from 'styled-system/css'
import { ListLoadState, ProfileSection, StatusLine, touchTarget, useOutcome } from './profile-section'
import { listClass, rowClass, rowMeta } from './sessions-section'

type LinkedSignIn = { provider: 'oidc' | 'github' | 'google'; providerName: string; subject: string; email: string | null; unlinkRefusal: string | null }

const accountOf = (s: LinkedSignIn) => s.email ?? s.subject

export function SignInsSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery(trpc.profile.signIns.list.queryOptions())
  const options = useQuery(trpc.auth.signInOptions.queryOptions())
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const [unlinking, setUnlinking] = useState<LinkedSignIn | null>(null)
  const unlink = useMutation(
    trpc.profile.signIns.unlink.mutationOptions({
      onSuccess: ({ providerName }) => {
        setUnlinking(null)
        setDone(`${providerName} unlinked: it no longer signs you in.`)
        void queryClient.invalidateQueries({ queryKey: trpc.profile.signIns.list.queryKey() })
      },
      onError: (error) => {
        setUnlinking(null)
        setFailure(errorMessage(error, 'Could not unlink the sign-in provider. Please try again.'))
      },
    }),
  )

  const links = list.data?.signIns ?? []
  if (list.isSuccess && links.length === 0 && (options.data?.providers.length ?? 0) === 0) return null

  return (
    <ProfileSection id="sign-ins" title="Sign-in providers" description="The accounts at other services that sign you in here. Unlink one you no longer use.">
      <FailureAlert message={failure} />
      <ListLoadState list={list} loading="Loading sign-in providers" failed="Could not load your sign-in providers." />
      {/* Said once: a row whose unlink this blocks says it already. */}
      {list.data && !list.data.hasPassword && links.every((s) => s.unlinkRefusal === null) && (
        <p className={rowMeta}>Your account has no password. To set one, use “Forgot your password?” on the login page.</p>
      )}
      {list.data &&
        (links.length === 0 ? (
          <p className={rowMeta}>
            No sign-in providers are linked. Signing in with a provider that has your e-mail address links it, once your password confirms.
          </p>
        ) : (
          <ul className={listClass} aria-label="Linked sign-in providers">
            {links.map((s) => {
              const reasonId = `sign-in-${s.provider}-${s.subject}-refusal`
              return (
                <li key={`${s.provider}:${s.subject}`} className={rowClass}>
                  <div className={css({ minW: '0', flex: '1' })}>
                    <p className={css({ fontWeight: 'medium' })}>{s.providerName}</p>
                    {/* A long address wraps rather than pushing the button off a phone's screen. */}
                    <p className={css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' })}>
                      {accountOf(s)} · linked {relativeTime(s.linkedAt)}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    className={touchTarget}
                    aria-label={`Unlink ${s.providerName} (${accountOf(s)})`}
                    aria-describedby={s.unlinkRefusal ? reasonId : undefined}
                    disabled={s.unlinkRefusal !== null || unlink.isPending}
                    onClick={() => {
                      clear()
                      setUnlinking(s)
                    }}
                  >
                    Unlink
                  </Button>
                  {/* On a line of its own under the name and the button, so it reads at full width. */}
                  {s.unlinkRefusal && (
                    <p id={reasonId} className={css({ color: 'fg.muted', fontSize: 'sm', flexBasis: 'full' })}>
                      {s.unlinkRefusal}
                    </p>
                  )}
                </li>
              )
            })}
          </ul>
        ))}
      <StatusLine message={done} />
      <ConfirmDialog
        open={unlinking !== null}
        onCancel={() => setUnlinking(null)}
        onConfirm={() => unlinking && unlink.mutate({ provider: unlinking.provider, subject: unlinking.subject })}
        busy={unlink.isPending}
        title="Unlink sign-in provider"
        description={
          unlinking
            ? `${unlinking.providerName} (${accountOf(unlinking)}) will no longer sign you in. You stay signed in here and on your other devices.`
            : undefined
        }
        confirmLabel="Unlink"
        busyLabel="Unlinking..."
      />
    </ProfileSection>
  )
}
