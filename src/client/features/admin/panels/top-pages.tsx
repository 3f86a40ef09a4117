// Top Pages (30 days, 5 entries): page and views.
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { TOP_PAGES_DAYS, TOP_PAGES_LIMIT } from '~/shared/validators/analytics'
import { formatCount } from './format'
import { EmptyState, ErrorBox, Panel, PanelLoading, TableScroll } from './panel'
import { table, TableHead } from '~/client/ui/table'

export function TopPagesPanel({ refreshMs }: { refreshMs: number }) {
  const trpc = useTRPC()
  const pages = useQuery(trpc.stats.topPages.queryOptions({ days: TOP_PAGES_DAYS, limit: TOP_PAGES_LIMIT }, { refetchInterval: refreshMs, staleTime: 60_000 }))
  return (
    <Panel title="Top Pages">
      {pages.isPending ? (
        <PanelLoading label="Loading top pages" />
      ) : pages.isError && !pages.data ? (
        <ErrorBox message={errorMessage(pages.error, 'Failed to fetch top pages data')} />
      ) : !pages.data?.pages.length ? (
        <EmptyState title="No page view data available" />
      ) : (
        <TableScroll label="Top pages">
          <table className={table()}>
            <TableHead columns={['Page', { label: 'Views', numeric: true }]} />
            <tbody>
              {pages.data.pages.map((p) => (
                <tr key={p.page}>
                  <td>
                    <div className={css({ fontWeight: 'medium' })}>{p.pageName}</div>
                    <div className={css({ color: 'fg.subtle', fontSize: 'xs' })}>/{p.page === 'home' ? '' : p.page}</div>
                  </td>
                  <td className="num">{formatCount(p.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Panel>
  )
}
