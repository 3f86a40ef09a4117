// /profile "Account" and "Password": each change is its own small form confirmed with the current
// password, validated by the same shared schemas the server parses. A password change also ends
// the app keys unless the member switches that off.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { AccountForm } from '~/client/features/auth/auth-card'
import { PasswordStrength, useCommonPassword } from '~/client/features/auth/password-strength'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Switch } from '~/client/ui/switch'
import { TextField } from '~/client/ui/text-field'
import type { PublicUser } from '~/shared/api-types'
import { ChangeEmailSchema, ChangePasswordFormSchema, ChangeUsernameSchema } from '~/shared/validators'
import { css } from 'styled-system/css'
import { ProfileSection, StatusLine, touchTarget, useOutcome } from './profile-section'

const formsRow = css({ display: 'grid', gap: '8', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } })
const subHeading = css({ fontSize: 'md', fontWeight: 'semibold' })

export function AccountSection({ user }: { user: PublicUser }) {
  return (
    <ProfileSection id="account" title="Account" description="Your username and e-mail. Confirm each change with your current password.">
      <div className={formsRow}>
        <UsernameForm user={user} />
        <EmailForm user={user} />
      </div>
    </ProfileSection>
  )
}

function UsernameForm({ user }: { user: PublicUser }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const form = useForm(ChangeUsernameSchema, { username: user.username, currentPassword: '' })
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const save = useMutation(
    trpc.profile.updateUsername.mutationOptions({
      onSuccess: ({ user: updated }) => {
        authStore.update(updated)
        void queryClient.invalidateQueries({ queryKey: trpc.auth.session.queryKey() })
        setDone(`Username changed to ${updated.username}.`)
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not change your username. Please try again.')),
    }),
  )
  return (
    <AccountForm
      form={form}
      failure={failure}
      onValid={() => {
        clear()
        save.mutate(form.parsed())
      }}
    >
      <h3 className={subHeading}>Username</h3>
      <TextField label="Username" autoComplete="username" {...form.field('username')} />
      <TextField label="Current password" type="password" autoComplete="current-password" revealable {...form.field('currentPassword')} />
      <Button type="submit" size="lg" className={touchTarget} disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Change username'}
      </Button>
      <StatusLine message={done} />
    </AccountForm>
  )
}

function EmailForm({ user }: { user: PublicUser }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const form = useForm(ChangeEmailSchema, { email: user.email, currentPassword: '' })
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const save = useMutation(
    trpc.profile.updateEmail.mutationOptions({
      onSuccess: ({ token, user: updated }) => {
        // The old token named the old address (and its session is gone): keep the fresh one.
        authStore.update(updated, token)
        void queryClient.invalidateQueries({ queryKey: trpc.auth.session.queryKey() })
        // This device now has a new session: the list marks it as the current one.
        void queryClient.invalidateQueries({ queryKey: trpc.profile.sessions.list.queryKey() })
        setDone(`E-mail changed to ${updated.email}.`)
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not change your e-mail. Please try again.')),
    }),
  )
  return (
    <AccountForm
      form={form}
      failure={failure}
      onValid={() => {
        clear()
        save.mutate(form.parsed())
      }}
    >
      <h3 className={subHeading}>E-mail</h3>
      <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
      <TextField label="Current password" type="password" autoComplete="current-password" revealable {...form.field('currentPassword')} />
      <Button type="submit" size="lg" className={touchTarget} disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Change e-mail'}
      </Button>
      <StatusLine message={done} />
    </AccountForm>
  )
}

export function PasswordSection({ onChanged }: { onChanged: () => void }) {
  const trpc = useTRPC()
  const form = useForm(ChangePasswordFormSchema, { currentPassword: '', newPassword: '', confirmPassword: '' })
  const [revokeAppKeys, setRevokeAppKeys] = useState(true)
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const common = useCommonPassword()
  const queryClient = useQueryClient()
  const save = useMutation(
    trpc.profile.updatePassword.mutationOptions({
      onSuccess: ({ message, appKeysRevoked }) => {
        form.reset()
        setRevokeAppKeys(true)
        setDone(appKeysRevoked ? `${message} Your app keys have been revoked.` : message)
        if (appKeysRevoked) void queryClient.invalidateQueries({ queryKey: trpc.appKeys.list.queryKey() })
        onChanged()
      },
      onError: (error, input) => {
        setFailure(errorMessage(error, 'Could not change your password. Please try again.'))
        common.note(error, input.newPassword)
      },
    }),
  )
  return (
    <ProfileSection
      id="password"
      title="Password"
      description="A new password logs out every other session; this one stays signed in. Revoke your app keys too if the old password may have leaked."
    >
      <AccountForm
        form={form}
        failure={failure}
        onValid={() => {
          clear()
          const { currentPassword, newPassword } = form.parsed()
          save.mutate({ currentPassword, newPassword, revokeAppKeys })
        }}
      >
        <TextField label="Current password" type="password" autoComplete="current-password" revealable {...form.field('currentPassword')} />
        <div className={formsRow}>
          <TextField label="New password" type="password" autoComplete="new-password" revealable {...form.field('newPassword')} />
          <TextField label="Confirm new password" type="password" autoComplete="new-password" revealable {...form.field('confirmPassword')} />
        </div>
        <PasswordStrength password={form.values.newPassword} refused={common.refused} />
        <Switch label="Also revoke app keys" checked={revokeAppKeys} onCheckedChange={setRevokeAppKeys} />
        <Button type="submit" size="lg" className={touchTarget} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Change password'}
        </Button>
        <StatusLine message={done} />
      </AccountForm>
    </ProfileSection>
  )
}
