import { createFileRoute } from '@tanstack/react-router'
import { InsightsPage } from '~/client/features/admin/insights/insights-page'

export const Route = createFileRoute('/_admin/admin/insights')({
  head: () => ({ meta: [{ title: 'Insights · Vibes' }] }),
  component: InsightsPage,
})
