// Listening Analytics (/admin/listening-analytics): a period of 1, 7
// (default), 14, 30, 60 or 90 days, Refresh All, and six tabs that load on their own (spinner,
// red error box, data): Overview, User Behavior, Patterns, Geographic, Playlists, Engagement.
// Engagement keeps its last answer when a refresh fails and says so; its error has a Retry.
// Each tab is its own component (./*-tab.tsx); the page holds the period and the six queries, so
// Refresh All and the busy state see them all.
import { useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { SelectField } from '~/client/ui/select'
import { Tabs } from '~/client/ui/tabs'
import { DEFAULT_ANALYTICS_DAYS, type AnalyticsDays } from '~/shared/validators/analytics'
import { BackToDashboard } from '../panels/panel'
import { OverviewTab } from './overview-tab'
import { UserBehaviorTab } from './user-behavior-tab'
import { PatternsTab } from './patterns-tab'
import { GeographicTab } from './geographic-tab'
import { PlaylistsTab } from './playlists-tab'
import { EngagementTab } from './engagement-tab'
import { refetchAll, useEngagement, useGeographic, useOverview, usePatterns, usePlaylists, useUserBehavior } from './queries'
import { stack } from 'styled-system/patterns'
import { pageHeader } from '~/client/ui/page-header'

const PERIODS = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '14', label: 'Last 14 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '60', label: 'Last 60 days' },
  { value: '90', label: 'Last 90 days' },
] as const

export function ListeningAnalyticsPage() {
  const [days, setDays] = useState<AnalyticsDays>(DEFAULT_ANALYTICS_DAYS)
  const [tab, setTab] = useState('overview')
  const overview = useOverview(days)
  const behavior = useUserBehavior(days)
  const patterns = usePatterns(days)
  const geographic = useGeographic(days)
  const playlists = usePlaylists(days)
  const engagement = useEngagement(days)
  const all = [overview, behavior, patterns, geographic, playlists, engagement]
  const anyFetching = all.some((q) => q.isFetching)

  const tabs = [
    { value: 'overview', label: 'Overview', content: <OverviewTab query={overview} /> },
    { value: 'behavior', label: 'User Behavior', content: <UserBehaviorTab query={behavior} /> },
    { value: 'patterns', label: 'Patterns', content: <PatternsTab query={patterns} /> },
    { value: 'geographic', label: 'Geographic', content: <GeographicTab query={geographic} /> },
    { value: 'playlists', label: 'Playlists', content: <PlaylistsTab query={playlists} /> },
    { value: 'engagement', label: 'Engagement', content: <EngagementTab query={engagement} /> },
  ]

  return (
    <div className={stack({ gap: '5' })}>
      <BackToDashboard />
      <div className={pageHeader().root}>
        <h2 className={pageHeader().title}>Listening Analytics</h2>
        <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '3', flexWrap: 'wrap' })}>
          <SelectField
            label="Period"
            options={PERIODS}
            value={String(days)}
            onValueChange={(v) => setDays(Number(v) as AnalyticsDays)}
            className={css({ w: '44' })}
          />
          <Button variant="outline" aria-disabled={anyFetching} aria-busy={anyFetching} onClick={() => anyFetching || refetchAll(all)}>
            Refresh All
          </Button>
        </div>
      </div>
      <Tabs label="Listening analytics" value={tab} onValueChange={setTab} items={tabs} />
    </div>
  )
}
