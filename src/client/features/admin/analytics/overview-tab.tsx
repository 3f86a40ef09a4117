// Overview: the four stat cards (plays, listen time, completion, tracks) and the top sources and devices.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { deviceName, formatCount, listenTimeAnalytics, percentWhole, plural, sourceName } from '../panels/format'
import { panelGrid, Stat } from '../panels/panel'
import { TabBody, Cards, TopPlays } from './tab-body'
import type { useOverview } from './queries'
import { stack } from 'styled-system/patterns'

export function OverviewTab({ query: overview }: { query: ReturnType<typeof useOverview> }) {
  return (
    <TabBody query={overview} label="overview" failure={errorMessage(overview.error, 'Failed to fetch analytics overview')}>
      {(d) => (
        <>
          <Cards>
            {[
              <Stat key="p" label="Total Plays" value={formatCount(d.overview.totalPlays)} hint={plural(d.overview.uniqueUsers, 'unique user')} />,
              <Stat
                key="t"
                label="Listen Time"
                value={listenTimeAnalytics(d.overview.totalListenTime)}
                hint={`${percentWhole(d.overview.listenRatio)} listened through`}
              />,
              <div key="c" className={stack({ gap: '2' })}>
                <Stat label="Completion Rate" value={d.overview.totalPlays ? percentWhole(d.completion.completionRate) : 'N/A'} />
                <div
                  role="progressbar"
                  aria-label="Completion rate"
                  aria-valuenow={Math.round(d.completion.completionRate)}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  className={css({ h: '2', bg: 'bg.subtle', borderRadius: 'full', overflow: 'hidden' })}
                >
                  <div className={css({ h: 'full', bg: 'success.default' })} style={{ width: `${Math.min(100, d.completion.completionRate)}%` }} />
                </div>
              </div>,
              <Stat
                key="u"
                label="Unique Tracks"
                value={formatCount(d.overview.uniqueTracks)}
                hint={d.overview.averageSessionLength > 0 ? `${d.overview.averageSessionLength} per session` : 'no sessions recorded'}
              />,
            ]}
          </Cards>
          <div className={panelGrid}>
            <TopPlays
              title="Top Sources"
              rows={d.sources.slice(0, 5).map((s) => ({ key: s.source, name: sourceName(s.source), count: s.count, average: s.averageListenDuration }))}
            />
            <TopPlays
              title="Top Devices"
              rows={d.devices.slice(0, 5).map((s) => ({ key: s.deviceType, name: deviceName(s.deviceType), count: s.count, average: s.averageListenDuration }))}
            />
          </div>
        </>
      )}
    </TabBody>
  )
}
