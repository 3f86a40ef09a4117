// The footer's page-visit counter (spec §2 "Navigation and footer", §8 "Footer counter"): one hit
// per navigation for the page key of the current path; "Loading...", "Page Visits: n" or
// "Stats unavailable". It calls the client directly (not through the query cache) so a failure
// never raises the global error toasts — the spec only logs it.
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { useTRPCClient } from '~/client/trpc'
import { pageKey } from '~/shared/page-key'

type Counts = { hitCount: number; uniqueHitCount: number; totalHitCount: number }
type State = { status: 'loading' } | { status: 'done'; counts: Counts } | { status: 'error' }

export function PageVisits() {
  const client = useTRPCClient()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const key = pageKey(pathname)
  const [state, setState] = useState<State>({ status: 'loading' })

  useEffect(() => {
    let current = true
    setState({ status: 'loading' })
    client.hits.record
      .mutate({ page: key })
      .then((counts) => current && setState({ status: 'done', counts }))
      .catch((error: unknown) => {
        console.warn('page visit counter failed', error)
        if (current) setState({ status: 'error' })
      })
    return () => {
      current = false
    }
  }, [client, key])

  const text = state.status === 'loading' ? 'Loading...' : state.status === 'error' ? 'Stats unavailable' : `Page Visits: ${state.counts.hitCount.toLocaleString('en-US')}`
  const title = state.status === 'done' ? `${state.counts.uniqueHitCount.toLocaleString('en-US')} unique visitors on this page · ${state.counts.totalHitCount.toLocaleString('en-US')} visits across the site` : undefined
  return (
    <span data-testid="page-visits" title={title} className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontVariantNumeric: 'tabular-nums' })}>
      <span aria-hidden className={css({ w: '1.5', h: '1.5', borderRadius: 'full', bg: state.status === 'error' ? 'fg.subtle' : 'accent.default' })} />
      {text}
    </span>
  )
}
