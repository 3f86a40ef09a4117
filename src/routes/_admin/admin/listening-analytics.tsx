import { createFileRoute } from '@tanstack/react-router'
import { ListeningAnalyticsPage } from '~/client/features/admin/analytics/listening-analytics-page'

export const Route = createFileRoute('/_admin/admin/listening-analytics')({
  head: () => ({ meta: [{ title: 'Listening Analytics · Vibes' }] }),
  component: ListeningAnalyticsPage,
})
