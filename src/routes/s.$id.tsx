// /s/$id: a share link's public page (no account needed). The loader opens the link during SSR
// (the visit is counted once, its answer hydrated), and the HTTP status says what the page says:
// 200 for a live link, 410 once it has expired, was revoked or its playlist was deleted, 404 for
// an unknown one.
import { createFileRoute } from '@tanstack/react-router'
import { createIsomorphicFn } from '@tanstack/react-start'
import { setResponseStatus } from '@tanstack/react-start/server'
import { SharePage } from '~/client/features/shares/share-page'
import type { ShareOpening } from '~/client/features/shares/types'
import { SHARE_ID_PATTERN } from '~/shared/validators/shares'

const answerStatus = createIsomorphicFn()
  .server((status: number) => setResponseStatus(status))
  .client(() => {})

const STATUS = { open: 200, expired: 410, revoked: 410, gone: 410, missing: 404 } as const
const MISSING: ShareOpening = { state: 'missing', message: 'This share link does not exist' }

export const Route = createFileRoute('/s/$id')({
  loader: async ({ context, params }): Promise<ShareOpening> => {
    const opening = SHARE_ID_PATTERN.test(params.id)
      ? await context.queryClient.ensureQueryData(context.trpc.shares.open.queryOptions({ id: params.id }))
      : MISSING
    answerStatus(STATUS[opening.state])
    return opening
  },
  head: ({ loaderData }) => ({
    meta: [
      { title: loaderData?.state === 'open' ? `${loaderData.share.title} · Shared on Vibes` : 'Shared link · Vibes' },
      { name: 'robots', content: 'noindex' },
    ],
  }),
  component: function ShareRoute() {
    return <SharePage opening={Route.useLoaderData()} />
  },
})
