import { createFileRoute } from '@tanstack/react-router'
import { RadioStationsPage } from '~/client/features/admin/radio/radio-stations-page'

export const Route = createFileRoute('/_admin/admin/radio')({
  head: () => ({ meta: [{ title: 'Radio · Admin · Vibes' }] }),
  component: RadioStationsPage,
})
