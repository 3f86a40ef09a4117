// Recent errors (the Errors tab, refreshed every 2 minutes): server faults recorded in the
// last hours, from GET /admin/errors.
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { useNow } from '~/client/features/charts/use-now'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { relativeTime } from '~/shared/relative-time'
import { EmptyState, ErrorBox, Panel, PanelLoading } from './panel'
import { stack } from 'styled-system/patterns'

export const RECENT_ERRORS_REFRESH_MS = 2 * 60_000
const HOURS = 24

export function RecentErrorsPanel() {
  const trpc = useTRPC()
  const now = useNow()
  const errors = useQuery(
    trpc.stats.errors.queryOptions({ hours: HOURS, limit: 10 }, { refetchInterval: RECENT_ERRORS_REFRESH_MS, staleTime: RECENT_ERRORS_REFRESH_MS }),
  )
  return (
    <Panel title="Recent Errors">
      {errors.isPending ? (
        <PanelLoading label="Loading recent errors" />
      ) : errors.isError && !errors.data ? (
        <ErrorBox message={errorMessage(errors.error, 'Failed to fetch recent errors')} />
      ) : !errors.data?.errors.length ? (
        <EmptyState title="No errors" text={`No server errors in the last ${HOURS} hours.`} />
      ) : (
        <ul className={stack({ gap: '2' })}>
          {errors.data.errors.map((e) => (
            <li
              key={e.id}
              className={css({ borderLeftWidth: '3px', borderColor: 'danger.default', bg: 'bg.subtle', borderRadius: 'md', px: '3', py: '2', fontSize: 'sm' })}
            >
              <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
                <code className={css({ fontSize: 'xs', color: 'fg.muted', wordBreak: 'break-all' })}>
                  {e.status} {e.method} {e.path}
                </code>
                <time dateTime={e.createdAt} className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
                  {now === null ? '' : relativeTime(e.createdAt, Math.max(now, errors.dataUpdatedAt))}
                </time>
              </div>
              <p className={css({ color: 'danger.fg', mt: '1', wordBreak: 'break-word' })}>{e.message}</p>
            </li>
          ))}
        </ul>
      )}
      {errors.data && errors.data.total > errors.data.errors.length && (
        <p className={css({ fontSize: 'xs', color: 'fg.subtle', mt: '3' })}>
          Showing {errors.data.errors.length} of {errors.data.total}.
        </p>
      )}
    </Panel>
  )
}
