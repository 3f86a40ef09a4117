// /charts: most-played songs per region (the view lives in features/charts).
import { createFileRoute } from '@tanstack/react-router'
import { ChartsView } from '~/client/features/charts/charts-view'

export const Route = createFileRoute('/charts')({
  head: () => ({ meta: [{ title: 'Charts · Vibes' }] }),
  component: ChartsView,
})
