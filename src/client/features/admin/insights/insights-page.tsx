// Insights: a period of 1, 7, 14 or 30 days; play, listen-time,
// completion and track cards; Traffic Sources and Device Types bars; User Engagement; Listening
// Patterns (top 6 peak hours, top 6 genres); the User Activity and Top Tracks panels; and a link
// to the full Listening Analytics.
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { SelectField } from '~/client/ui/select'
import type { AnalyticsDays } from '~/shared/validators/analytics'
import { useEngagement, useOverview, usePatterns } from '../analytics/queries'
import {
  barWidth,
  deviceName,
  formatCount,
  genreLabel,
  hourLabel,
  listenTimeInsights,
  peakHours,
  percent1,
  plural,
  shareOf,
  sourceName,
} from '../panels/format'
import { BackToDashboard, Bar, ErrorBox, Panel, panelGrid, PanelLoading, Stat, statGrid, EmptyState } from '../panels/panel'
import { TopTracksPanel } from '../panels/top-tracks'
import { UserActivityPanel } from '../panels/user-activity'
import { stack } from 'styled-system/patterns'
import { card } from '~/client/ui/card'
import { pageHeader } from '~/client/ui/page-header'
import { mutedText } from '~/client/ui/text'

const PERIODS = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last week' },
  { value: '14', label: 'Last 2 weeks' },
  { value: '30', label: 'Last month' },
] as const

export function InsightsPage() {
  const [days, setDays] = useState<AnalyticsDays>(7)
  const overview = useOverview(days)
  const patterns = usePatterns(days)
  const engagement = useEngagement(days)
  const o = overview.data
  const e = engagement.data
  const total = o?.overview.totalPlays ?? 0

  return (
    <div className={stack({ gap: '5' })}>
      <BackToDashboard />
      <div className={pageHeader().root}>
        <h2 className={pageHeader().title}>User Insights</h2>
        <SelectField
          label="Period"
          options={PERIODS}
          value={String(days)}
          onValueChange={(v) => setDays(Number(v) as AnalyticsDays)}
          className={css({ w: '48' })}
        />
      </div>

      {overview.isPending ? (
        <PanelLoading label="Loading insights" />
      ) : !o ? (
        <ErrorBox message={errorMessage(overview.error, 'Failed to fetch analytics overview')} />
      ) : (
        <>
          <div className={statGrid}>
            {[
              <Stat key="plays" label="Total Plays" value={formatCount(o.overview.totalPlays)} hint={plural(o.overview.uniqueUsers, 'listener')} />,
              <Stat key="time" label="Listen Time" value={listenTimeInsights(o.overview.totalListenTime)} />,
              <Stat
                key="completion"
                label="Completion Rate"
                value={percent1(o.completion.completionRate)}
                hint={`${formatCount(o.completion.skippedTracks)} skipped`}
              />,
              <Stat key="tracks" label="Unique Tracks" value={formatCount(o.overview.uniqueTracks)} />,
            ].map((stat) => (
              <div key={stat.key} className={card({ size: 'sm' })}>
                {stat}
              </div>
            ))}
          </div>
          <div className={panelGrid}>
            <Panel title="Traffic Sources">
              {o.sources.length === 0 ? (
                <EmptyState title="No plays in this period" />
              ) : (
                <ul className={stack({ gap: '3' })}>
                  {o.sources.slice(0, 5).map((s) => (
                    <Bar
                      key={s.source}
                      label={sourceName(s.source)}
                      value={formatCount(s.count)}
                      detail={percent1(shareOf(s.count, total))}
                      width={barWidth(s.count, total)}
                    />
                  ))}
                </ul>
              )}
            </Panel>
            <Panel title="Device Types">
              {o.devices.length === 0 ? (
                <EmptyState title="No plays in this period" />
              ) : (
                <ul className={stack({ gap: '3' })}>
                  {o.devices.slice(0, 5).map((d) => (
                    <Bar
                      key={d.deviceType}
                      label={deviceName(d.deviceType)}
                      value={formatCount(d.count)}
                      detail={percent1(shareOf(d.count, total))}
                      width={barWidth(d.count, total)}
                    />
                  ))}
                </ul>
              )}
            </Panel>
          </div>
        </>
      )}

      <Panel title="User Engagement">
        {engagement.isPending ? (
          <PanelLoading label="Loading engagement" />
        ) : !e ? (
          <ErrorBox message={errorMessage(engagement.error, 'Failed to fetch engagement analytics')} />
        ) : (
          <div className={statGrid}>
            <Stat label="Like rate" value={percent1(e.engagement.likeRate)} />
            <Stat label="Share rate" value={percent1(e.engagement.shareRate)} />
            <Stat label="Repeat rate" value={percent1(e.engagement.repeatRate)} />
            <Stat
              label="High-engagement users"
              value={formatCount(e.engagement.highEngagementUsers)}
              hint={`of ${plural(e.engagement.totalUsers, 'listener')}`}
            />
            <Stat label="Avg plays / user" value={e.engagement.averagePlaysPerUser.toLocaleString('en-US')} />
            <Stat label="Avg listen time / user" value={listenTimeInsights(e.engagement.averageListenTimePerUser)} />
            <Stat
              label="Retention rate"
              value={e.retention.retentionRate === null ? 'N/A' : percent1(e.retention.retentionRate)}
              hint="daily / weekly active"
            />
          </div>
        )}
      </Panel>

      <Panel title="Listening Patterns">
        {patterns.isPending ? (
          <PanelLoading label="Loading listening patterns" />
        ) : !patterns.data ? (
          <ErrorBox message={errorMessage(patterns.error, 'Failed to fetch listening patterns')} />
        ) : (
          <div className={panelGrid}>
            <div>
              <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '3' })}>Peak Hours (UTC)</h3>
              {peakHours(patterns.data.hourlyPattern).length === 0 ? (
                <p className={mutedText()}>No plays in this period.</p>
              ) : (
                <ul className={stack({ gap: '3' })}>
                  {(() => {
                    const top = peakHours(patterns.data.hourlyPattern)
                    return top.map((h) => <Bar key={h.hour} label={hourLabel(h.hour)} value={formatCount(h.plays)} width={barWidth(h.plays, top[0].plays)} />)
                  })()}
                </ul>
              )}
            </div>
            <div>
              <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '3' })}>Top Genres</h3>
              {patterns.data.genrePattern.length === 0 ? (
                <p className={mutedText()}>No plays in this period.</p>
              ) : (
                <ul className={stack({ gap: '3' })}>
                  {patterns.data.genrePattern.slice(0, 6).map((g) => (
                    <Bar
                      key={g.genre ?? '\u0000'}
                      label={genreLabel(g.genre)}
                      value={formatCount(g.plays)}
                      width={barWidth(g.plays, patterns.data.genrePattern[0].plays)}
                    />
                  ))}
                </ul>
              )}
            </div>
          </div>
        )}
      </Panel>

      <div className={panelGrid}>
        <UserActivityPanel />
        <TopTracksPanel place="insights" />
      </div>

      <Link
        to="/admin/listening-analytics"
        className={css({ alignSelf: 'flex-start', color: 'accent.default', fontWeight: 'semibold', _hover: { textDecoration: 'underline' } })}
      >
        View Full Analytics <span aria-hidden>→</span>
      </Link>
    </div>
  )
}
