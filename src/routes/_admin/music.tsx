// /music: the admin Music screen on its second route (the same screen as /admin/music).
import { createFileRoute } from '@tanstack/react-router'
import { MusicPage } from '~/client/features/admin/music/music-page'

export const Route = createFileRoute('/_admin/music')({
  head: () => ({ meta: [{ title: 'Music · Vibes' }] }),
  component: MusicPage,
})
