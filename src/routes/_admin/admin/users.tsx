import { createFileRoute } from '@tanstack/react-router'
import { UsersPage } from '~/client/features/admin/users/users-page'

export const Route = createFileRoute('/_admin/admin/users')({
  head: () => ({ meta: [{ title: 'Users · Admin · Vibes' }] }),
  component: UsersPage,
})
