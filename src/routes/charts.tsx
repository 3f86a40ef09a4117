// /charts: most-played songs per region (the view lives in features/charts). The region it opens
// on is the server's (DEFAULT_COUNTRY), read during SSR so the first paint shows that chart.
import { createFileRoute } from '@tanstack/react-router'
import { ChartsView } from '~/client/features/charts/charts-view'

export const Route = createFileRoute('/charts')({
  head: () => ({ meta: [{ title: 'Charts · Vibes' }] }),
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.charts.defaultRegion.queryOptions()),
  component: ChartsPage,
})

function ChartsPage() {
  const { region } = Route.useLoaderData()
  return <ChartsView initialRegion={region} />
}
