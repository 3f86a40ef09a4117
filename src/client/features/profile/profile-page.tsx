// /profile ("Profile Settings" in the account menu): account, password,
// sessions, linked sign-in providers, app keys, scrobbling, shared links, downloads on this device and account deletion, one card each, in the look of the account screens.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTRPC } from '~/client/trpc'
import { CenteredSpinner } from '~/client/ui/spinner'
import { css } from 'styled-system/css'
import { AccountSection, PasswordSection } from './account-forms'
import { AppKeysSection } from './app-keys-section'
import { AvatarSection } from './avatar-section'
import { DeleteAccountSection } from './delete-account-section'
import { ScrobblingSection } from './scrobbling-section'
import { SessionsSection } from './sessions-section'
import { SignInsSection } from './sign-ins-section'
import { displayName } from '~/shared/display-name'
import { SharedLinksSection } from '~/client/features/shares/shared-links-section'
import { DownloadsSection } from '~/client/features/offline/downloads-section'

export function ProfilePage() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  // The user guard has just fetched this: it answers from the cache.
  const session = useQuery(trpc.auth.session.queryOptions())
  if (!session.data) return <CenteredSpinner label="Loading your profile" />
  const { user } = session.data
  return (
    <div className={css({ maxW: '3xl', mx: 'auto', py: { base: '4', md: '10' }, display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header>
        <h1 className={css({ fontSize: '3xl', fontWeight: 'bold' })}>Profile Settings</h1>
        <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
          Signed in as {user.username} ({user.email})
        </p>
      </header>
      <AvatarSection initial={displayName(user.email).charAt(0) || '?'} />
      <AccountSection user={user} />
      <PasswordSection onChanged={() => void queryClient.invalidateQueries({ queryKey: trpc.profile.sessions.list.queryKey() })} />
      <SessionsSection />
      <SignInsSection />
      <AppKeysSection />
      <ScrobblingSection />
      <SharedLinksSection />
      <DownloadsSection />
      <DeleteAccountSection />
    </div>
  )
}
