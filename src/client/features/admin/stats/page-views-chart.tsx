// The Page Views line chart (30 days). Chart.js registers only the pieces a line chart uses. When
// the server has no views, or fails, a generated sample is drawn and labelled '30 days (sample)'.
import { CategoryScale, Chart as ChartJS, Filler, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js'
import { useMemo } from 'react'
import { Line } from 'react-chartjs-2'
import { css } from 'styled-system/css'
import { Notice, Panel, PanelLoading } from '../panels/panel'
import { hasNoViews, pageViewsChart, REAL_LABEL, SAMPLE_LABEL, samplePageViews, type DailyViews } from './page-views'

ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, Filler, Tooltip, Legend)

export function PageViewsChart({
  data,
  pending,
  failed,
  rateLimited,
}: {
  data: DailyViews[] | undefined
  pending: boolean
  failed: boolean
  rateLimited: boolean
}) {
  const sample = !pending && (failed ? !data : hasNoViews(data))
  const points = useMemo(() => (sample ? samplePageViews() : (data ?? [])), [sample, data])
  const chart = useMemo(() => pageViewsChart(points, sample), [points, sample])
  return (
    <Panel title="Page Views" actions={<span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{sample ? SAMPLE_LABEL : REAL_LABEL}</span>}>
      {pending ? (
        <PanelLoading label="Loading page views" />
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {sample && (
            <Notice>
              {rateLimited
                ? 'Using cached/sample data (API rate limit)'
                : failed
                  ? 'Error fetching data, showing sample chart'
                  : 'No page view data available, showing sample data'}
            </Notice>
          )}
          <div className={css({ position: 'relative', h: { base: '56', md: '72' } })}>
            <Line data={chart.data} options={chart.options} aria-label={`Page views, ${sample ? SAMPLE_LABEL : REAL_LABEL}`} role="img" />
          </div>
        </div>
      )}
    </Panel>
  )
}
