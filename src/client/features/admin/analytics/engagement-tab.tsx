// Engagement: users, plays per user, retention and quality, then the three lists of rates.
// It keeps its last answer when a refresh fails and says so; its error has a Retry.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage, httpStatusOf, isNetworkError } from '~/client/global-errors'
import { engagementErrorMessage, formatCount, listenTimeAnalytics, percentWhole } from '../panels/format'
import { Panel, Stat } from '../panels/panel'
import { TabBody, Cards, rowList } from './tab-body'
import type { useEngagement } from './queries'

export function EngagementTab({ query: engagement }: { query: ReturnType<typeof useEngagement> }) {
  const online = typeof navigator === 'undefined' ? true : navigator.onLine
  const engagementFailure = engagementErrorMessage(
    errorMessage(engagement.error, 'Failed to fetch engagement analytics'),
    isNetworkError(engagement.error) ? undefined : httpStatusOf(engagement.error),
    online && !isNetworkError(engagement.error),
  )
  return (
    <TabBody query={engagement} label="engagement" failure={engagementFailure} retry>
      {(d) => (
        <>
          <Cards>
            {[
              <Stat
                key="u"
                label="Total Users"
                value={formatCount(d.engagement.totalUsers)}
                hint={`${formatCount(d.engagement.highEngagementUsers)} highly engaged`}
              />,
              <Stat
                key="p"
                label="Avg Plays/User"
                value={d.engagement.averagePlaysPerUser.toLocaleString('en-US')}
                hint={`${listenTimeAnalytics(d.engagement.averageListenTimePerUser)} listen time`}
              />,
              <Stat key="r" label="Retention Rate" value={percentWhole(d.retention.retentionRate)} hint="daily / weekly active" />,
              <Stat key="q" label="Quality Score" value={percentWhole(100 - d.quality.bufferRate)} hint={`${d.quality.averageBufferCount} buffers per play`} />,
            ]}
          </Cards>
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
            <Panel title="User Interactions">
              <ul className={rowList}>
                <li>
                  <span>Like rate</span>
                  <span>{percentWhole(d.engagement.likeRate)}</span>
                </li>
                <li>
                  <span>Share rate</span>
                  <span>{percentWhole(d.engagement.shareRate)}</span>
                </li>
                <li>
                  <span>Repeat rate</span>
                  <span>{percentWhole(d.engagement.repeatRate)}</span>
                </li>
                <li>
                  <span>Avg active days</span>
                  <span>{d.engagement.averageActiveDays}</span>
                </li>
              </ul>
            </Panel>
            <Panel title="User Retention">
              <ul className={rowList}>
                <li>
                  <span>New users (7d)</span>
                  <span>{formatCount(d.retention.newUsersLast7Days)}</span>
                </li>
                <li>
                  <span>Active users (7d)</span>
                  <span>{formatCount(d.retention.activeUsersLast7Days)}</span>
                </li>
                <li>
                  <span>Returning users</span>
                  <span>{formatCount(d.retention.returningUsers)}</span>
                </li>
                <li>
                  <span>New-user retention</span>
                  <span>{percentWhole(d.retention.newUserRetentionRate)}</span>
                </li>
              </ul>
            </Panel>
            <Panel title="Quality Metrics">
              <ul className={rowList}>
                <li>
                  <span>Buffer rate</span>
                  <span>{percentWhole(d.quality.bufferRate)}</span>
                </li>
                <li>
                  <span>Quality-issue rate</span>
                  <span>{percentWhole(d.quality.qualityIssueRate)}</span>
                </li>
                <li>
                  <span>Buffer events</span>
                  <span>{formatCount(d.quality.totalBufferEvents)}</span>
                </li>
                <li>
                  <span>Quality drops</span>
                  <span>{formatCount(d.quality.totalQualityDrops)}</span>
                </li>
              </ul>
            </Panel>
          </div>
        </>
      )}
    </TabBody>
  )
}
