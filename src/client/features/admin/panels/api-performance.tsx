// API performance: average and p95 latency (green under 100 ms, yellow under 300, else red),
// error rate and requests per minute over the server's last 15 minutes, every 30 s.
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { errorRateTone, latencyTone } from './format'
import { ErrorBox, Panel, PanelLoading, Stat } from './panel'

export const API_METRICS_REFRESH_MS = 30_000

export function ApiPerformancePanel() {
  const trpc = useTRPC()
  const metrics = useQuery(trpc.health.metrics.queryOptions(undefined, { refetchInterval: API_METRICS_REFRESH_MS, staleTime: API_METRICS_REFRESH_MS }))
  const m = metrics.data?.metrics
  return (
    <Panel title="API Performance">
      {metrics.isPending ? (
        <PanelLoading label="Loading API performance" />
      ) : !m ? (
        <ErrorBox message={errorMessage(metrics.error, 'Failed to fetch API metrics')} />
      ) : (
        <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '4' })}>
          <Stat label="Avg latency" value={`${m.apiLatency.avg} ms`} tone={latencyTone(m.apiLatency.avg)} />
          <Stat label="P95 latency" value={`${m.apiLatency.p95} ms`} tone={latencyTone(m.apiLatency.p95)} />
          <Stat label="Error rate" value={`${(m.errorRate * 100).toFixed(1)}%`} tone={errorRateTone(m.errorRate)} />
          <Stat label="Requests / min" value={m.requestsPerMinute} />
        </div>
      )}
    </Panel>
  )
}
