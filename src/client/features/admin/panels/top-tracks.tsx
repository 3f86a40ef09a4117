// Top Tracks (a panel of Insights and the dashboard): period 1/7/14/30 days, 5–50
// rows, plays sortable on the client (desc by default), Refresh and Clear Cache & Refresh (which
// asks the server to drop its 2-minute copy), both blocked while a refresh runs. It refreshes
// every 30 minutes on Insights, elsewhere every 3 (5 while rate-limited).
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { errorMessage, httpStatusOf } from '~/client/global-errors'
import { useTRPC, useTRPCClient } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { SelectField } from '~/client/ui/select'
import { TOP_TRACKS_DAYS, TOP_TRACKS_LIMIT } from '~/shared/validators/analytics'
import { formatCount, sortTracks, topTracksRefreshMs } from './format'
import { EmptyState, ErrorBox, Panel, PanelLoading, TableScroll } from './panel'
import { table, TableHead } from '~/client/ui/table'

const PERIODS = [
  { value: '1', label: 'Last day' },
  { value: '7', label: 'Last week' },
  { value: '14', label: 'Last 2 weeks' },
  { value: '30', label: 'Last month' },
] as const
const ROWS = ['5', '10', '20', '50'].map((n) => ({ value: n, label: `${n} rows` }))

export function TopTracksPanel({ place = 'elsewhere' }: { place?: 'insights' | 'elsewhere' }) {
  const trpc = useTRPC()
  const client = useTRPCClient()
  const queryClient = useQueryClient()
  const [days, setDays] = useState<1 | 7 | 14 | 30>(TOP_TRACKS_DAYS)
  const [limit, setLimit] = useState(TOP_TRACKS_LIMIT)
  const [direction, setDirection] = useState<'desc' | 'asc'>('desc')
  const [clearing, setClearing] = useState(false)
  const input = { days, limit }
  const tracks = useQuery(
    trpc.stats.topTracks.queryOptions(input, {
      refetchInterval: (query) => topTracksRefreshMs(place, httpStatusOf(query.state.error) === 429),
      staleTime: topTracksRefreshMs(place, false),
    }),
  )
  const busy = tracks.isFetching || clearing

  async function clearAndRefresh() {
    if (busy) return
    setClearing(true)
    try {
      const fresh = await client.stats.topTracks.query({ ...input, clearCache: true })
      queryClient.setQueryData(trpc.stats.topTracks.queryKey(input), fresh)
    } catch {
      // the global handler reports network/429/5xx; the panel keeps its rows
    } finally {
      setClearing(false)
    }
  }

  const rows = tracks.data ? sortTracks(tracks.data, direction) : []
  return (
    <Panel
      title="Top Tracks"
      actions={
        <>
          <SelectField
            label="Top tracks period"
            hideLabel
            options={PERIODS}
            value={String(days)}
            onValueChange={(v) => setDays(Number(v) as 1 | 7 | 14 | 30)}
            className={css({ w: '36' })}
          />
          <SelectField
            label="Top tracks rows"
            hideLabel
            options={ROWS}
            value={String(limit)}
            onValueChange={(v) => setLimit(Number(v))}
            className={css({ w: '28' })}
          />
          <Button variant="outline" size="sm" aria-disabled={busy} aria-busy={tracks.isFetching && !clearing} onClick={() => busy || void tracks.refetch()}>
            Refresh
          </Button>
          <Button variant="outline" size="sm" aria-disabled={busy} aria-busy={clearing} onClick={() => void clearAndRefresh()}>
            Clear Cache & Refresh
          </Button>
        </>
      }
    >
      {tracks.isPending ? (
        <PanelLoading label="Loading top tracks" />
      ) : tracks.isError && !tracks.data ? (
        <ErrorBox message={errorMessage(tracks.error, 'Failed to fetch top tracks')} />
      ) : rows.length === 0 ? (
        <EmptyState title="No track data available" text="There are no play events in the selected time period." />
      ) : (
        <TableScroll label="Top tracks">
          <table className={table()}>
            <TableHead
              columns={[
                '#',
                'Track',
                {
                  label: (
                    <button
                      type="button"
                      onClick={() => setDirection((d) => (d === 'desc' ? 'asc' : 'desc'))}
                      className={css({ cursor: 'pointer', fontWeight: 'medium', _hover: { color: 'fg.default' } })}
                    >
                      Plays {direction === 'desc' ? '↓' : '↑'}
                    </button>
                  ),
                  numeric: true,
                  sort: direction === 'desc' ? 'descending' : 'ascending',
                },
              ]}
            />
            <tbody>
              {rows.map((t, i) => (
                <tr key={t.trackUrl}>
                  <td className={css({ color: 'fg.subtle', w: '8' })}>{i + 1}</td>
                  <td className={css({ minW: 0 })}>
                    <div className={css({ fontWeight: 'medium', wordBreak: 'break-word' })}>{t.title}</div>
                    {t.artist && <div className={css({ color: 'fg.muted', fontSize: 'xs' })}>{t.artist}</div>}
                  </td>
                  <td className="num">{formatCount(t.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  )
}
