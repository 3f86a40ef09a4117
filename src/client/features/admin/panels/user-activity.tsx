// User Activity (the Traffic tab and Insights): new users (with a '+' when above zero)
// and logins for each of the last 7 days, refreshed every 10 minutes.
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { formatCount, newUsersText } from './format'
import { EmptyState, ErrorBox, Panel, PanelLoading, TableScroll } from './panel'
import { table, TableHead } from '~/client/ui/table'

export const USER_ACTIVITY_REFRESH_MS = 10 * 60_000

export function UserActivityPanel() {
  const trpc = useTRPC()
  const summary = useQuery(trpc.stats.userActivitySummary.queryOptions({}, { refetchInterval: USER_ACTIVITY_REFRESH_MS, staleTime: USER_ACTIVITY_REFRESH_MS }))
  return (
    <Panel title="User Activity">
      {summary.isPending ? (
        <PanelLoading label="Loading user activity" />
      ) : summary.isError && !summary.data ? (
        <ErrorBox message={errorMessage(summary.error, 'Failed to fetch user activity summary')} />
      ) : !summary.data?.length ? (
        <EmptyState title="No user activity data available." />
      ) : (
        <TableScroll label="User activity">
          <table className={table()}>
            <TableHead columns={['Date', { label: 'New Users', numeric: true }, { label: 'Logins', numeric: true }]} />
            <tbody>
              {summary.data.map((d) => (
                <tr key={d.date}>
                  <td>{d.dateLabel}</td>
                  <td className="num">
                    <span className={d.newUsers > 0 ? css({ color: 'success.fg', fontWeight: 'semibold' }) : undefined}>{newUsersText(d.newUsers)}</span>
                  </td>
                  <td className="num">{formatCount(d.logins)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  )
}
