// charts: most-played songs per region, public. For a signed-in member each entry the server
// library holds carries that library track (`play`), so the chart's Listen button can play it.
import type { LibraryTrack } from '~/shared/library'
import { ChartsRegionSchema } from '~/shared/validators'
import { config } from '../config'
import { remotePolicy } from '../remote'
import { libraryMatches } from '../services/chart-library'
import { chartFor, defaultChartRegion } from '../services/charts'
import { createTRPCRouter, publicProcedure } from '../trpc/init'

export const chartsRouter = createTRPCRouter({
  byRegion: publicProcedure.input(ChartsRegionSchema).query(async ({ ctx, input }) => {
    const chart = await chartFor(ctx.db, input.region, { sourceUrl: config.CHARTS_SOURCE_URL, policy: remotePolicy() })
    if (!ctx.user) return chart
    const found = await libraryMatches(ctx.db, config.AUTH_SECRET, chart.tracks)
    return { ...chart, tracks: chart.tracks.map((t, i): typeof t & { play?: LibraryTrack } => (found.has(i) ? { ...t, play: found.get(i) } : t)) }
  }),
  /** The region the Charts page opens on: this instance's own country, else the worldwide chart. */
  defaultRegion: publicProcedure.query(() => ({ region: defaultChartRegion(config.DEFAULT_COUNTRY) })),
})
