import { createFileRoute } from '@tanstack/react-router'
import { Dashboard } from '~/client/features/admin/dashboard'

export const Route = createFileRoute('/_admin/admin/')({
  head: () => ({ meta: [{ title: 'Admin · Vibes' }] }),
  component: Dashboard,
})
