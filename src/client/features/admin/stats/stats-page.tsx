// System Statistics (/admin/stats): tabs System (default), Traffic and
// Errors. Loads go loading → success / error / rate-limited; rate-limited keeps the last answers
// (or the sample chart) with a notice, and the page refreshes every 5 minutes (10 when limited).
// Without a stored token it asks the admin to log in.
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { useAuth } from '~/client/features/auth/auth-store'
import { useNow } from '~/client/features/charts/use-now'
import { errorMessage, httpStatusOf } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { button } from '~/client/ui/button'
import { Tabs } from '~/client/ui/tabs'
import { relativeTime } from '~/shared/relative-time'
import { PAGE_VIEW_DAYS } from '~/shared/validators/analytics'
import { ApiPerformancePanel } from '../panels/api-performance'
import { formatCount, percent1, plural, statsRefreshMs } from '../panels/format'
import { HitAnalyticsPanel } from '../panels/hit-analytics'
import { BackToDashboard, ErrorBox, Notice, Panel, panelGrid, PanelLoading, Stat } from '../panels/panel'
import { RecentErrorsPanel } from '../panels/recent-errors'
import { TopPagesPanel } from '../panels/top-pages'
import { UserActivityPanel } from '../panels/user-activity'
import { PageViewsChart } from './page-views-chart'

const STATS_STALE_MS = 2 * 60_000

function AuthRequired() {
  return (
    <div className={css({ textAlign: 'center', py: '16', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Authentication Required</h2>
      <p className={css({ color: 'fg.muted' })}>You need to be logged in as an admin to view system statistics.</p>
      <a href={`/login?returnUrl=${encodeURIComponent('/admin/stats')}`} className={button()}>
        Log In
      </a>
    </div>
  )
}

export function StatsPage() {
  const auth = useAuth()
  if (!auth.token) return <AuthRequired />
  return <StatsContent />
}

const is429 = (error: unknown) => httpStatusOf(error) === 429

function StatsContent() {
  const trpc = useTRPC()
  const now = useNow()
  const [tab, setTab] = useState('system')
  const [rateLimited, setRateLimited] = useState(false)
  const refreshMs = statsRefreshMs(rateLimited)
  const opts = { refetchInterval: refreshMs, staleTime: STATS_STALE_MS }
  const overview = useQuery(trpc.stats.overview.queryOptions({}, opts))
  const dau = useQuery(trpc.stats.dau.queryOptions(undefined, opts))
  const daily = useQuery(trpc.stats.dailyActivity.queryOptions({ days: PAGE_VIEW_DAYS }, opts))
  const limited = [overview, dau, daily].some((q) => is429(q.error))
  if (limited !== rateLimited) setRateLimited(limited)

  const o = overview.data
  const activeUsers = (
    <Panel title="Active Users">
      {dau.isPending ? (
        <PanelLoading label="Loading active users" />
      ) : !dau.data ? (
        <ErrorBox
          message={is429(dau.error) ? 'Rate limit exceeded. Please try again later.' : errorMessage(dau.error, 'Failed to fetch user activity stats')}
        />
      ) : (
        <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '4' })}>
          <Stat label="Daily" value={formatCount(dau.data.dau)} hint="last 24 hours" />
          <Stat label="Weekly" value={formatCount(dau.data.wau)} hint="last 7 days" />
        </div>
      )}
    </Panel>
  )
  const overviewError = is429(overview.error)
    ? 'Rate limit exceeded. Please try again later.'
    : errorMessage(overview.error, 'Failed to fetch system statistics')

  const system = (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
        {activeUsers}
        <Panel title="Music">
          {overview.isPending ? (
            <PanelLoading label="Loading music counts" />
          ) : !o ? (
            <ErrorBox message={overviewError} />
          ) : (
            <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '4' })}>
              <Stat label="Total songs" value={formatCount(o.music.totalSongs)} />
              <Stat label="Playlists" value={formatCount(o.music.totalPlaylists)} />
            </div>
          )}
        </Panel>
        <Panel title="Views">
          {overview.isPending ? (
            <PanelLoading label="Loading views" />
          ) : !o ? (
            <ErrorBox message={overviewError} />
          ) : (
            <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '4' })}>
              <Stat label="Total" value={formatCount(o.pageViews.total)} hint={`last ${plural(o.pageViews.days, 'day')}`} />
              <Stat label="Unique visitors" value={formatCount(o.pageViews.uniqueVisitors)} />
              <Stat label="Average / day" value={o.pageViews.averagePerDay.toLocaleString('en-US')} />
              <Stat
                label="Last updated"
                value={
                  <time dateTime={o.lastUpdated} className={css({ fontSize: 'md' })}>
                    {now === null ? '' : relativeTime(o.lastUpdated, Math.max(now, overview.dataUpdatedAt))}
                  </time>
                }
              />
            </div>
          )}
        </Panel>
      </div>
      <div className={panelGrid}>
        <ApiPerformancePanel />
        <RecentErrorsPanel />
      </div>
      <PageViewsChart data={daily.data?.dailyData} pending={daily.isPending} failed={daily.isError} rateLimited={is429(daily.error)} />
      <TopPagesPanel refreshMs={refreshMs} />
    </div>
  )

  const traffic = (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <div className={panelGrid}>
        <Panel title="Daily Active Users">
          {dau.isPending ? (
            <PanelLoading label="Loading daily active users" />
          ) : !dau.data ? (
            <ErrorBox message={errorMessage(dau.error, 'Failed to fetch user activity stats')} />
          ) : (
            <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '4' })}>
              <Stat label="DAU" value={formatCount(dau.data.dau)} />
              <Stat label="WAU" value={formatCount(dau.data.wau)} />
              <Stat label="DAU / WAU" value={dau.data.wau > 0 ? percent1((dau.data.dau / dau.data.wau) * 100) : 'N/A'} />
            </div>
          )}
        </Panel>
        <UserActivityPanel />
      </div>
      <HitAnalyticsPanel days={30} />
    </div>
  )

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <BackToDashboard />
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>System Statistics</h2>
      {limited && <Notice>Using cached data (API rate limit)</Notice>}
      <Tabs
        label="Statistics"
        value={tab}
        onValueChange={setTab}
        items={[
          { value: 'system', label: 'System', content: system },
          { value: 'traffic', label: 'Traffic', content: traffic },
          { value: 'errors', label: 'Errors', content: <RecentErrorsPanel /> },
        ]}
      />
    </div>
  )
}
