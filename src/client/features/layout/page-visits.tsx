// The footer's page-visit counter: one hit
// per navigation for the page key of the current path; "Loading...", "Page Visits: n" or
// "Stats unavailable". It calls the client directly (not through the query cache) so a failure
// never raises the global error toasts — it is only logged.
//
// What counts as one navigation: a committed router location (resolvedLocation, so a pending
// navigation or a hover preload never counts) identified by its history-entry key. The hit is sent
// from a zero-delay timer that the effect's cleanup cancels, so React's dev-mode double effects
// (StrictMode mounts, unmounts and mounts again) and a location that is replaced straight away
// (a redirect) send nothing for the discarded run. Unknown paths, which only match the root route
// and redirect to /, are not counted under their own key.
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { useTRPCClient } from '~/client/trpc'
import { pageKey } from '~/shared/page-key'

export type Counts = { hitCount: number; uniqueHitCount: number; totalHitCount: number }
export type State = { status: 'loading' } | { status: 'done'; counts: Counts } | { status: 'error' }

/**
 * The effect body: sends one hit for `page` after the current task, reporting the outcome, and
 * returns the cleanup. A cleanup that runs before the timer fires (StrictMode's mount-unmount-mount,
 * a location replaced at once) cancels the hit, so a remount sends exactly one.
 */
export function countVisit(page: string, send: (page: string) => Promise<Counts>, report: (state: State) => void): () => void {
  let current = true
  const timer = setTimeout(() => {
    send(page)
      .then((counts) => current && report({ status: 'done', counts }))
      .catch((error: unknown) => {
        console.warn('page visit counter failed', error)
        if (current) report({ status: 'error' })
      })
  }, 0)
  return () => {
    current = false
    clearTimeout(timer)
  }
}

export function PageVisits() {
  const client = useTRPCClient()
  const visit = useRouterState({
    select: (s) => {
      const loc = s.resolvedLocation
      // Not settled yet, or no route matched (only the root: the not-found redirect to / follows).
      const leaf = s.matches.at(-1)
      if (!loc || s.status !== 'idle' || !leaf || leaf.routeId === '__root__' || s.matches.some((m) => m.status === 'notFound')) return null
      return `${loc.state.__TSR_key ?? loc.state.key ?? loc.href}\n${pageKey(loc.pathname)}`
    },
  })
  const [state, setState] = useState<State>({ status: 'loading' })

  useEffect(() => {
    if (visit === null) return
    setState({ status: 'loading' })
    return countVisit(visit.slice(visit.indexOf('\n') + 1), (page) => client.hits.record.mutate({ page }), setState)
  }, [client, visit])

  const text =
    state.status === 'loading' ? 'Loading...' : state.status === 'error' ? 'Stats unavailable' : `Page Visits: ${state.counts.hitCount.toLocaleString('en-US')}`
  const title =
    state.status === 'done'
      ? `${state.counts.uniqueHitCount.toLocaleString('en-US')} unique visitors on this page · ${state.counts.totalHitCount.toLocaleString('en-US')} visits across the site`
      : undefined
  return (
    <span
      data-testid="page-visits"
      data-state={state.status}
      title={title}
      className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontVariantNumeric: 'tabular-nums' })}
    >
      <span aria-hidden className={css({ w: '1.5', h: '1.5', borderRadius: 'full', bg: state.status === 'error' ? 'fg.subtle' : 'accent.default' })} />
      {text}
    </span>
  )
}
