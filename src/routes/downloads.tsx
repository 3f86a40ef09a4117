// /downloads: what is downloaded on this device, playable with no network. Public: the service
// worker keeps its anonymous render as the page a cold start offline opens on.
import { createFileRoute } from '@tanstack/react-router'
import { DownloadsPage } from '~/client/features/offline/downloads-page'

export const Route = createFileRoute('/downloads')({
  head: () => ({ meta: [{ title: 'Downloads · Vibes' }] }),
  component: DownloadsPage,
})
