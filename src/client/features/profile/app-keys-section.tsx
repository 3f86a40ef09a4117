// /profile "App keys": keys for OpenSubsonic apps (Symfonium, DSub, Feishin…). A new key is shown
// once, with a copy button (the server keeps its hash and a sealed copy for token login, never
// shows it again); revoked keys drop off the list. A key made before keys were sealed is marked:
// token login needs a new key (decision 066).
// Creating one is confirmed with the current password, as every other change to the account.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { AccountForm } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { codeBox } from '~/client/ui/code-box'
import { TextField } from '~/client/ui/text-field'
import { relativeTime } from '~/shared/relative-time'
import { AppKeyCreateSchema } from '~/shared/validators'
import { css, cx } from 'styled-system/css'
import { ListLoadState, ProfileSection, RevokeButton, StatusLine, touchTarget, useOutcome } from './profile-section'
import { listClass, rowClass, rowMeta } from './sessions-section'
import { stack } from 'styled-system/patterns'

// Beside its Copy button, the key takes the room the button leaves.
const keyBox = cx(codeBox, css({ flex: '1', minW: '0' }))

export function AppKeysSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery(trpc.appKeys.list.queryOptions())
  const form = useForm(AppKeyCreateSchema, { name: '', currentPassword: '' })
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const [created, setCreated] = useState<{ id: string; name: string; key: string } | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.appKeys.list.queryKey() })

  const create = useMutation(
    trpc.appKeys.create.mutationOptions({
      onSuccess: ({ id, name, key }) => {
        setCreated({ id, name, key })
        form.reset()
        setDone(`App key "${name}" created. Copy it now: it will not be shown again.`)
        void refresh()
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not create the app key. Please try again.')),
    }),
  )
  const revoke = useMutation(
    trpc.appKeys.revoke.mutationOptions({
      // Said once the list no longer shows it (the button stays pending until then).
      onSuccess: async ({ id, name }) => {
        if (created?.id === id) setCreated(null)
        await refresh()
        setDone(`App key "${name}" revoked. Apps using it can no longer sign in.`)
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not revoke the app key. Please try again.')),
    }),
  )
  const copy = async () => {
    if (!created) return
    try {
      await navigator.clipboard.writeText(created.key)
      setDone('App key copied to the clipboard.')
    } catch {
      setFailure('Could not copy: select the key and copy it yourself.')
    }
  }
  const active = list.data?.keys.filter((k) => k.revokedAt === null) ?? []

  return (
    <ProfileSection
      id="app-keys"
      title="App keys"
      description="Sign in to OpenSubsonic apps (Symfonium, DSub, Feishin…) with a key instead of your password. Each key can be revoked on its own."
    >
      <AccountForm
        form={form}
        failure={failure}
        onValid={() => {
          clear()
          create.mutate(form.parsed())
        }}
      >
        <div className={css({ display: 'flex', gap: '3', alignItems: 'flex-end', flexWrap: { base: 'wrap', sm: 'nowrap' } })}>
          <TextField label="Key name" placeholder="e.g. Phone – Symfonium" className={css({ flex: '1', minW: '0' })} {...form.field('name')} />
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            revealable
            className={css({ flex: '1', minW: '0' })}
            {...form.field('currentPassword')}
          />
          <Button type="submit" size="lg" className={touchTarget} disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </div>
      </AccountForm>
      {created && (
        <div className={stack({ gap: '2' })}>
          <p className={css({ fontSize: 'sm', fontWeight: 'medium' })}>New key for {created.name} (shown only once):</p>
          <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: { base: 'wrap', sm: 'nowrap' } })}>
            <code className={keyBox} data-testid="new-app-key">
              {created.key}
            </code>
            <Button variant="outline" className={touchTarget} onClick={copy}>
              Copy key
            </Button>
          </div>
          <p className={rowMeta}>
            Use it as the API key in apps that offer one. It also works as the password in apps that ask for one, and with token login (sign in with your
            username).
          </p>
        </div>
      )}
      <StatusLine message={done} />
      <ListLoadState list={list} loading="Loading app keys" failed="Could not load your app keys." />
      {list.data &&
        (active.length === 0 ? (
          <p className={rowMeta}>No app keys yet.</p>
        ) : (
          <ul className={listClass} aria-label="App keys">
            {active.map((k) => (
              <li key={k.id} className={rowClass}>
                <div>
                  <p className={css({ fontWeight: 'medium' })}>{k.name}</p>
                  <p className={rowMeta}>
                    Created {relativeTime(k.createdAt)} · {k.lastUsedAt ? `last used ${relativeTime(k.lastUsedAt)}` : 'never used'}
                  </p>
                  {!k.tokenLogin && (
                    <p className={rowMeta}>Token login needs a new key: this one was made before, and works as an API key and as the password only.</p>
                  )}
                </div>
                <RevokeButton
                  label={`Revoke app key ${k.name}`}
                  pending={revoke.isPending}
                  onRevoke={() => {
                    clear()
                    revoke.mutate({ id: k.id })
                  }}
                />
              </li>
            ))}
          </ul>
        ))}
    </ProfileSection>
  )
}
