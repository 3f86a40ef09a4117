// What every Listening Analytics tab shares: the loading / error / data states of one query,
// the row of stat cards, and the two-column lists of names and figures.
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { clockDuration, plural } from '../panels/format'
import { EmptyState, ErrorBox, Notice, Panel, PanelLoading, statGrid } from '../panels/panel'
import { stack } from 'styled-system/patterns'
import { card } from '~/client/ui/card'
import { mutedText } from '~/client/ui/text'

/** Spinner while the tab's answer is loading, the red box when it failed, else its content. */
export function TabBody<T>({
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
    <div className={stack({ gap: '4' })}>
      {query.isFetching && (
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <span className={mutedText({ size: 'xs' })} role="status">
            Refreshing {label}…
          </span>
        </div>
      )}
      {query.isError && (retry ? <Notice>Using cached data - Unable to refresh from server</Notice> : <ErrorBox message={failure} />)}
      {children(query.data)}
    </div>
  )
}

const cardBox = card({ size: 'sm' })
export const list = stack({ gap: '3' })
export const rowList = css({
  display: 'flex',
  flexDirection: 'column',
  '& > li': { display: 'flex', justifyContent: 'space-between', gap: '3', py: '2', borderBottomWidth: '1px', borderColor: 'border.default', fontSize: 'sm' },
  '& > li:last-child': { borderBottomWidth: '0' },
})

export function Cards({ children }: { children: ReactNode[] }) {
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

/** A top-5 list of play counts with their average listen duration (Overview's sources and devices). */
export function TopPlays({ title, rows }: { title: string; rows: { key: string; name: string; count: number; average: number }[] }) {
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
