import { createFileRoute } from '@tanstack/react-router'
import { StatsPage } from '~/client/features/admin/stats/stats-page'

export const Route = createFileRoute('/_admin/admin/stats')({
  head: () => ({ meta: [{ title: 'System Statistics · Vibes' }] }),
  component: StatsPage,
})
