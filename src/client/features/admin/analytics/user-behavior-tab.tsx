// User Behavior: the ten most active members with their plays, listen time, completion, tracks and likes.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { formatCount, listenTimeAnalytics, percentWhole } from '../panels/format'
import { EmptyState, Panel, TableScroll } from '../panels/panel'
import { table, TableHead } from '~/client/ui/table'
import { TabBody } from './tab-body'
import type { useUserBehavior } from './queries'

export function UserBehaviorTab({ query: behavior }: { query: ReturnType<typeof useUserBehavior> }) {
  return (
    <TabBody query={behavior} label="user behavior" failure={errorMessage(behavior.error, 'Failed to fetch user behavior analytics')}>
      {(d) => (
        <Panel title="Top Users by Activity">
          {d.users.length === 0 ? (
            <EmptyState title="No listening in this period" />
          ) : (
            <TableScroll label="Top users by activity">
              <table className={table()}>
                <TableHead columns={['User', ...['Plays', 'Listen Time', 'Completion %', 'Tracks', 'Likes'].map((label) => ({ label, numeric: true }))]} />
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
  )
}
