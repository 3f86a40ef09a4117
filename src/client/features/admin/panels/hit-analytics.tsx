// Hit analytics: totals and the first 10 day-and-page rows of
// the page hits, refreshed every 5 minutes, and Clear Hit Data behind a confirmation. An
// album or artist page shows its name above its key (the server resolves the ids).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { errorMessage, httpStatusOf } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import { dayLabel } from '../stats/page-views'
import { formatCount, plural } from './format'
import { EmptyState, ErrorBox, Panel, PanelLoading, Stat, TableScroll } from './panel'
import { table, TableHead } from '~/client/ui/table'

export const HIT_ANALYTICS_REFRESH_MS = 5 * 60_000
export const CLEAR_HITS_CONFIRM = 'Are you sure you want to clear all hit data? This action cannot be undone.'
const TABLE_ROWS = 10

export function HitAnalyticsPanel({ days }: { days: number }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const hits = useQuery(trpc.stats.hits.queryOptions({ days }, { refetchInterval: HIT_ANALYTICS_REFRESH_MS, staleTime: 60_000 }))
  const clear = useMutation(
    trpc.stats.clearHitData.mutationOptions({
      onSuccess: (data) => {
        setConfirming(false)
        toast({ title: `Cleared ${formatCount(data.recordsDeleted)} hit records`, type: 'success' })
        // Every traffic figure on the admin screens reads the hits.
        void queryClient.invalidateQueries({ queryKey: trpc.stats.pathKey() })
      },
      onError: (error) => {
        setConfirming(false)
        const status = httpStatusOf(error)
        if (!status || status < 500) toast({ title: 'Failed to clear hit data', description: errorMessage(error, 'Failed to clear hit data'), type: 'error' })
      },
    }),
  )
  const d = hits.data
  return (
    <Panel
      title={`Hit Analytics · ${plural(days, 'day')}`}
      id={`hit-analytics-${days}`}
      actions={
        <>
          <Button variant="outline" size="sm" aria-disabled={hits.isFetching} onClick={() => hits.isFetching || void hits.refetch()}>
            Refresh
          </Button>
          <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
            Clear Hit Data
          </Button>
        </>
      }
    >
      {hits.isPending ? (
        <PanelLoading label="Loading hit analytics" />
      ) : hits.isError && !d ? (
        <ErrorBox message={errorMessage(hits.error, 'Failed to fetch hit analytics')} />
      ) : !d ? null : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <div className={css({ display: 'grid', gridTemplateColumns: { base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' }, gap: '4' })}>
            <Stat label="Total hits" value={formatCount(d.summary.totalHits)} />
            <Stat label="Pages" value={formatCount(d.summary.uniquePages)} />
            <Stat label="Visitors" value={formatCount(d.summary.uniqueVisitors)} />
            <Stat label="Records" value={formatCount(d.summary.totalRecords)} />
          </div>
          {d.dailyStats.length === 0 ? (
            <EmptyState title="No hits recorded" text={`No page was visited in the last ${plural(days, 'day')}.`} />
          ) : (
            <TableScroll label="Hits per day and page">
              <table className={table()}>
                <TableHead columns={['Date', 'Page', { label: 'Hits', numeric: true }, { label: 'Visitors', numeric: true }]} />
                <tbody>
                  {d.dailyStats.slice(0, TABLE_ROWS).map((r) => (
                    <tr key={`${r.date}/${r.page}`}>
                      <td className={css({ whiteSpace: 'nowrap' })}>{dayLabel(r.date)}</td>
                      <td className={css({ wordBreak: 'break-all' })}>
                        {r.name !== null && <span className={css({ display: 'block', fontWeight: 'medium', wordBreak: 'normal' })}>{r.name}</span>}
                        <span className={r.name !== null ? css({ fontSize: 'xs', color: 'fg.muted' }) : undefined}>{r.page}</span>
                      </td>
                      <td className="num">{formatCount(r.totalHits)}</td>
                      <td className="num">{formatCount(r.uniqueVisitors)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => clear.mutate()}
        busy={clear.isPending}
        title="Clear hit data"
        description={CLEAR_HITS_CONFIRM}
        confirmLabel="Clear Hit Data"
        busyLabel="Clearing..."
      />
    </Panel>
  )
}
