import { createFileRoute } from '@tanstack/react-router'
import { MessagesPage } from '~/client/features/admin/messages/messages-page'

export const Route = createFileRoute('/_admin/admin/messages')({
  head: () => ({ meta: [{ title: 'Messages · Admin · Vibes' }] }),
  component: MessagesPage,
})
