// Playlists: each playlist's plays, listeners, tracks, completion and listen time.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { formatCount, listenTimeAnalytics, percentWhole, shortId } from '../panels/format'
import { EmptyState, Panel, TableScroll } from '../panels/panel'
import { table, TableHead } from '~/client/ui/table'
import { TabBody } from './tab-body'
import type { usePlaylists } from './queries'

export function PlaylistsTab({ query: playlists }: { query: ReturnType<typeof usePlaylists> }) {
  return (
    <TabBody query={playlists} label="playlist analytics" failure={errorMessage(playlists.error, 'Failed to fetch playlist analytics')}>
      {(d) => (
        <Panel title="Playlist Performance">
          {d.playlists.length === 0 ? (
            <EmptyState title="No playlist plays in this period" />
          ) : (
            <TableScroll label="Playlist performance">
              <table className={table()}>
                <TableHead columns={['Playlist', ...['Plays', 'Users', 'Tracks', 'Completion %', 'Listen Time'].map((label) => ({ label, numeric: true }))]} />
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
  )
}
