// /podcasts/$id: one podcast's episodes.
import { createFileRoute, type ErrorComponentProps, Link } from '@tanstack/react-router'
import { Suspense } from 'react'
import { css } from 'styled-system/css'
import { ErrorScreen } from '~/client/features/layout/error-screen'
import { TabSpinner } from '~/client/features/library/browse'
import { ChannelPage } from '~/client/features/podcasts/channel-page'
import { httpStatusOf } from '~/client/global-errors'

/** A podcast the member does not follow answers 404 like an unknown one. */
function PodcastError({ error, reset, info }: ErrorComponentProps) {
  if (httpStatusOf(error) !== 404 && httpStatusOf(error) !== 400) return <ErrorScreen error={error} reset={reset} info={info} />
  return (
    <section
      className={css({ minH: '50vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '4', textAlign: 'center' })}
    >
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Podcast not found</h1>
      <p className={css({ color: 'fg.muted', maxW: 'md' })}>You may have unsubscribed from it.</p>
      <Link to="/podcasts" className={css({ color: 'accent.default', fontWeight: 'medium', minH: '11', display: 'inline-flex', alignItems: 'center' })}>
        Back to podcasts
      </Link>
    </section>
  )
}

export const Route = createFileRoute('/_member/podcasts_/$id')({
  head: () => ({ meta: [{ title: 'Podcast · Vibes' }] }),
  errorComponent: PodcastError,
  component: function PodcastRoute() {
    const { id } = Route.useParams()
    return (
      <Suspense fallback={<TabSpinner />}>
        <ChannelPage id={id} />
      </Suspense>
    )
  },
})
