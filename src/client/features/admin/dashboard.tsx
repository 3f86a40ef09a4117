// The admin dashboard. For now: the System Health panel (health every 30 s, doubling back-off
// up to 60 s with jitter on failure); the other cards arrive with the admin issue.
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'

const HEALTH_REFRESH_MS = 30_000

export function Dashboard() {
  const trpc = useTRPC()
  const healthQuery = useQuery({
    ...trpc.health.check.queryOptions(),
    refetchInterval: (query) => {
      const failures = query.state.fetchFailureCount
      if (!failures) return HEALTH_REFRESH_MS
      return Math.min(60_000, 1000 * 2 ** failures) + Math.random() * 100
    },
  })
  const up = healthQuery.data?.status === 'ok'
  const dbUp = healthQuery.data?.db.connected === true
  return (
    <section aria-labelledby="health-title" className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', p: '5', maxW: 'lg' })}>
      <h2 id="health-title" className={css({ fontWeight: 'semibold', mb: '3' })}>
        System Health
      </h2>
      <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2', fontSize: 'sm' })}>
        <dt className={css({ color: 'fg.muted' })}>Server</dt>
        <dd className={css({ color: up ? 'success.fg' : 'danger.fg', fontWeight: 'medium' })}>{healthQuery.isPending ? 'Checking...' : up ? 'Operational' : 'Down'}</dd>
        <dt className={css({ color: 'fg.muted' })}>Database</dt>
        <dd className={css({ color: dbUp ? 'success.fg' : 'danger.fg', fontWeight: 'medium' })}>{healthQuery.isPending ? 'Checking...' : dbUp ? 'Connected' : 'Offline'}</dd>
        {healthQuery.data && (
          <>
            <dt className={css({ color: 'fg.muted' })}>Uptime</dt>
            <dd>{Math.floor(healthQuery.data.uptimeSec / 60)} min</dd>
            <dt className={css({ color: 'fg.muted' })}>Memory</dt>
            <dd>{healthQuery.data.memoryMB} MB</dd>
            <dt className={css({ color: 'fg.muted' })}>DB latency</dt>
            <dd>{healthQuery.data.db.latencyMs} ms</dd>
          </>
        )}
      </dl>
    </section>
  )
}
