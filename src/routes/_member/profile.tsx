// /profile: the member's account page (a lazy route: its code loads only here).
import { createFileRoute } from '@tanstack/react-router'
import { ProfilePage } from '~/client/features/profile/profile-page'

export const Route = createFileRoute('/_member/profile')({
  head: () => ({ meta: [{ title: 'Profile Settings · Vibes' }] }),
  component: ProfilePage,
})
