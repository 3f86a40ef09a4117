// Listening Analytics (admin spec §2 "/admin/listening-analytics", §4, §8, §9): a period of 1, 7
// (default), 14, 30, 60 or 90 days, Refresh All, and six tabs that load on their own (spinner,
// red error box, data): Overview, User Behavior, Patterns, Geographic, Playlists, Engagement.
// Engagement keeps its last answer when a refresh fails and says so; its error has a Retry.
import type { UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { css } from 'styled-system/css'
import { errorMessage, httpStatusOf, isNetworkError } from '~/client/global-errors'
import { Button } from '~/client/ui/button'
import { SelectField } from '~/client/ui/select'
import { Tabs } from '~/client/ui/tabs'
import { DEFAULT_ANALYTICS_DAYS, type AnalyticsDays } from '~/shared/validators/analytics'
import {
  barWidth,
  clockDuration,
  deviceName,
  engagementErrorMessage,
  formatCount,
  genreLabel,
  hourLabel,
  listenTimeAnalytics,
  percentWhole,
  plural,
  shortId,
  sourceName,
} from '../panels/format'
import { BackToDashboard, Bar, EmptyState, ErrorBox, Notice, Panel, panelGrid, PanelLoading, Stat, statGrid, table, TableScroll } from '../panels/panel'
import { refetchAll, useEngagement, useGeographic, useOverview, usePatterns, usePlaylists, useUserBehavior } from './queries'

const PERIODS = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '14', label: 'Last 14 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '60', label: 'Last 60 days' },
  { value: '90', label: 'Last 90 days' },
] as const

/** Spinner while the tab's answer is loading, the red box when it failed, else its content. */
function TabBody<T>({
  query,
  label,
  failure,
  children,
  retry,
}: {
  query: UseQueryResult<T, unknown>
  label: string
  failure: string
  children: (data: T) => ReactNode
  retry?: boolean
}) {
  if (query.isPending) return <PanelLoading label={`Loading ${label}`} />
  const retryButton = retry ? (
    <Button variant="outline" size="sm" onClick={() => void query.refetch()} aria-disabled={query.isFetching}>
      Retry
    </Button>
  ) : undefined
  if (!query.data) return <ErrorBox message={failure} action={retryButton} />
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      {query.isFetching && (
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })} role="status">
            Refreshing {label}…
          </span>
        </div>
      )}
      {query.isError && (retry ? <Notice>Using cached data - Unable to refresh from server</Notice> : <ErrorBox message={failure} />)}
      {children(query.data)}
    </div>
  )
}

const cardBox = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', p: '4' })
const list = css({ display: 'flex', flexDirection: 'column', gap: '3' })
const rowList = css({
  display: 'flex',
  flexDirection: 'column',
  '& > li': { display: 'flex', justifyContent: 'space-between', gap: '3', py: '2', borderBottomWidth: '1px', borderColor: 'border.default', fontSize: 'sm' },
  '& > li:last-child': { borderBottomWidth: '0' },
})

function Cards({ children }: { children: ReactNode[] }) {
  return (
    <div className={statGrid}>
      {children.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of cards in a fixed order
        <div key={i} className={cardBox}>
          {c}
        </div>
      ))}
    </div>
  )
}

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
  const online = typeof navigator === 'undefined' ? true : navigator.onLine
  const engagementFailure = engagementErrorMessage(
    errorMessage(engagement.error, 'Failed to fetch engagement analytics'),
    isNetworkError(engagement.error) ? undefined : httpStatusOf(engagement.error),
    online && !isNetworkError(engagement.error),
  )

  const tabs = [
    {
      value: 'overview',
      label: 'Overview',
      content: (
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
                  <div key="c" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
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
                  rows={d.devices
                    .slice(0, 5)
                    .map((s) => ({ key: s.deviceType, name: deviceName(s.deviceType), count: s.count, average: s.averageListenDuration }))}
                />
              </div>
            </>
          )}
        </TabBody>
      ),
    },
    {
      value: 'behavior',
      label: 'User Behavior',
      content: (
        <TabBody query={behavior} label="user behavior" failure={errorMessage(behavior.error, 'Failed to fetch user behavior analytics')}>
          {(d) => (
            <Panel title="Top Users by Activity">
              {d.users.length === 0 ? (
                <EmptyState title="No listening in this period" />
              ) : (
                <TableScroll label="Top users by activity">
                  <table className={table}>
                    <thead>
                      <tr>
                        <th scope="col">User</th>
                        <th scope="col" className="num">
                          Plays
                        </th>
                        <th scope="col" className="num">
                          Listen Time
                        </th>
                        <th scope="col" className="num">
                          Completion %
                        </th>
                        <th scope="col" className="num">
                          Tracks
                        </th>
                        <th scope="col" className="num">
                          Likes
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.users.slice(0, 10).map((u) => (
                        <tr key={u.userId}>
                          <td>
                            <div className={css({ fontWeight: 'medium' })}>{u.username}</div>
                            <div className={css({ color: 'fg.subtle', fontSize: 'xs', wordBreak: 'break-all' })}>{u.email}</div>
                          </td>
                          <td className="num">{formatCount(u.totalPlays)}</td>
                          <td className="num">{listenTimeAnalytics(u.totalListenTime)}</td>
                          <td className="num">{percentWhole(u.completionRate)}</td>
                          <td className="num">{formatCount(u.uniqueTracks)}</td>
                          <td className="num">{formatCount(u.likedTracks)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Panel>
          )}
        </TabBody>
      ),
    },
    {
      value: 'patterns',
      label: 'Patterns',
      content: (
        <TabBody query={patterns} label="listening patterns" failure={errorMessage(patterns.error, 'Failed to fetch listening patterns')}>
          {(d) => {
            const max = Math.max(0, ...d.hourlyPattern.map((h) => h.plays))
            return (
              <div className={panelGrid}>
                <Panel title="Plays by Hour (UTC)">
                  <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })} aria-label="Plays per hour of the day">
                    {d.hourlyPattern.map((h) => (
                      <Bar key={h.hour} label={hourLabel(h.hour)} value={formatCount(h.plays)} width={barWidth(h.plays, max, 5)} />
                    ))}
                  </ul>
                </Panel>
                <Panel title="Top Genres">
                  {d.genrePattern.length === 0 ? (
                    <EmptyState title="No plays in this period" />
                  ) : (
                    <ul className={list}>
                      {d.genrePattern.slice(0, 8).map((g) => (
                        <Bar
                          key={g.genre ?? '\u0000'}
                          label={genreLabel(g.genre)}
                          value={formatCount(g.plays)}
                          detail={`${percentWhole(g.averageCompletionRate)} completed`}
                          width={barWidth(g.plays, d.genrePattern[0].plays)}
                        />
                      ))}
                    </ul>
                  )}
                </Panel>
              </div>
            )
          }}
        </TabBody>
      ),
    },
    {
      value: 'geographic',
      label: 'Geographic',
      content: (
        <TabBody query={geographic} label="geographic data" failure={errorMessage(geographic.error, 'Failed to fetch geographic analytics')}>
          {(d) => (
            <div className={css({ display: 'grid', gap: '3' })}>
              <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
                {(
                  [
                    ['Top Countries', d.countries.map((c) => ({ key: c.country, name: c.country, plays: c.plays, users: c.uniqueUsers }))],
                    [
                      'Top Regions',
                      d.regions.map((r) => ({
                        key: `${r.region}/${r.country}`,
                        name: [r.region, r.country].filter(Boolean).join(', '),
                        plays: r.plays,
                        users: r.uniqueUsers,
                      })),
                    ],
                    [
                      'Top Cities',
                      d.cities.map((c) => ({
                        key: `${c.city}/${c.region}/${c.country}`,
                        name: [c.city, c.country].filter(Boolean).join(', '),
                        plays: c.plays,
                        users: c.uniqueUsers,
                      })),
                    ],
                  ] as const
                ).map(([title, rows]) => (
                  <Panel key={title} title={title}>
                    {rows.length === 0 ? (
                      <EmptyState
                        title="No location data"
                        text="Places come from the offline GeoIP database for public addresses, or from the proxy's headers (TRUST_PROXY)."
                      />
                    ) : (
                      <ul className={rowList}>
                        {rows.slice(0, 8).map((r) => (
                          <li key={r.key}>
                            <span className={css({ minW: 0, wordBreak: 'break-word' })}>{r.name}</span>
                            <span className={css({ color: 'fg.muted', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                              {plural(r.plays, 'play')} · {plural(r.users, 'user')}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </Panel>
                ))}
              </div>
              {/* DB-IP Lite's licence (CC BY 4.0) asks for this link on pages showing its results (decision 036). */}
              <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                <a href="https://db-ip.com" target="_blank" rel="noreferrer" className={css({ textDecoration: 'underline' })}>
                  IP Geolocation by DB-IP
                </a>
              </p>
            </div>
          )}
        </TabBody>
      ),
    },
    {
      value: 'playlists',
      label: 'Playlists',
      content: (
        <TabBody query={playlists} label="playlist analytics" failure={errorMessage(playlists.error, 'Failed to fetch playlist analytics')}>
          {(d) => (
            <Panel title="Playlist Performance">
              {d.playlists.length === 0 ? (
                <EmptyState title="No playlist plays in this period" />
              ) : (
                <TableScroll label="Playlist performance">
                  <table className={table}>
                    <thead>
                      <tr>
                        <th scope="col">Playlist</th>
                        <th scope="col" className="num">
                          Plays
                        </th>
                        <th scope="col" className="num">
                          Users
                        </th>
                        <th scope="col" className="num">
                          Tracks
                        </th>
                        <th scope="col" className="num">
                          Completion %
                        </th>
                        <th scope="col" className="num">
                          Listen Time
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.playlists.map((p) => (
                        <tr key={p.playlistId}>
                          <td>
                            {p.name !== null && (
                              <span className={css({ display: 'block', fontWeight: 'medium' })}>
                                {p.name}
                                {p.owner !== null && <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}> · {p.owner}</span>}
                              </span>
                            )}
                            {p.path !== null && (
                              <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted', wordBreak: 'break-all' })}>
                                {p.path || 'Whole library'}
                              </span>
                            )}
                            <code title={p.playlistId} className={p.name !== null ? css({ fontSize: 'xs', color: 'fg.muted' }) : undefined}>
                              {shortId(p.playlistId)}
                            </code>
                          </td>
                          <td className="num">{formatCount(p.plays)}</td>
                          <td className="num">{formatCount(p.uniqueUsers)}</td>
                          <td className="num">
                            {/* The folder's size; a remote list's is not known here (its played tracks are not its size). */}
                            {p.trackCount === null ? (
                              <>
                                <span aria-hidden>—</span>
                                <span className={css({ srOnly: true })}>Not known</span>
                              </>
                            ) : (
                              formatCount(p.trackCount)
                            )}
                          </td>
                          <td className="num">{percentWhole(p.completionRate)}</td>
                          <td className="num">{listenTimeAnalytics(p.totalListenTime)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </Panel>
          )}
        </TabBody>
      ),
    },
    {
      value: 'engagement',
      label: 'Engagement',
      content: (
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
                  <Stat
                    key="q"
                    label="Quality Score"
                    value={percentWhole(100 - d.quality.bufferRate)}
                    hint={`${d.quality.averageBufferCount} buffers per play`}
                  />,
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
      ),
    },
  ]

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <BackToDashboard />
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: '4' })}>
        <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Listening Analytics</h2>
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

/** A top-5 list of play counts with their average listen duration (Overview's sources and devices). */
function TopPlays({ title, rows }: { title: string; rows: { key: string; name: string; count: number; average: number }[] }) {
  return (
    <Panel title={title}>
      {rows.length === 0 ? (
        <EmptyState title="No plays in this period" />
      ) : (
        <ul className={rowList}>
          {rows.map((r) => (
            <li key={r.key}>
              <span>{r.name}</span>
              <span className={css({ color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
                {plural(r.count, 'play')} · avg {clockDuration(r.average)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}
