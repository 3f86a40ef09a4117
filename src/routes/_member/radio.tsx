// /radio: internet radio stations, the member's favourites first.
import { createFileRoute } from '@tanstack/react-router'
import { Suspense } from 'react'
import { TabSpinner } from '~/client/features/library/browse'
import { RadioPage } from '~/client/features/radio/radio-page'

export const Route = createFileRoute('/_member/radio')({
  head: () => ({ meta: [{ title: 'Radio · Vibes' }] }),
  component: function RadioRoute() {
    return (
      <Suspense fallback={<TabSpinner />}>
        <RadioPage />
      </Suspense>
    )
  },
})
