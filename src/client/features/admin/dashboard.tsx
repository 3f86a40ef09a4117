// The admin dashboard: cards leading to each admin screen with the
// messages and user counts, the 7-day hit analytics panel (auto-refreshing), Recent Activities
// (the newest real events: sign-ups, folders, messages and the console's audit log), and System Health (every 30 s; on failure the refresh backs off by doubling up
// to 60 s with up to 100 ms of jitter), plus the Library panel (index counts and on-demand scans).
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { httpStatusOf } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { relativeTime } from '~/shared/relative-time'
import { DASHBOARD_HIT_DAYS } from '~/shared/validators/analytics'
import { formatCount, HEALTH_CACHE_MS, healthRefreshMs, plural } from './panels/format'
import { HitAnalyticsPanel } from './panels/hit-analytics'
import { LibraryScanPanel } from './panels/library-scan'
import { Panel, panelCard } from './panels/panel'
import { stack } from 'styled-system/patterns'
import { pageHeader } from '~/client/ui/page-header'
import { mutedText } from '~/client/ui/text'

const RECENT_ACTIVITY_COUNT = 8

function RecentActivities() {
  const trpc = useTRPC()
  const activity = useQuery(trpc.admin.activity.queryOptions({ limit: RECENT_ACTIVITY_COUNT }, { refetchInterval: 60_000 }))
  const now = Date.now()
  return (
    <Panel title="Recent Activities">
      {activity.isPending ? (
        <p className={mutedText()}>Loading…</p>
      ) : activity.isError ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger.fg' })}>
          Couldn't load recent activities.
        </p>
      ) : activity.data.length === 0 ? (
        <p className={mutedText()}>No activity yet.</p>
      ) : (
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
          {activity.data.map((a) => (
            <li key={`${a.at}-${a.kind}-${a.text}`} className={css({ display: 'flex', gap: '2', alignItems: 'baseline' })}>
              <span aria-hidden className={css({ w: '2', h: '2', borderRadius: 'full', bg: 'accent.default', flexShrink: 0, alignSelf: 'center' })} />
              <span className={css({ flex: '1', minW: '0', overflowWrap: 'anywhere' })}>{a.text}</span>
              <time dateTime={a.at} className={css({ color: 'fg.muted', fontSize: 'xs', flexShrink: 0 })}>
                {relativeTime(a.at, now)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

function Card({
  to,
  title,
  children,
  badge,
}: {
  to: '/admin/messages' | '/admin/users' | '/admin/music' | '/admin/insights' | '/admin/listening-analytics' | '/admin/stats'
  title: string
  children: ReactNode
  badge?: ReactNode
}) {
  return (
    <Link
      to={to}
      className={css({
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'xl',
        p: '5',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        transition: 'border-color 0.15s, transform 0.15s',
        _hover: { borderColor: 'accent.default' },
        _focusVisible: { borderColor: 'accent.default', outline: '2px solid', outlineColor: 'accent.default' },
      })}
    >
      <span className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        <span className={css({ fontWeight: 'semibold' })}>{title}</span>
        {badge}
      </span>
      <span className={mutedText()}>{children}</span>
    </Link>
  )
}

export function Dashboard() {
  const trpc = useTRPC()
  const summary = useQuery(trpc.stats.dashboard.queryOptions(undefined, { refetchInterval: 60_000 }))
  // The admin's own health call: the public check says only up or down, this one has the figures.
  const healthQuery = useQuery({
    ...trpc.health.system.queryOptions(),
    staleTime: HEALTH_CACHE_MS,
    refetchInterval: (query) => {
      const status = httpStatusOf(query.state.error)
      return healthRefreshMs(query.state.fetchFailureCount, Math.random, query.state.status === 'error' && (status === 429 || status === 401))
    },
  })
  // A failed check means Down/Offline, whatever the last good answer said.
  const up = !healthQuery.isError && healthQuery.data?.status === 'ok'
  const dbUp = !healthQuery.isError && healthQuery.data?.db.connected === true
  const s = summary.data
  const count = (n: number | undefined) => (n === undefined ? '…' : formatCount(n))
  return (
    <div className={stack({ gap: '6' })}>
      <h2 className={pageHeader().title}>Dashboard</h2>
      <div
        className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}
      >
        <Card
          to="/admin/messages"
          title="Messages"
          badge={
            s && s.messages.unread > 0 ? (
              <span className={css({ bg: 'accent.emphasized', color: 'white', fontSize: 'xs', fontWeight: 'bold', px: '2', py: '0.5', borderRadius: 'full' })}>
                {formatCount(s.messages.unread)} new
              </span>
            ) : undefined
          }
        >
          {count(s?.messages.total)} total · {count(s?.messages.important)} important
        </Card>
        <Card to="/admin/users" title="User Management">
          {s ? `${plural(s.users.total, 'user')} · ${plural(s.users.admins, 'admin')}` : '… users · … admins'}
        </Card>
        <Card to="/admin/music" title="Music Management">
          Library, recent albums and songs
        </Card>
        <Card to="/admin/insights" title="User Insights">
          Plays, listen time and engagement
        </Card>
        <Card to="/admin/listening-analytics" title="Listening Analytics">
          Sources, patterns, places and playlists
        </Card>
        <Card to="/admin/stats" title="Statistics">
          Traffic, active users and errors
        </Card>
      </div>

      <LibraryScanPanel />

      <HitAnalyticsPanel days={DASHBOARD_HIT_DAYS} />

      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
        <RecentActivities />
        <section aria-labelledby="health-title" className={panelCard}>
          <h2 id="health-title" className={css({ fontWeight: 'semibold', mb: '3' })}>
            System Health
          </h2>
          <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2', fontSize: 'sm' })}>
            <dt className={css({ color: 'fg.muted' })}>Server</dt>
            <dd className={css({ color: up ? 'success.fg' : 'danger.fg', fontWeight: 'medium' })}>
              {healthQuery.isPending ? 'Checking...' : up ? 'Operational' : 'Down'}
            </dd>
            <dt className={css({ color: 'fg.muted' })}>Database</dt>
            <dd className={css({ color: dbUp ? 'success.fg' : 'danger.fg', fontWeight: 'medium' })}>
              {healthQuery.isPending ? 'Checking...' : dbUp ? 'Connected' : 'Offline'}
            </dd>
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
      </div>
    </div>
  )
}
