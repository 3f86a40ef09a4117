// User Behavior: the ten most active members with their plays, listen time, completion, tracks and likes.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { formatCount, listenTimeAnalytics, percentWhole } from '../panels/format'
import { EmptyState, Panel, table, TableScroll } from '../panels/panel'
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
  )
}
